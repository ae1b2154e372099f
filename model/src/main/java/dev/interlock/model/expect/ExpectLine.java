package dev.interlock.model.expect;

import dev.interlock.model.check.OverlapAnswer.Reachability;
import dev.interlock.model.design.Design;
import dev.interlock.model.design.DesignException;
import dev.interlock.model.state.Model;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the {@code # expect:} line of a design file: the one place its grammar lives.
 *
 * <pre>
 * # expect: VERDICT [threads=ROLE:N(,ROLE:N)*] [length=N] [overlap(A,B)=REACHABLE|UNREACHABLE]
 * </pre>
 *
 * <p>The line is a comment of its own ({@code #}, optional blanks, {@code expect:}), anywhere in the file, at most
 * once. VERDICT is {@code SAFE} or a violation kind as the checker prints it; the clauses come in any order, each at
 * most once. Every mistake is a {@link DesignException} at the line and column of the offending word, so that a
 * malformed expectation is reported like a malformed design, and never silently taken for SAFE.
 */
public final class ExpectLine {
  private ExpectLine() {}

  /** A comment line that means to be an expect line: checked strictly from here on. */
  private static final Pattern LINE = Pattern.compile("^(\\s*#\\s*)expect:(.*)$");
  private static final Pattern THREAD = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*):([0-9]+)");
  private static final Pattern OVERLAP = Pattern.compile("overlap\\(\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*,\\s*"
      + "([A-Za-z_][A-Za-z0-9_]*)\\s*\\)=(\\S+)");

  /** The expect line of {@code text} (the file {@code file}), checked against the grammar only. */
  public static Optional<Expectation> find(String file, String text) throws DesignException {
    return find(file, text, null);
  }

  /**
   * The expect line of {@code text}, checked against the grammar and against {@code design} (the file's parsed
   * design, or null for the grammar only): its roles and intervals must exist.
   */
  public static Optional<Expectation> find(String file, String text, Design design) throws DesignException {
    List<String> lines = text.lines().toList();
    Optional<Expectation> found = Optional.empty();
    for (int i = 0; i < lines.size(); i++) {
      Matcher m = LINE.matcher(lines.get(i));
      if (!m.matches()) {
        continue;
      }
      int lineNo = i + 1;
      if (found.isPresent()) {
        throw new DesignException(file, lineNo, m.start(1) + m.group(1).length() + 1,
            "a second expect line (the first is line " + found.get().line() + "); a design has at most one");
      }
      found = Optional.of(parse(file, lineNo, m.end(1) + "expect:".length(), m.group(2), design));
    }
    return found;
  }

  /** The expectation of {@code text}: its expect line, or SAFE where there is none. */
  public static Expectation expectation(String file, String text, Design design) throws DesignException {
    return find(file, text, design).orElseGet(Expectation::safeByDefault);
  }

  private static Expectation parse(String file, int line, int offset, String rest, Design design)
      throws DesignException {
    Words words = new Words(file, line, offset, rest);
    Words.Word first = words.next().orElseThrow(() -> words.error(rest.length(),
        "an expect line needs a verdict: SAFE or one of " + String.join(", ", kinds())));
    if (!Expectation.VERDICTS.contains(first.text())) {
      throw words.error(first.at(), "unknown verdict '" + first.text() + "' (SAFE or one of " + String.join(", ", kinds())
          + ")");
    }
    Map<String, Integer> threads = null;
    OptionalInt length = null;
    Optional<ExpectedOverlap> overlap = null;
    for (Optional<Words.Word> w = words.next(); w.isPresent(); w = words.next()) {
      Words.Word word = w.get();
      String t = word.text();
      if (t.startsWith("threads=")) {
        if (threads != null) {
          throw words.error(word.at(), "threads= given twice");
        }
        threads = threads(words, word, design);
      } else if (t.startsWith("length=")) {
        if (length != null) {
          throw words.error(word.at(), "length= given twice");
        }
        length = OptionalInt.of(number(words, word.at() + "length=".length(), t.substring("length=".length()), 0));
      } else if (t.startsWith("overlap(")) {
        if (overlap != null) {
          throw words.error(word.at(), "overlap(...) given twice; an expect line asks one overlap query");
        }
        overlap = Optional.of(overlap(words, word, design));
      } else {
        throw words.error(word.at(), "unknown clause '" + t + "' (threads=ROLE:N,..., length=N,"
            + " overlap(A,B)=REACHABLE|UNREACHABLE)");
      }
    }
    try {
      return new Expectation(first.text(), threads == null ? Map.of() : threads,
          length == null ? OptionalInt.empty() : length, overlap == null ? Optional.empty() : overlap, line);
    } catch (IllegalArgumentException e) {
      throw words.error(first.at(), e.getMessage());
    }
  }

  private static Map<String, Integer> threads(Words words, Words.Word word, Design design) throws DesignException {
    String list = word.text().substring("threads=".length());
    int at = word.at() + "threads=".length();
    if (list.isEmpty()) {
      throw words.error(at, "threads= needs ROLE:N, e.g. threads=gpu_worker:2");
    }
    Map<String, Integer> out = new LinkedHashMap<>();
    for (String part : list.split(",", -1)) {
      Matcher m = THREAD.matcher(part);
      if (!m.matches()) {
        throw words.error(at, "'" + part + "' is not ROLE:N (e.g. gpu_worker:2)");
      }
      String role = m.group(1);
      if (design != null && design.role(role).isEmpty()) {
        throw words.error(at, "no role '" + role + "' in design " + design.name() + " (roles: "
            + String.join(", ", design.roles().stream().map(r -> r.name()).toList()) + ")");
      }
      if (out.put(role, number(words, at + role.length() + 1, m.group(2), 1)) != null) {
        throw words.error(at, "role " + role + " named twice in threads=");
      }
      at += part.length() + 1;
    }
    return out;
  }

  private static ExpectedOverlap overlap(Words words, Words.Word word, Design design) throws DesignException {
    Matcher m = OVERLAP.matcher(word.text());
    if (!m.matches()) {
      throw words.error(word.at(), "'" + word.text() + "' is not overlap(A,B)=REACHABLE|UNREACHABLE (no blanks)");
    }
    Reachability r;
    try {
      r = Reachability.valueOf(m.group(3));
    } catch (IllegalArgumentException e) {
      r = null;
    }
    if (r == null || r == Reachability.UNKNOWN) {
      throw words.error(word.at() + m.start(3), "an overlap is expected REACHABLE or UNREACHABLE, got '" + m.group(3) + "'");
    }
    if (design != null) {
      List<String> intervals = new Model(design).intervalNames();
      for (int g = 1; g <= 2; g++) {
        if (!intervals.contains(m.group(g))) {
          throw words.error(word.at() + m.start(g), "no interval '" + m.group(g) + "' in design " + design.name()
              + " (intervals: " + String.join(", ", intervals) + ")");
        }
      }
    }
    return new ExpectedOverlap(m.group(1), m.group(2), r);
  }

  private static int number(Words words, int at, String digits, int least) throws DesignException {
    int n;
    try {
      n = Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw words.error(at, "needs a whole number, got '" + digits + "'");
    }
    if (n < least) {
      throw words.error(at, "needs at least " + least + ", got " + n);
    }
    return n;
  }

  private static List<String> kinds() {
    return Expectation.VERDICTS.stream().filter(v -> !v.equals("SAFE")).toList();
  }

  /** The blank-separated words after {@code expect:}, with their columns. */
  private static final class Words {
    private final String file;
    private final int line;
    private final int offset;
    private final String text;
    private int pos;

    record Word(String text, int at) {}

    Words(String file, int line, int offset, String text) {
      this.file = file;
      this.line = line;
      this.offset = offset;
      this.text = text;
    }

    Optional<Word> next() {
      while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
      if (pos >= text.length()) {
        return Optional.empty();
      }
      int start = pos;
      while (pos < text.length() && !Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
      return Optional.of(new Word(text.substring(start, pos), start));
    }

    /** An error at index {@code at} of the text after {@code expect:}. */
    DesignException error(int at, String detail) {
      return new DesignException(file, line, offset + at + 1, detail);
    }
  }
}
