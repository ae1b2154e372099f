package dev.interlock.properties.fuzz;

import dev.interlock.properties.engine.Gen;
import dev.interlock.properties.engine.Source;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Mutated inputs from real files: each mutant is a seed file with 1 to 4 byte, line or token edits (deleted,
 * duplicated and swapped lines, numbers made huge, negative or zero, unicode, NUL, tabs, CRLF, truncation, very long
 * names, lines repeated thousands of times), chosen from the source's choices so that shrinking drops and simplifies
 * edits.
 */
public final class Mutations {
  /** Numbers a number token is replaced with: the edges of int, long and double, signs, and forms that are no number. */
  static final List<String> NUMBERS = List.of("0", "-1", "1", "2147483647", "2147483648", "-2147483649",
      "9223372036854775807", "9223372036854775808", "-9223372036854775809", "99999999999999999999999999", "1e308",
      "1e-400", "NaN", "Infinity", "0x10", "1.5", "-0", "00000000001", "1_000", "٣", "");

  /** Text inserted at a position: unicode letters and spaces, a BOM, a lone surrogate, control characters, syntax. */
  static final List<String> INSERTS = List.of("\u0000", "\t", "\r", "\r\n", "\n", " ", "é", "\u00a0", "\u2028",
      "\ufeff", "\u200b", "\ud835\udd38", "\ud800", "\u0085", "#", "=", ":", "-", ".", ",", "(", ")", "{", "}", "\"",
      "'", "\\", "*", "GiB", "%", "@", "|", "  ", "x");

  /** Edits that would make a mutant longer than this many characters are left out (a repeated very long line). */
  static final int MAX_CHARS = 1 << 21;

  private static final Pattern NUMBER = Pattern.compile("-?[0-9]+(\\.[0-9]+)?");
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_#.]*");

  private Mutations() {}

  /** A named seed file. */
  public record Seed(String name, String text) {
    public Seed {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(text, "text");
    }
  }

  /** Mutants of the seeds: a seed (shrinking toward the first), then 1 to 4 edits. */
  public static Gen<Mutant> of(List<Seed> seeds) {
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("no seed files");
    }
    List<Seed> copy = List.copyOf(seeds);
    return src -> {
      Seed seed = copy.get(src.choose(copy.size() - 1));
      String text = seed.text();
      List<String> edits = new ArrayList<>();
      int n = 1 + src.choose(3);
      for (int i = 0; i < n; i++) {
        Edit e = edit(src, text, copy);
        if (e.text().length() <= MAX_CHARS) {
          edits.add(e.what());
          text = e.text();
        }
      }
      return new Mutant(seed.name(), edits, text);
    };
  }

  private record Edit(String what, String text) {}

  private static Edit edit(Source src, String text, List<Seed> seeds) {
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    int li = src.choose(lines.size() - 1);
    int at = text.isEmpty() ? 0 : src.choose(text.length());
    switch (src.choose(15)) {
      case 0 -> {
        lines.remove(li);
        return new Edit("delete line " + (li + 1), String.join("\n", lines));
      }
      case 1 -> {
        lines.add(li, lines.get(li));
        return new Edit("duplicate line " + (li + 1), String.join("\n", lines));
      }
      case 2 -> {
        int lj = src.choose(lines.size() - 1);
        String l = lines.get(li);
        lines.set(li, lines.get(lj));
        lines.set(lj, l);
        return new Edit("swap lines " + (li + 1) + " and " + (lj + 1), String.join("\n", lines));
      }
      case 3 -> {
        return token(src, text, NUMBER, "number", NUMBERS.get(src.choose(NUMBERS.size() - 1)));
      }
      case 4 -> {
        String ins = INSERTS.get(src.choose(INSERTS.size() - 1));
        return new Edit("insert '" + Mutant.escape(ins, 10) + "' at " + at, text.substring(0, at) + ins + text.substring(at));
      }
      case 5 -> {
        return new Edit("truncate at " + at, text.substring(0, at));
      }
      case 6 -> {
        int len = 1 << (8 + src.choose(9)); // 256 .. 65536
        return token(src, text, NAME, "name", "n".repeat(len));
      }
      case 7 -> {
        return new Edit("spaces to tabs", text.replace(" ", "\t"));
      }
      case 8 -> {
        return new Edit("CRLF line ends", text.replace("\n", "\r\n"));
      }
      case 9 -> {
        int end = Math.min(text.length(), at + 1 + src.choose(40));
        return new Edit("delete chars " + at + ".." + end, text.substring(0, at) + text.substring(end));
      }
      case 10 -> {
        int end = Math.min(text.length(), at + 1 + src.choose(40));
        return new Edit("duplicate chars " + at + ".." + end, text.substring(0, end) + text.substring(at));
      }
      case 11 -> {
        Seed other = seeds.get(src.choose(seeds.size() - 1));
        String[] theirs = other.text().split("\n", -1);
        String line = theirs[src.choose(theirs.length - 1)];
        lines.add(li, line);
        return new Edit("insert a line of " + other.name() + " at line " + (li + 1), String.join("\n", lines));
      }
      case 12 -> {
        int times = 1 << (4 + src.choose(8)); // 16 .. 4096
        List<String> more = new ArrayList<>(lines.subList(0, li));
        for (int k = 0; k < times; k++) {
          more.add(lines.get(li));
        }
        more.addAll(lines.subList(li, lines.size()));
        return new Edit("repeat line " + (li + 1) + " " + times + " times", String.join("\n", more));
      }
      case 13 -> {
        return token(src, text, NAME, "name", INSERTS.get(src.choose(INSERTS.size() - 1)));
      }
      case 14 -> {
        return new Edit("NUL at " + at, text.substring(0, at) + "\u0000" + text.substring(at));
      }
      default -> {
        return new Edit("replace char at " + at + " by a byte", text.isEmpty() ? text
            : text.substring(0, Math.min(at, text.length() - 1)) + (char) src.choose(255)
                + text.substring(Math.min(at, text.length() - 1) + 1));
      }
    }
  }

  /** Replaces the k-th match of {@code p} (k chosen) by {@code by}. */
  private static Edit token(Source src, String text, Pattern p, String kind, String by) {
    List<int[]> spans = new ArrayList<>();
    Matcher m = p.matcher(text);
    while (m.find()) {
      spans.add(new int[] {m.start(), m.end()});
    }
    if (spans.isEmpty()) {
      return new Edit("no " + kind + " to replace", text);
    }
    int[] s = spans.get(src.choose(spans.size() - 1));
    return new Edit(kind + " at " + s[0] + " to '" + Mutant.escape(by, 20) + "'",
        text.substring(0, s[0]) + by + text.substring(s[1]));
  }
}
