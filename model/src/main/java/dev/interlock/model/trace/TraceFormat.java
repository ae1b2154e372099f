package dev.interlock.model.trace;

import dev.interlock.model.design.DesignException;
import dev.interlock.model.design.DesignParser;
import dev.interlock.model.design.FileSizeLimit;
import dev.interlock.model.design.Sizes;
import dev.interlock.model.state.Phase;
import dev.interlock.model.state.Violation;
import dev.interlock.model.state.ViolationKind;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.Step;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The one trace format: written by {@link #print}, read by {@link #parse}; {@code parse(print(t)).equals(t)}.
 *
 * <p>A header of {@code key value} lines (design, source, vram, threads, jobs, permits, seed, outcome),
 * then one line per transition: index, thread, phase, used and cached bytes after it, and the step
 * text last because it contains spaces; that text is read by the design grammar
 * ({@link DesignParser#step}). An {@code if free} step, whose block the grammar reads only within a
 * design, is written as its first line and the free bytes it read ({@code if free >= 12GiB, read
 * 4GiB}), with the branch taken as its phase ({@code then} or {@code else}); a {@code choose} step as
 * {@code choose}, with the path taken as its phase ({@code then} for the first, {@code else} for the one after
 * {@code or}). A kernel's begin that ran without buffers whose allocation failed and was ignored ends in
 * {@code , without B...}. A {@code SWALLOWED_OOM} trace from the checker goes on after its violation with the failing
 * job's steps ({@link Trace#after}), their index prefixed by {@code +}. An alloc is written as its alloc line,
 * without its {@code on oom} lines; the phase {@code oom} says that it failed and its {@code on oom} took over (the
 * design says whether that was a handler or {@code ignore}). Lines starting with
 * {@code #} are comments. Version 2 added task threads, the if step and same-worker overlaps;
 * version 1 traces still read. See traces/README.md.
 */
public final class TraceFormat {
  /** First line of every trace file. */
  public static final String MAGIC = "# interlock trace v2";
  /** First line of the traces of version 1, which still read. */
  static final String MAGIC_V1 = "# interlock trace v1";
  private static final java.util.regex.Pattern IF_STEP =
      java.util.regex.Pattern.compile("if free (>=|<) (\\S+), read (\\S+)");

  private static final List<String> KEYS = List.of("design", "source", "vram", "threads", "jobs", "permits", "seed", "outcome");

  private TraceFormat() {}

  /** The trace as text. */
  public static String print(Trace t) {
    StringBuilder sb = new StringBuilder(MAGIC).append('\n');
    header(sb, "design", t.design());
    header(sb, "source", t.source());
    header(sb, "vram", Sizes.format(t.params().vram()));
    header(sb, "threads", counts(t.params().threads()));
    header(sb, "jobs", counts(t.params().jobs()));
    header(sb, "permits", counts(t.params().permits()));
    header(sb, "seed", t.seed().map(String::valueOf).orElse("-"));
    header(sb, "outcome", outcome(t.outcome()));
    int wi = Math.max(1, String.valueOf(t.length()).length());
    int wt = "thread".length();
    int wu = "used".length();
    int wc = "cached".length();
    List<TraceStep> all = new ArrayList<>(t.steps());
    all.addAll(t.after());
    wi = Math.max(wi, String.valueOf(all.size()).length() + (t.after().isEmpty() ? 0 : 1));
    for (TraceStep s : all) {
      wt = Math.max(wt, s.thread().length());
      wu = Math.max(wu, Sizes.format(s.used()).length());
      wc = Math.max(wc, Sizes.format(s.cached()).length());
    }
    String row = "%" + (wi + 2) + "s  %-" + wt + "s  %-5s  %-" + wu + "s  %-" + wc + "s  %s";
    sb.append('#').append(String.format(Locale.ROOT, row, "i", "thread", "phase", "used", "cached", "step").substring(1)).append('\n');
    for (TraceStep s : all) {
      if (s.index() == t.length() + 1) {
        sb.append("# after the ignored failure, the failing job goes on alone (not part of the counterexample's length):\n");
      }
      String phase = s.phase().map(Phase::label).orElse("-");
      String text = s.step().text() + s.free().map(f -> ", read " + Sizes.format(f)).orElse("")
          + (s.without().isEmpty() ? "" : ", without " + String.join(" ", s.without()));
      String index = (s.index() > t.length() ? "+" : "") + s.index();
      sb.append(String.format(Locale.ROOT, row, index, s.thread(), phase, Sizes.format(s.used()),
          Sizes.format(s.cached()), text).stripTrailing()).append('\n');
    }
    return sb.toString();
  }

  private static void header(StringBuilder sb, String key, String value) {
    sb.append(String.format(Locale.ROOT, "%-8s %s%n", key, value).replace(System.lineSeparator(), "\n"));
  }

  private static String counts(Map<String, Integer> m) {
    if (m.isEmpty()) {
      return "-";
    }
    List<String> parts = new ArrayList<>();
    m.forEach((k, v) -> parts.add(k + "=" + v));
    return String.join(" ", parts);
  }

  private static String outcome(Outcome o) {
    if (o instanceof Outcome.Violated v) {
      return v.violation().kind() + " " + v.violation().message();
    }
    if (o instanceof Outcome.Overlapped ov) {
      return "OVERLAP " + ov.a() + " " + ov.b() + (ov.sameWorker() ? " same-worker" : "");
    }
    if (o instanceof Outcome.Stopped st) {
      return "STOPPED " + st.reason();
    }
    return "COMPLETED";
  }

  /** Reads a trace file. */
  public static Trace read(Path file) throws TraceFormatException {
    String text;
    try {
      Optional<String> refused = FileSizeLimit.refusal(file);
      if (refused.isPresent()) {
        throw new TraceFormatException(file.toString(), 1, 1, refused.get());
      }
      text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(file))).toString();
    } catch (CharacterCodingException e) {
      throw new TraceFormatException(file.toString(), 1, 1, "not UTF-8 text");
    } catch (IOException e) {
      throw new TraceFormatException(file.toString(), 1, 1, "cannot read file: " + e.getMessage());
    }
    return parse(file.toString(), text);
  }

  /** Parses trace text; {@code file} names it in error messages. */
  public static Trace parse(String file, String text) throws TraceFormatException {
    String[] lines = text.split("\r?\n", -1);
    if (lines.length == 0 || !(lines[0].strip().equals(MAGIC) || lines[0].strip().equals(MAGIC_V1))) {
      throw new TraceFormatException(file, 1, 1, "not an interlock trace: the first line must be '" + MAGIC + "'");
    }
    Map<String, String> header = new LinkedHashMap<>();
    Map<String, Integer> headerLine = new LinkedHashMap<>();
    Map<String, Integer> headerCol = new LinkedHashMap<>();
    List<TraceStep> steps = new ArrayList<>();
    List<TraceStep> after = new ArrayList<>();
    for (int n = 1; n < lines.length; n++) {
      String line = lines[n];
      String trimmed = line.strip();
      int lineNo = n + 1;
      if (trimmed.isEmpty() || trimmed.startsWith("#")) {
        continue;
      }
      int col = line.indexOf(trimmed.charAt(0)) + 1;
      if (Character.isDigit(trimmed.charAt(0))) {
        if (!after.isEmpty()) {
          throw new TraceFormatException(file, lineNo, col, "a step of the trace after the steps after its violation (+N)");
        }
        steps.add(step(file, lineNo, col, trimmed, steps.size() + 1));
        continue;
      }
      if (trimmed.charAt(0) == '+') {
        after.add(step(file, lineNo, col + 1, trimmed.substring(1), steps.size() + after.size() + 1));
        continue;
      }
      if (!steps.isEmpty()) {
        throw new TraceFormatException(file, lineNo, col, "header line after the steps");
      }
      for (int c = 0; c < line.length(); c++) {
        if (Character.isISOControl(line.charAt(c)) && line.charAt(c) != '\t') {
          throw new TraceFormatException(file, lineNo, c + 1, String.format("control character U+%04X in the header", (int) line.charAt(c)));
        }
      }
      String[] kv = trimmed.split("\\s+", 2);
      if (!KEYS.contains(kv[0])) {
        throw new TraceFormatException(file, lineNo, col, "unknown header key '" + kv[0] + "' (expected one of " + KEYS + ")");
      }
      if (header.containsKey(kv[0])) {
        throw new TraceFormatException(file, lineNo, col, "duplicate header key '" + kv[0] + "'");
      }
      if (kv.length < 2) {
        throw new TraceFormatException(file, lineNo, col + kv[0].length(), kv[0] + " needs a value");
      }
      header.put(kv[0], kv[1].strip());
      headerLine.put(kv[0], lineNo);
      headerCol.put(kv[0], col + trimmed.indexOf(kv[1], kv[0].length()));
    }
    for (String k : KEYS) {
      if (!header.containsKey(k)) {
        int last = lines.length > 1 && lines[lines.length - 1].isEmpty() ? lines.length - 1 : lines.length;
        throw new TraceFormatException(file, last, 1, "missing header key '" + k + "'");
      }
    }
    try {
      Optional<Long> seed = header.get("seed").equals("-") ? Optional.empty() : Optional.of(Long.parseLong(header.get("seed")));
      return new Trace(header.get("design"), header.get("source"), parameters(file, header, headerLine, headerCol), seed,
          parseOutcome(file, headerLine.get("outcome"), headerCol.get("outcome"), header.get("outcome")), steps, after);
    } catch (NumberFormatException e) {
      throw new TraceFormatException(file, headerLine.get("seed"), headerCol.get("seed"), "seed must be an integer or '-'");
    } catch (IllegalArgumentException e) {
      throw new TraceFormatException(file, headerLine.get("design"), 1, e.getMessage());
    }
  }

  private static Parameters parameters(String file, Map<String, String> h, Map<String, Integer> at, Map<String, Integer> col)
      throws TraceFormatException {
    Sizes.Parsed vram = Sizes.parse(h.get("vram"));
    if (vram.bytes().isEmpty()) {
      throw new TraceFormatException(file, at.get("vram"), col.get("vram"), vram.error());
    }
    Map<String, Integer> threads = counts(file, at.get("threads"), col.get("threads"), h.get("threads"));
    Map<String, Integer> jobs = counts(file, at.get("jobs"), col.get("jobs"), h.get("jobs"));
    Map<String, Integer> permits = counts(file, at.get("permits"), col.get("permits"), h.get("permits"));
    try {
      return new Parameters(vram.bytes().get(), threads, jobs, permits);
    } catch (IllegalArgumentException e) {
      throw new TraceFormatException(file, at.get("threads"), col.get("threads"), e.getMessage());
    }
  }

  private static Map<String, Integer> counts(String file, int line, int col, String value) throws TraceFormatException {
    Map<String, Integer> m = new LinkedHashMap<>();
    if (value.equals("-")) {
      return m;
    }
    for (String part : value.split("\\s+")) {
      String[] kv = part.split("=", 2);
      try {
        if (kv.length != 2 || m.put(kv[0], Integer.parseInt(kv[1])) != null) {
          throw new NumberFormatException();
        }
      } catch (NumberFormatException e) {
        throw new TraceFormatException(file, line, col, "expected NAME=COUNT pairs, got '" + part + "'");
      }
    }
    return m;
  }

  private static Outcome parseOutcome(String file, int line, int col, String value) throws TraceFormatException {
    String[] parts = value.split("\\s+", 2);
    try {
      if (parts[0].equals("COMPLETED") && parts.length == 1) {
        return new Outcome.Completed();
      }
      if (parts[0].equals("OVERLAP") && parts.length == 2) {
        String[] ab = parts[1].split("\\s+");
        if (ab.length == 2) {
          return new Outcome.Overlapped(ab[0], ab[1]);
        }
        if (ab.length == 3 && ab[2].equals("same-worker")) {
          return new Outcome.Overlapped(ab[0], ab[1], true);
        }
      }
      if (parts[0].equals("STOPPED") && parts.length == 2) {
        return new Outcome.Stopped(parts[1].strip());
      }
      if (parts.length == 2) {
        return new Outcome.Violated(new Violation(ViolationKind.valueOf(parts[0]), parts[1]));
      }
    } catch (IllegalArgumentException e) {
      // reported below with the expected forms
    }
    throw new TraceFormatException(file, line, col,
        "outcome must be 'COMPLETED', 'OVERLAP A B', 'OVERLAP A B same-worker', 'STOPPED reason' or a violation kind and message, got '"
            + value + "'");
  }

  private static TraceStep step(String file, int line, int col, String text, int expected) throws TraceFormatException {
    String[] f = text.split("\\s+", 6);
    if (f.length < 6) {
      throw new TraceFormatException(file, line, col, "a step line needs: index thread phase used cached step");
    }
    try {
      int index = Integer.parseInt(f[0]);
      if (index != expected) {
        throw new TraceFormatException(file, line, col, "expected step " + expected + ", got " + index);
      }
      Optional<Phase> phase = switch (f[2]) {
        case "begin" -> Optional.of(Phase.BEGIN);
        case "end" -> Optional.of(Phase.END);
        case "then" -> Optional.of(Phase.THEN);
        case "else" -> Optional.of(Phase.ELSE);
        case "oom" -> Optional.of(Phase.OOM);
        case "-" -> Optional.empty();
        default -> throw new TraceFormatException(file, line, col,
            "phase must be begin, end, then, else, oom or -, got '" + f[2] + "'");
      };
      long used = bytes(file, line, col, f[3]);
      long cached = bytes(file, line, col, f[4]);
      // f[5] is the rest of the line: its column is where that suffix starts
      int stepCol = col + text.codePointCount(0, text.length() - f[5].length());
      java.util.regex.Matcher m = IF_STEP.matcher(f[5]);
      if (m.matches()) {
        long bytes = bytes(file, line, stepCol, m.group(2));
        long read = bytes(file, line, stepCol, m.group(3));
        return new TraceStep(index, f[1], new IfFree(m.group(1).equals(">="), bytes, List.of(), List.of()), phase, used,
            cached, Optional.of(read));
      }
      if (f[5].startsWith("if ")) {
        throw new TraceFormatException(file, line, stepCol, "an if step reads 'if free >= SIZE, read SIZE' or "
            + "'if free < SIZE, read SIZE', got '" + f[5] + "'");
      }
      int without = f[5].indexOf(", without ");
      if (without >= 0) {
        List<String> missing = List.of(f[5].substring(without + ", without ".length()).split(" "));
        Step k = stepOf(file, line, stepCol, f[5].substring(0, without));
        return new TraceStep(index, f[1], k, phase, used, cached, Optional.empty(), missing);
      }
      if (f[5].equals("choose")) {
        if (phase.isEmpty() || phase.get() != Phase.THEN && phase.get() != Phase.ELSE) {
          throw new TraceFormatException(file, line, col, "a choose step's phase is then or else, the path it took");
        }
        return new TraceStep(index, f[1], new dev.interlock.model.step.Choose(List.of(), List.of()), phase, used, cached);
      }
      return new TraceStep(index, f[1], stepOf(file, line, stepCol, f[5]), phase, used, cached);
    } catch (NumberFormatException e) {
      throw new TraceFormatException(file, line, col, "step index must be an integer, got '" + f[0] + "'");
    } catch (IllegalArgumentException e) {
      throw new TraceFormatException(file, line, col, e.getMessage());
    }
  }

  /** The step column, read by the design grammar; an error points into the column. */
  private static Step stepOf(String file, int line, int col, String text) throws TraceFormatException {
    try {
      return DesignParser.step(text);
    } catch (DesignException e) {
      throw new TraceFormatException(file, line, col + e.column() - 1, e.detail());
    }
  }

  private static long bytes(String file, int line, int col, String text) throws TraceFormatException {
    if (text.equals("0B")) {
      return 0;
    }
    Sizes.Parsed p = Sizes.parse(text);
    if (p.bytes().isEmpty()) {
      throw new TraceFormatException(file, line, col, p.error());
    }
    return p.bytes().get();
  }
}
