package dev.interlock.model.design;

import dev.interlock.model.step.Acquire;
import dev.interlock.model.step.Alloc;
import dev.interlock.model.step.Cpu;
import dev.interlock.model.step.Free;
import dev.interlock.model.step.Choose;
import dev.interlock.model.step.IfFree;
import dev.interlock.model.step.OnOom;
import dev.interlock.model.step.Join;
import dev.interlock.model.step.Kernel;
import dev.interlock.model.step.Lock;
import dev.interlock.model.step.Names;
import dev.interlock.model.step.Release;
import dev.interlock.model.step.Signal;
import dev.interlock.model.step.Spawn;
import dev.interlock.model.step.Step;
import dev.interlock.model.step.Sync;
import dev.interlock.model.step.SyncStream;
import dev.interlock.model.step.Trim;
import dev.interlock.model.step.Unlock;
import dev.interlock.model.step.Wait;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the design language into a {@link Design}.
 *
 * <p>Every problem is reported as a {@link DesignException} with the position of the offending
 * token, {@code FILE:LINE:COL: message}; the parser validates everything before it constructs the
 * self-validating records, so no other exception escapes for any input. Errors are reported in
 * file order, except the checks that need the whole file, which run after it is read (a step may
 * name something declared further down): references to mutexes, semaphores and tasks, device
 * buffers that a role or task allocates or frees or that do not fit in vram, tasks that can spawn
 * themselves, buffer names kept and not kept or kept at two sizes, and waits for events never
 * signalled; of those, the first in file order is reported. A missing {@code design} or {@code vram} line, or a design without
 * roles, is reported at 1:1 once the whole file has been read without other errors.
 *
 * <p>An {@code if free} block's lines ({@code if}, {@code else}, {@code end}) stand at the body's
 * indentation like its other steps; indentation is not significant inside a body. So do an alloc's failure lines,
 * right after its line: {@code on oom ignore}, or {@code on oom}, the handler's steps, optionally {@code else} and
 * the steps run on success, and {@code end}; and a {@code choose} block's ({@code choose}, {@code or}, {@code end}).
 */
public final class DesignParser {
  /** The file name errors of {@link #step(String)} are reported under. */
  public static final String STEP_FILE = "<step>";

  private static final List<String> TOP_KEYWORDS =
      List.of("design", "vram", "mutex", "semaphore", "role", "pool", "buffer", "task");
  private static final List<String> STEP_KEYWORDS = List.of("lock", "unlock", "acquire", "release", "alloc", "free",
      "trim", "sync", "kernel", "cpu", "spawn", "join", "signal", "wait", "if", "else", "end", "on", "choose", "or");

  /** A zero size with a unit, e.g. {@code 0B}: no buffer has it, but a pool threshold may. */
  private static final Pattern ZERO_SIZE = Pattern.compile("0+(?:\\.0+)?([A-Za-z]+)");

  /** How many characters of a user's token an error message shows at most. */
  private static final int SHOW_MAX = 40;

  private enum Kind {
    MUTEX("mutex"),
    SEMAPHORE("semaphore"),
    ROLE("role"),
    TASK("task");

    final String word;

    Kind(String word) {
      this.word = word;
    }
  }

  private record Token(String text, int line, int col) {}

  private record Declared(Kind kind, int line) {}

  /** A mutex, semaphore or task named by a step, resolved once all declarations are known. */
  private record Ref(Token name, Kind expected) {}

  /** A role's or a task's body while it is read, with its open {@code if} blocks, innermost first. */
  private static final class Body {
    final Kind kind;
    final Token name;
    final int threads;
    final int jobs;
    final List<Step> steps = new ArrayList<>();
    final ArrayDeque<OpenIf> open = new ArrayDeque<>();

    Body(Kind kind, Token name, int threads, int jobs) {
      this.kind = kind;
      this.name = name;
      this.threads = threads;
      this.jobs = jobs;
    }

    /** Where the next step goes: the open branch of the innermost {@code if}, else the body. */
    List<Step> target() {
      return open.isEmpty() ? steps : open.peek().branch();
    }

    String what() {
      return kind.word + " " + name.text;
    }
  }

  /** An {@code if free} block, or an {@code on oom} handler, whose {@code end} has not been read yet. */
  private static final class OpenIf {
    final Token keyword;
    final boolean atLeast;
    final long bytes;
    /** For an {@code on oom} handler: the alloc it handles (its steps go to {@link #then}); null otherwise. */
    final Alloc handles;
    /** Whether this is a {@code choose} block ({@code or} opens its second path, kept in {@link #otherwise}). */
    final boolean choice;
    final List<Step> then = new ArrayList<>();
    final List<Step> otherwise = new ArrayList<>();
    Token elseKeyword;

    OpenIf(Token keyword, boolean atLeast, long bytes) {
      this.keyword = keyword;
      this.atLeast = atLeast;
      this.bytes = bytes;
      this.handles = null;
      this.choice = false;
    }

    /** A {@code choose} block. */
    OpenIf(Token keyword) {
      this.keyword = keyword;
      this.atLeast = false;
      this.bytes = 0;
      this.handles = null;
      this.choice = true;
    }

    OpenIf(Token keyword, Alloc handles) {
      this.keyword = keyword;
      this.atLeast = false;
      this.bytes = 0;
      this.handles = handles;
      this.choice = false;
    }

    String opener() {
      return handles != null ? "'on oom'" : choice ? "'choose'" : "'if'";
    }

    List<Step> branch() {
      return elseKeyword == null ? then : otherwise;
    }
  }

  /** A one-line step of a body with its tokens, kept for the checks that need the whole file. */
  private record Placed(Step step, List<Token> tokens, Body owner) {}

  /** {@code buffer NAME SIZE}. */
  private record DeviceBuffer(Token name, Token size, long bytes) {}

  private final String file;
  private Token designName;
  private Token designKeyword;
  private Long vram;
  private Token vramKeyword;
  private long poolThreshold;
  private Token poolKeyword;
  private final Map<String, DeviceBuffer> deviceBuffers = new LinkedHashMap<>();
  private final List<String> mutexes = new ArrayList<>();
  private final List<Semaphore> semaphores = new ArrayList<>();
  private final List<Body> roles = new ArrayList<>();
  private final List<Body> tasks = new ArrayList<>();
  private final Map<String, Declared> names = new HashMap<>();
  private final List<Ref> refs = new ArrayList<>();
  /** Every one-line step of every body, in file order. */
  private final List<Placed> placed = new ArrayList<>();
  /** The step of the body line just read, or null after any other line: what an {@code on oom} line belongs to. */
  private Step lastStep;
  private Body current;

  private DesignParser(String file) {
    this.file = file;
  }

  /**
   * Parses design text.
   *
   * @param fileName the name to report errors under, e.g. {@code designs/x.design} or {@code <string>}
   */
  public static Design parse(String fileName, String text) throws DesignException {
    DesignParser p = new DesignParser(fileName);
    try {
      return p.run(text);
    } catch (RuntimeException e) {
      // A bug in the parser, not in the design; still never a stack trace for the user.
      if (Boolean.getBoolean("interlock.debug")) {
        e.printStackTrace();
      }
      throw new DesignException(fileName, 1, 1, "internal error while parsing: " + e);
    }
  }

  /**
   * Parses the text of one step as a role's body writes it, e.g. {@code alloc staged 12GiB}, by the
   * same grammar as {@link #parse}: the one way to read a step that is not part of a design file,
   * such as a trace's step column. {@code step(s.text()).equals(s)} for every step {@code s} but
   * an {@code if free} block.
   *
   * <p>Mutex, semaphore and task names are checked as names but not resolved, since there are no
   * declarations to resolve them against. An {@code if free} block spans lines and is no single
   * step: {@code if}, {@code else} and {@code end} are errors here. Errors are reported under
   * {@value #STEP_FILE}, line 1, at the column of the offending token in {@code text}; a step has no
   * comment, so {@code #} is one.
   */
  public static Step step(String text) throws DesignException {
    Objects.requireNonNull(text, "text");
    DesignParser p = new DesignParser(STEP_FILE);
    try {
      return p.oneStep(text);
    } catch (RuntimeException e) {
      // A bug in the parser, not in the step; still never a stack trace for the user.
      throw new DesignException(STEP_FILE, 1, 1, "internal error while parsing a step: " + e);
    }
  }

  /** Reads {@code file} as UTF-8 and parses it; errors are reported under {@code file.toString()}. */
  public static Design parse(Path file) throws DesignException {
    return parse(String.valueOf(file), readText(file));
  }

  /**
   * The text {@link #parse(Path)} parses: {@code file} read as strict UTF-8 within the size limit; errors are reported
   * under {@code file.toString()}. For callers that keep the text beside the design (a trace records it).
   */
  public static String readText(Path file) throws DesignException {
    String name = String.valueOf(file);
    byte[] bytes;
    try {
      Optional<String> refused = FileSizeLimit.refusal(file);
      if (refused.isPresent()) {
        throw new DesignException(name, 1, 1, refused.get());
      }
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new DesignException(name, 1, 1, "cannot read file: no such file");
    } catch (AccessDeniedException e) {
      throw new DesignException(name, 1, 1, "cannot read file: permission denied");
    } catch (IOException | RuntimeException e) {
      String reason = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
      throw new DesignException(name, 1, 1, "cannot read file: " + reason);
    }
    return decodeUtf8(name, bytes);
  }

  /** Strict UTF-8 decoding; a malformed byte is reported at its line and column. */
  private static String decodeUtf8(String name, byte[] bytes) throws DesignException {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length + 1);
    CoderResult r = decoder.decode(in, out, true);
    if (!r.isError()) {
      r = decoder.flush(out);
    }
    if (r.isError()) {
      out.flip();
      String before = out.toString();
      int line = 1;
      int lineStart = 0;
      for (int i = 0; i < before.length(); i++) {
        if (before.charAt(i) == '\n') {
          line++;
          lineStart = i + 1;
        }
      }
      int col = before.codePointCount(lineStart, before.length()) + 1;
      int pos = Math.min(in.position(), bytes.length - 1);
      String detail = pos >= 0
          ? String.format(Locale.ROOT, "file is not valid utf-8 (byte 0x%02x)", bytes[pos] & 0xff)
          : "file is not valid utf-8";
      throw new DesignException(name, line, col, detail);
    }
    out.flip();
    return out.toString();
  }

  private Design run(String text) throws DesignException {
    if (text == null) {
      throw error(1, 1, "no design text");
    }
    int start = 0;
    if (text.startsWith("\uFEFF")) {
      start = 1;
    }
    // Lines end at \n, \r\n or a lone \r.
    int lineNo = 0;
    int n = text.length();
    while (true) {
      int end = start;
      while (end < n && text.charAt(end) != '\n' && text.charAt(end) != '\r') {
        end++;
      }
      lineNo++;
      line(text.substring(start, end), lineNo);
      if (end == n) {
        break;
      }
      start = text.charAt(end) == '\r' && end + 1 < n && text.charAt(end + 1) == '\n' ? end + 2 : end + 1;
    }
    closeBody();
    if (designName == null) {
      throw error(1, 1, "missing 'design NAME' line");
    }
    if (vram == null) {
      throw error(1, 1, "missing 'vram SIZE' line");
    }
    if (roles.isEmpty()) {
      throw error(1, 1, "design has no role");
    }
    List<DesignException> found = new ArrayList<>();
    for (Ref r : refs) {
      DesignException e = resolve(r);
      if (e != null) {
        found.add(e);
      }
    }
    TaskGraph graph = graph();
    checkDeviceBuffers(found);
    checkSpawnCycles(graph, found);
    checkKeeps(graph, found);
    checkWaits(graph, found);
    Optional<DesignException> first = found.stream()
        .min(Comparator.comparingInt(DesignException::line).thenComparingInt(DesignException::column));
    if (first.isPresent()) {
      throw first.get();
    }
    List<Role> builtRoles = new ArrayList<>();
    for (Body b : roles) {
      builtRoles.add(new Role(b.name.text, b.threads, b.jobs, b.steps));
    }
    List<Task> builtTasks = new ArrayList<>();
    for (Body b : tasks) {
      builtTasks.add(new Task(b.name.text, b.steps));
    }
    List<ResidentBuffer> buffers = new ArrayList<>();
    for (DeviceBuffer b : deviceBuffers.values()) {
      buffers.add(new ResidentBuffer(b.name.text, b.bytes));
    }
    return new Design(designName.text, vram, poolThreshold, buffers, mutexes, semaphores, builtRoles, builtTasks);
  }

  private Step oneStep(String text) throws DesignException {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '#' || c == '\n' || c == '\r') {
        String what = c == '#' ? "'#' (a step has no comment)" : "line break (a step is one line)";
        throw error(1, text.codePointCount(0, i) + 1, "unexpected " + what);
      }
    }
    List<Token> t = tokenize(text, 1);
    if (t.isEmpty()) {
      throw error(1, 1, "no step (expected one of: " + String.join(", ", STEP_KEYWORDS) + ")");
    }
    return step(t);
  }

  // ---------------------------------------------------------------- lines

  private void line(String line, int lineNo) throws DesignException {
    List<Token> t = tokenize(line, lineNo);
    if (t.isEmpty()) {
      return;
    }
    char first = line.charAt(0);
    if (first == ' ' || first == '\t') {
      bodyLine(t);
    } else {
      lastStep = null;
      closeBody();
      topLine(t);
    }
  }

  /** Splits at spaces and tabs, up to a {@code #}; columns count code points from 1. */
  private static List<Token> tokenize(String line, int lineNo) {
    List<Token> out = new ArrayList<>();
    int n = line.length();
    int i = 0;
    int col = 1;
    while (i < n) {
      char c = line.charAt(i);
      if (c == '#') {
        break;
      }
      if (c == ' ' || c == '\t') {
        i++;
        col++;
        continue;
      }
      int start = i;
      int startCol = col;
      while (i < n) {
        c = line.charAt(i);
        if (c == ' ' || c == '\t' || c == '#') {
          break;
        }
        if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(line.charAt(i + 1))) {
          i += 2;
        } else {
          i++;
        }
        col++;
      }
      out.add(new Token(line.substring(start, i), lineNo, startCol));
    }
    return out;
  }

  private void topLine(List<Token> t) throws DesignException {
    Token kw = t.get(0);
    switch (kw.text) {
      case "design" -> design(t);
      case "vram" -> vram(t);
      case "mutex" -> mutex(t);
      case "semaphore" -> semaphore(t);
      case "role" -> role(t);
      case "pool" -> pool(t);
      case "buffer" -> buffer(t);
      case "task" -> task(t);
      default -> {
        if (STEP_KEYWORDS.contains(kw.text)) {
          throw error(kw, "step '" + kw.text + "' must be indented under a role");
        }
        throw error(kw, unknownKeyword(kw.text, TOP_KEYWORDS));
      }
    }
  }

  private void design(List<Token> t) throws DesignException {
    Token kw = t.get(0);
    if (designKeyword != null) {
      throw error(kw, "duplicate design line (first at line " + designKeyword.line + ")");
    }
    Token name = need(t, 1, "design needs a name, e.g. design two-lock");
    requireName(name, "design");
    end(t, 2);
    designKeyword = kw;
    designName = name;
  }

  private void vram(List<Token> t) throws DesignException {
    Token kw = t.get(0);
    if (vramKeyword != null) {
      throw error(kw, "duplicate vram line (first at line " + vramKeyword.line + ")");
    }
    Token size = need(t, 1, "vram needs a size, e.g. vram 16GiB");
    long bytes = size(size);
    end(t, 2);
    vramKeyword = kw;
    vram = bytes;
  }

  private void mutex(List<Token> t) throws DesignException {
    Token name = need(t, 1, "mutex needs a name, e.g. mutex mem_mtx");
    declare(name, Kind.MUTEX);
    end(t, 2);
    mutexes.add(name.text);
  }

  private void semaphore(List<Token> t) throws DesignException {
    Token name = need(t, 1, "semaphore needs a name, e.g. semaphore vram_units 16");
    declare(name, Kind.SEMAPHORE);
    Token count = need(t, 2, "semaphore needs an initial permit count, e.g. semaphore " + name.text + " 16");
    long n = number(count.text);
    if (n == BAD) {
      throw error(count, "bad permit count " + show(count.text) + " (expected a non-negative integer)");
    }
    if (n == TOO_LARGE) {
      throw error(count, tooLarge("permit count", count.text));
    }
    end(t, 3);
    semaphores.add(new Semaphore(name.text, (int) n));
  }

  private void role(List<Token> t) throws DesignException {
    Token name = need(t, 1, "role needs a name, e.g. role gpu_worker x3 jobs 2");
    declare(name, Kind.ROLE);
    int threads = 1;
    int jobs = 1;
    int i = 2;
    if (i < t.size() && isThreadCount(t.get(i).text)) {
      Token tok = t.get(i);
      long n = tok.text.startsWith("x") ? number(tok.text.substring(1)) : BAD;
      if (n == BAD) {
        String hint = number(tok.text) >= 0 || number(tok.text) == TOO_LARGE
            ? "write x" + tok.text + " for " + tok.text + " threads"
            : "expected x followed by a positive integer, e.g. x3";
        throw error(tok, "bad thread count " + show(tok.text) + " (" + hint + ")");
      }
      if (n == TOO_LARGE) {
        throw error(tok, tooLarge("thread count", tok.text));
      }
      if (n < 1) {
        throw error(tok, "role needs at least 1 thread");
      }
      threads = (int) n;
      i++;
    }
    if (i < t.size() && t.get(i).text.equals("jobs")) {
      Token kw = t.get(i);
      Token tok = need(t, i + 1, kw, "jobs needs a count, e.g. jobs 2");
      long n = number(tok.text);
      if (n == BAD) {
        throw error(tok, "bad job count " + show(tok.text) + " (expected a positive integer)");
      }
      if (n == TOO_LARGE) {
        throw error(tok, tooLarge("job count", tok.text));
      }
      if (n < 1) {
        throw error(tok, "role needs at least 1 job");
      }
      jobs = (int) n;
      i += 2;
    }
    if (i < t.size()) {
      Token extra = t.get(i);
      String hint = i == 2 ? " (expected xN or jobs N)"
          : i == 3 ? " (expected jobs N)"
          : isThreadCount(extra.text) ? " (the thread count xN comes before jobs N)"
          : "";
      throw error(extra, "unexpected " + show(extra.text) + " after " + show(join(t, i)) + hint);
    }
    current = new Body(Kind.ROLE, name, threads, jobs);
    roles.add(current);
  }

  /** {@code pool threshold SIZE} or {@code pool threshold max}. */
  private void pool(List<Token> t) throws DesignException {
    Token kw = t.get(0);
    if (poolKeyword != null) {
      throw error(kw, "duplicate pool threshold line (first at line " + poolKeyword.line + ")");
    }
    Token word = need(t, 1, "pool needs its release threshold, e.g. pool threshold 4GiB or pool threshold max");
    if (!word.text.equals("threshold")) {
      throw error(word, "unexpected " + show(word.text) + " after 'pool' (expected threshold)");
    }
    Token value = need(t, 2, word, "pool threshold needs a size or max, e.g. pool threshold 4GiB");
    long bytes = value.text.equals("max") ? Design.THRESHOLD_MAX : threshold(value);
    end(t, 3);
    poolKeyword = kw;
    poolThreshold = bytes;
  }

  /** {@code buffer NAME SIZE}: a device buffer; buffer names are not in the namespace of mutexes and roles. */
  private void buffer(List<Token> t) throws DesignException {
    Token name = need(t, 1, "buffer needs a name and a size, e.g. buffer d_a 4GiB");
    requireName(name, "buffer");
    DeviceBuffer earlier = deviceBuffers.get(name.text);
    if (earlier != null) {
      throw error(name, "duplicate buffer " + show(name.text) + " (first declared at line " + earlier.name.line + ")");
    }
    Token size = need(t, 2, "buffer needs a size, e.g. buffer " + name.text + " 4GiB");
    long bytes = size(size);
    end(t, 3);
    deviceBuffers.put(name.text, new DeviceBuffer(name, size, bytes));
  }

  private void task(List<Token> t) throws DesignException {
    Token name = need(t, 1, "task needs a name, e.g. task prep_msm");
    declare(name, Kind.TASK);
    if (t.size() > 2) {
      Token extra = t.get(2);
      String hint = isThreadCount(extra.text) || extra.text.equals("jobs")
          ? " (a task runs once per spawn: it has no thread or job count)"
          : "";
      throw error(extra, "unexpected " + show(extra.text) + " after " + show(join(t, 2)) + hint);
    }
    current = new Body(Kind.TASK, name, 1, 1);
    tasks.add(current);
  }

  /** Whether a token in the thread-count position looks like an attempt at {@code xN}. */
  private static boolean isThreadCount(String s) {
    return s.startsWith("x") || s.startsWith("-") || s.startsWith("+") || number(s) != BAD;
  }

  private void closeBody() throws DesignException {
    if (current != null) {
      if (!current.open.isEmpty()) {
        throw error(current.open.peek().keyword, current.open.peek().opener() + " without 'end'");
      }
      if (current.steps.isEmpty()) {
        throw error(current.name, current.what() + " has no steps");
      }
    }
    current = null;
  }

  private void bodyLine(List<Token> t) throws DesignException {
    Token kw = t.get(0);
    if (TOP_KEYWORDS.contains(kw.text)) {
      throw error(kw, "'" + kw.text + "' must start at column 1, not be indented");
    }
    if (current == null) {
      throw error(kw, "indented line outside a role (steps must follow a 'role' line)");
    }
    Step last = lastStep;
    lastStep = null;
    switch (kw.text) {
      case "if" -> current.open.push(openIf(t));
      case "else" -> elseLine(t);
      case "end" -> endLine(t);
      case "on" -> onOom(t, last);
      case "choose" -> {
        end(t, 1);
        current.open.push(new OpenIf(kw));
      }
      case "or" -> orLine(t);
      default -> {
        Step s = step(t);
        current.target().add(s);
        placed.add(new Placed(s, t, current));
        lastStep = s;
      }
    }
  }

  /** {@code on oom ignore}, or {@code on oom} opening a handler, right after the alloc {@code last}. */
  private void onOom(List<Token> t, Step last) throws DesignException {
    Token kw = t.get(0);
    Token oom = need(t, 1, "on needs oom, e.g. on oom ignore, or on oom and the handler's lines and end");
    if (!oom.text.equals("oom")) {
      throw error(oom, "unexpected " + show(oom.text) + " after 'on' (expected oom)");
    }
    if (!(last instanceof Alloc a)) {
      throw error(kw, "'on oom' must follow an alloc line (it says what the job does when that allocation fails)");
    }
    if (t.size() > 2) {
      Token what = t.get(2);
      if (!what.text.equals("ignore")) {
        throw error(what, "unexpected " + show(what.text) + " after 'on oom' (expected ignore, or nothing and the"
            + " handler's lines on the next lines, closed by end)");
      }
      end(t, 3);
      replaceLast(a, a.withOnOom(OnOom.IGNORE));
      return;
    }
    current.open.push(new OpenIf(kw, a));
  }

  /** Replaces the last step of the current target, which must be {@code old}, with {@code now}. */
  private void replaceLast(Step old, Step now) {
    List<Step> target = current.target();
    if (target.isEmpty() || target.get(target.size() - 1) != old) {
      throw new IllegalStateException("the step before 'on oom' is not the last step of its block");
    }
    target.set(target.size() - 1, now);
    for (int i = placed.size() - 1; i >= 0; i--) {
      Placed p = placed.get(i);
      if (p.step == old) {
        placed.set(i, new Placed(now, p.tokens, p.owner));
        break;
      }
    }
  }

  /** {@code if free >= SIZE} or {@code if free < SIZE}. */
  private OpenIf openIf(List<Token> t) throws DesignException {
    Token kw = t.get(0);
    Token free = need(t, 1, "if needs a condition on free memory, e.g. if free >= 4GiB");
    if (!free.text.equals("free")) {
      String hint = free.text.startsWith("free")
          ? " (separate free, the operator and the size with spaces, e.g. if free >= 4GiB)"
          : " (expected free, e.g. if free >= 4GiB)";
      throw error(free, "unexpected " + show(free.text) + " after 'if'" + hint);
    }
    Token op = need(t, 2, free, "if free needs >= or < and a size, e.g. if free >= 4GiB");
    boolean atLeast;
    if (op.text.equals(">=")) {
      atLeast = true;
    } else if (op.text.equals("<")) {
      atLeast = false;
    } else {
      String rest = op.text.startsWith(">=") ? op.text.substring(2) : op.text.startsWith("<") ? op.text.substring(1) : "";
      String hint = !rest.isEmpty() && Character.isDigit(rest.charAt(0))
          ? "expected >= or <, then a space and a size"
          : "expected >= or <";
      throw error(op, "bad operator " + show(op.text) + " in if free (" + hint + ")");
    }
    Token sz = need(t, 3, op, "if free " + op.text + " needs a size, e.g. if free " + op.text + " 4GiB");
    long bytes = size(sz);
    end(t, 4);
    return new OpenIf(kw, atLeast, bytes);
  }

  /** {@code or}: the second path of the innermost {@code choose}. */
  private void orLine(List<Token> t) throws DesignException {
    Token kw = t.get(0);
    OpenIf open = current.open.peek();
    if (open == null || !open.choice) {
      throw error(kw, "'or' without 'choose'" + (open != null && open.handles == null
          ? " (the 'if' at line " + open.keyword.line + " takes else)" : ""));
    }
    if (open.elseKeyword != null) {
      throw error(kw, "second 'or' for the 'choose' at line " + open.keyword.line
          + " (first 'or' at line " + open.elseKeyword.line + "; nest a choose for more paths)");
    }
    end(t, 1);
    open.elseKeyword = kw;
  }

  private void elseLine(List<Token> t) throws DesignException {
    Token kw = t.get(0);
    OpenIf open = current.open.peek();
    if (open == null) {
      throw error(kw, "'else' without 'if'");
    }
    if (open.choice) {
      throw error(kw, "'else' inside the 'choose' opened at line " + open.keyword.line + " (its second path starts with or)");
    }
    if (open.elseKeyword != null) {
      throw error(kw, "second 'else' for the " + open.opener() + " at line " + open.keyword.line
          + " (first 'else' at line " + open.elseKeyword.line + ")");
    }
    end(t, 1);
    open.elseKeyword = kw;
  }

  private void endLine(List<Token> t) throws DesignException {
    Token kw = t.get(0);
    if (current.open.isEmpty()) {
      throw error(kw, "'end' without 'if', 'choose' or 'on oom'");
    }
    end(t, 1);
    OpenIf open = current.open.pop();
    if (open.handles != null) {
      replaceLast(open.handles, open.handles.withOnOom(new OnOom.Handle(open.then, open.otherwise)));
      return;
    }
    if (open.choice) {
      if (open.elseKeyword == null) {
        throw error(kw, "'choose' at line " + open.keyword.line + " has no 'or' (a choice needs two paths; either may be empty)");
      }
      current.target().add(new Choose(open.then, open.otherwise));
      return;
    }
    current.target().add(new IfFree(open.atLeast, open.bytes, open.then, open.otherwise));
  }

  // ---------------------------------------------------------------- steps

  private Step step(List<Token> t) throws DesignException {
    Token kw = t.get(0);
    switch (kw.text) {
      case "lock":
      case "unlock": {
        Token m = need(t, 1, kw.text + " needs a mutex name");
        requireName(m, "mutex");
        end(t, 2);
        refs.add(new Ref(m, Kind.MUTEX));
        return kw.text.equals("lock") ? new Lock(m.text) : new Unlock(m.text);
      }
      case "acquire":
      case "release": {
        Token s = need(t, 1, kw.text + " needs a semaphore name");
        requireName(s, "semaphore");
        int permits = 1;
        if (t.size() > 2) {
          Token c = t.get(2);
          long n = number(c.text);
          if (n == BAD) {
            throw error(c, "bad permit count " + show(c.text) + " (expected a positive integer)");
          }
          if (n == TOO_LARGE) {
            throw error(c, tooLarge("permit count", c.text));
          }
          if (n < 1) {
            throw error(c, kw.text + " needs at least 1 permit");
          }
          permits = (int) n;
        }
        end(t, 3);
        refs.add(new Ref(s, Kind.SEMAPHORE));
        return kw.text.equals("acquire") ? new Acquire(s.text, permits) : new Release(s.text, permits);
      }
      case "alloc": {
        Token b = need(t, 1, "alloc needs a buffer name, e.g. alloc staged 12GiB");
        requireName(b, "buffer");
        Token sz = need(t, 2, "alloc needs a size, e.g. alloc " + b.text + " 12GiB");
        long bytes = size(sz);
        boolean async = false;
        boolean keep = false;
        int i = 3;
        if (i < t.size() && t.get(i).text.equals("async")) {
          async = true;
          i++;
        }
        if (i < t.size() && t.get(i).text.equals("keep")) {
          keep = true;
          i++;
        }
        if (i < t.size()) {
          Token a = t.get(i);
          String hint = i == 3 ? " (expected async or keep)"
              : keep && a.text.equals("async") ? " (async comes before keep)"
              : "";
          throw error(a, "unexpected " + show(a.text) + " after " + show(join(t, i)) + hint);
        }
        return new Alloc(b.text, bytes, async, keep);
      }
      case "free": {
        Token b = need(t, 1, "free needs a buffer name");
        requireName(b, "buffer");
        end(t, 2);
        return new Free(b.text);
      }
      case "trim":
        end(t, 1);
        return new Trim();
      case "sync":
        if (t.size() > 1 && t.get(1).text.equals("stream")) {
          end(t, 2);
          return new SyncStream();
        }
        end(t, 1);
        return new Sync();
      case "spawn":
      case "join": {
        Token task = need(t, 1, kw.text + " needs a task name, e.g. " + kw.text + " prep_msm");
        requireName(task, "task");
        end(t, 2);
        refs.add(new Ref(task, Kind.TASK));
        return kw.text.equals("spawn") ? new Spawn(task.text) : new Join(task.text);
      }
      case "signal":
      case "wait": {
        Token e = need(t, 1, kw.text + " needs an event name, e.g. " + kw.text + " ready");
        requireName(e, "event");
        end(t, 2);
        return kw.text.equals("signal") ? new Signal(e.text) : new Wait(e.text);
      }
      case "if":
        throw error(kw, "'if' opens a block of lines (if free ..., else, end) and cannot be read as a single step");
      case "else":
      case "end":
        throw error(kw, "'" + kw.text + "' belongs to an if block and cannot be read as a single step");
      case "on":
        throw error(kw, "'on oom' belongs to the alloc line before it and cannot be read as a single step");
      case "choose":
      case "or":
        throw error(kw, "'" + kw.text + "' belongs to a choose block (choose, or, end) and cannot be read as a single step");
      case "kernel":
        return kernel(t);
      case "cpu": {
        Token c = need(t, 1, "cpu needs a name, e.g. cpu synthesize");
        requireName(c, "cpu interval");
        Optional<Duration> d = Optional.empty();
        if (t.size() > 2) {
          Token f = t.get(2);
          if (!f.text.equals("for")) {
            throw error(f, "unexpected " + show(f.text) + " after " + show(join(t, 2)) + " (expected for DURATION)");
          }
          d = Optional.of(duration(need(t, 3, f, "for needs a duration, e.g. for 0.5s")));
        }
        end(t, 4);
        return new Cpu(c.text, d);
      }
      default:
        if (!STEP_KEYWORDS.contains(kw.text)) {
          throw error(kw, unknownKeyword(kw.text, STEP_KEYWORDS));
        }
        throw new IllegalStateException("step keyword without a case: " + kw.text);
    }
  }

  /**
   * {@code kernel K [uses B...] [for D]}. Inside the uses list, {@code for} is the duration keyword
   * when the token after it is not a name (durations start with a digit); otherwise it is a buffer
   * called {@code for}, so that every printed design parses back.
   */
  private Step kernel(List<Token> t) throws DesignException {
    Token k = need(t, 1, "kernel needs a name, e.g. kernel ntt_msm uses staged");
    requireName(k, "kernel");
    List<String> uses = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    int i = 2;
    int n = t.size();
    if (i < n && t.get(i).text.equals("uses")) {
      Token usesKw = t.get(i);
      i++;
      while (i < n) {
        Token b = t.get(i);
        if (b.text.equals("for") && i + 1 < n && !Names.isIdentifier(t.get(i + 1).text)) {
          break;
        }
        if (!Names.isIdentifier(b.text)) {
          String hint = Durations.parse(b.text).duration().isPresent() ? " (missing 'for' before the duration?)" : "";
          throw error(b, invalidName("buffer", b.text) + hint);
        }
        if (!seen.add(b.text)) {
          throw error(b, "kernel " + k.text + " uses buffer " + show(b.text) + " twice");
        }
        uses.add(b.text);
        i++;
      }
      if (uses.isEmpty()) {
        throw error(usesKw, "uses needs at least one buffer");
      }
    }
    Optional<Duration> d = Optional.empty();
    if (i < n) {
      Token f = t.get(i);
      if (!f.text.equals("for")) {
        throw error(f, "unexpected " + show(f.text) + " after " + show(join(t, i)) + " (expected uses or for)");
      }
      d = Optional.of(duration(need(t, i + 1, f, "for needs a duration, e.g. for 0.5s")));
      i += 2;
    }
    end(t, i);
    return new Kernel(k.text, uses, d);
  }

  // ---------------------------------------------------------------- names and references

  private void declare(Token name, Kind kind) throws DesignException {
    requireName(name, kind.word);
    Declared earlier = names.get(name.text);
    if (earlier != null) {
      throw error(name, "duplicate name " + show(name.text) + " (first declared at line " + earlier.line + ")");
    }
    names.put(name.text, new Declared(kind, name.line));
  }

  /** The error for a bad reference, or null. */
  private DesignException resolve(Ref r) {
    Declared d = names.get(r.name.text);
    if (d == null) {
      List<String> candidates = new ArrayList<>();
      names.forEach((n, decl) -> {
        if (decl.kind == r.expected) {
          candidates.add(n);
        }
      });
      candidates.sort(null);
      String suggestion = closest(r.name.text, candidates);
      return error(r.name, "undeclared " + r.expected.word + " " + show(r.name.text)
          + (suggestion == null ? "" : "; did you mean '" + suggestion + "'?"));
    }
    if (d.kind != r.expected) {
      return error(r.name, show(r.name.text) + " is a " + d.kind.word + ", not a " + r.expected.word);
    }
    return null;
  }

  // ---------------------------------------------------------------- checks over the whole design

  private TaskGraph graph() {
    Map<String, List<Step>> bodies = new HashMap<>();
    tasks.forEach(b -> bodies.put(b.name.text, b.steps));
    return new TaskGraph(bodies);
  }

  /** Device buffers fit in vram together, and no role or task allocates or frees one. */
  private void checkDeviceBuffers(List<DesignException> found) {
    long total = 0;
    for (DeviceBuffer b : deviceBuffers.values()) {
      // Each size and vram are at most Long.MAX_VALUE / 4, so the sum cannot overflow before it exceeds vram.
      total += b.bytes;
      if (total > vram) {
        found.add(error(b.size, "device buffers need " + Sizes.format(total) + ", more than vram " + Sizes.format(vram)));
        break;
      }
    }
    for (Placed p : placed) {
      boolean alloc = p.step instanceof Alloc;
      String buffer = p.step instanceof Alloc a ? a.buffer() : p.step instanceof Free f ? f.buffer() : null;
      DeviceBuffer d = buffer == null ? null : deviceBuffers.get(buffer);
      if (d != null) {
        found.add(error(p.tokens.get(1), show(buffer) + " is a device buffer (line " + d.name.line
            + "), allocated once for the whole run: " + p.owner.what() + " may not " + (alloc ? "allocate" : "free")
            + " it"));
      }
    }
  }

  /** No task can spawn itself: reported at each spawn that closes a cycle. */
  private void checkSpawnCycles(TaskGraph graph, List<DesignException> found) {
    for (Placed p : placed) {
      if (p.step instanceof Spawn s && p.owner.kind == Kind.TASK && graph.has(s.task())) {
        List<String> cycle = new ArrayList<>(graph.path(s.task(), p.owner.name.text));
        if (!cycle.isEmpty()) {
          cycle.add(s.task());
          found.add(error(p.tokens.get(1), "task " + s.task() + " can spawn itself: " + String.join(" -> ", cycle)));
        }
      }
    }
  }

  /**
   * Within a role and the tasks it can spawn (and within a task and its own), a buffer name is never
   * kept, or always kept at one size; reported at the later alloc in file order.
   */
  private void checkKeeps(TaskGraph graph, List<DesignException> found) {
    Map<Step, Placed> where = new IdentityHashMap<>();
    Map<Step, Integer> order = new IdentityHashMap<>();
    for (Placed p : placed) {
      where.put(p.step, p);
      order.put(p.step, order.size());
    }
    List<Body> bodies = new ArrayList<>(roles);
    bodies.addAll(tasks);
    for (Body b : bodies) {
      List<Step> allocs = new ArrayList<>();
      for (Step s : graph.closure(b.steps)) {
        if (s instanceof Alloc) {
          allocs.add(s);
        }
      }
      allocs.sort(Comparator.comparingInt(order::get));
      TaskGraph.keepConflict(allocs).ifPresent(c -> {
        Placed later = where.get(c.later());
        int line = where.get(c.earlier()).tokens.get(0).line;
        String in = " (in " + b.what() + (graph.reach(b.steps).isEmpty() ? "" : " and the tasks it can spawn") + ")";
        Alloc a = c.later();
        if (a.keep() != c.earlier().keep()) {
          String what = a.keep()
              ? "kept buffer " + show(a.buffer()) + " is also allocated without keep at line " + line
              : "buffer " + show(a.buffer()) + " is allocated without keep but kept at line " + line;
          found.add(error(later.tokens.get(1), what + in + "; a buffer name is either always kept or never"));
        } else {
          found.add(error(later.tokens.get(2), "kept buffer " + show(a.buffer()) + " is " + Sizes.format(a.bytes())
              + " but " + Sizes.format(c.earlier().bytes()) + " at line " + line + in + "; a kept buffer has one size"));
        }
      });
    }
  }

  /**
   * Every {@code wait E} has a {@code signal E} in a job that can run it: in the role and the tasks it
   * can spawn, or, for a wait in a task, in a role or task that can spawn that task and what it spawns.
   */
  private void checkWaits(TaskGraph graph, List<DesignException> found) {
    List<List<Step>> roleBodies = new ArrayList<>();
    roles.forEach(r -> roleBodies.add(r.steps));
    Map<Body, Set<String>> signalled = new HashMap<>();
    for (Placed p : placed) {
      if (p.step instanceof Wait w) {
        Body b = p.owner;
        Set<String> events = signalled.computeIfAbsent(b,
            x -> x.kind == Kind.ROLE ? graph.signals(x.steps) : graph.jobSignals(x.name.text, roleBodies));
        if (!events.contains(w.event())) {
          String where = b.kind == Kind.ROLE
              ? "in " + b.what() + " or the tasks it can spawn"
              : "in a job that runs " + b.what() + " (a role or task that can spawn it, and the tasks they spawn)";
          String suggestion = closest(w.event(), new ArrayList<>(events));
          found.add(error(p.tokens.get(1), "event " + show(w.event()) + " is never signalled " + where
              + (suggestion == null ? "" : "; did you mean '" + suggestion + "'?")));
        }
      }
    }
  }

  private void requireName(Token name, String what) throws DesignException {
    if (!Names.isIdentifier(name.text)) {
      throw error(name, invalidName(what, name.text));
    }
  }

  private static String invalidName(String what, String text) {
    return "invalid " + what + " name " + show(text)
        + " (a name starts with a letter or _ and continues with letters, digits, _, . or -)";
  }

  // ---------------------------------------------------------------- values

  private static final long BAD = -1;
  private static final long TOO_LARGE = -2;

  /** A non-negative decimal int, or {@link #BAD} / {@link #TOO_LARGE}. */
  private static long number(String s) {
    if (s.isEmpty()) {
      return BAD;
    }
    long v = 0;
    boolean large = false;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return BAD;
      }
      if (!large) {
        v = v * 10 + (c - '0');
        if (v > Integer.MAX_VALUE) {
          large = true;
        }
      }
    }
    return large ? TOO_LARGE : v;
  }

  private static String tooLarge(String what, String text) {
    return what + " " + show(text) + " is too large (at most " + Integer.MAX_VALUE + ")";
  }

  private long size(Token t) throws DesignException {
    Sizes.Parsed p = Sizes.parse(t.text);
    if (p.bytes().isEmpty()) {
      throw error(t, sanitizeMessage(p.error(), t.text));
    }
    return p.bytes().get();
  }

  /** A pool threshold: a size, or zero with a unit, e.g. {@code 0B}. */
  private long threshold(Token t) throws DesignException {
    Matcher m = ZERO_SIZE.matcher(t.text);
    if (m.matches() && Sizes.parse("1" + m.group(1)).bytes().isPresent()) {
      return 0;
    }
    return size(t);
  }

  private Duration duration(Token t) throws DesignException {
    Durations.Parsed p = Durations.parse(t.text);
    if (p.duration().isEmpty()) {
      throw error(t, sanitizeMessage(p.error(), t.text));
    }
    return p.duration().get();
  }

  // ---------------------------------------------------------------- helpers

  /** Token {@code i}, or an error reported at the line's keyword when it is missing. */
  private Token need(List<Token> t, int i, String message) throws DesignException {
    return need(t, i, t.get(0), message);
  }

  /** Token {@code i}, or an error reported at {@code owner}, the token that needs it. */
  private Token need(List<Token> t, int i, Token owner, String message) throws DesignException {
    if (i < t.size()) {
      return t.get(i);
    }
    throw error(owner, message);
  }

  private void end(List<Token> t, int i) throws DesignException {
    if (i < t.size()) {
      Token extra = t.get(i);
      throw error(extra, "unexpected " + show(extra.text) + " after " + show(join(t, i)));
    }
  }

  private static String join(List<Token> t, int upTo) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < upTo; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      sb.append(t.get(i).text);
      if (sb.length() > SHOW_MAX * 2) {
        break;
      }
    }
    return sb.toString();
  }

  private static String unknownKeyword(String word, List<String> keywords) {
    String msg = "unknown keyword " + show(word) + " (expected one of: " + String.join(", ", keywords) + ")";
    String suggestion = closest(word, keywords);
    return suggestion == null ? msg : msg + "; did you mean '" + suggestion + "'?";
  }

  /**
   * The candidate nearest to {@code word} (ignoring case) within edit distance 2, or null; a
   * candidate must also keep part of the word (distance below both lengths), so 'q' does not
   * suggest 'm'. Ties go to the earlier candidate.
   */
  static String closest(String word, List<String> candidates) {
    String w = word.toLowerCase(Locale.ROOT);
    String best = null;
    int bestDistance = 3;
    for (String c : candidates) {
      if (Math.abs(c.length() - w.length()) >= bestDistance) {
        continue;
      }
      int d = editDistance(w, c.toLowerCase(Locale.ROOT));
      if (d < bestDistance && d < w.length() && d < c.length()) {
        best = c;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Levenshtein distance; callers only pass strings whose lengths differ by at most 2. */
  static int editDistance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
      }
      int[] tmp = prev;
      prev = cur;
      cur = tmp;
    }
    return prev[b.length()];
  }

  /** {@code 'text'}, shortened and with control characters escaped so that junk input prints safely. */
  static String show(String text) {
    return "'" + sanitize(text) + "'";
  }

  private static String sanitize(String text) {
    String s = text;
    if (s.length() > SHOW_MAX) {
      int cut = SHOW_MAX - 3;
      if (Character.isHighSurrogate(s.charAt(cut - 1))) {
        cut--;
      }
      s = s.substring(0, cut) + "...";
    }
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean escape = Character.isISOControl(c)
          || Character.getType(c) == Character.FORMAT
          || (Character.getType(c) == Character.SPACE_SEPARATOR && c != ' ')
          || Character.getType(c) == Character.LINE_SEPARATOR
          || Character.getType(c) == Character.PARAGRAPH_SEPARATOR
          || (Character.isHighSurrogate(c) && !(i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))))
          || (Character.isLowSurrogate(c) && !(i > 0 && Character.isHighSurrogate(s.charAt(i - 1))));
      if (escape && sb == null) {
        sb = new StringBuilder(s.substring(0, i));
      }
      if (sb != null) {
        if (escape) {
          sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
        } else {
          sb.append(c);
        }
      }
    }
    return sb == null ? s : sb.toString();
  }

  /** A message from {@link Sizes} or {@link Durations} with the raw token replaced by its safe form. */
  private static String sanitizeMessage(String message, String token) {
    String safe = sanitize(token);
    return safe.equals(token) ? message : message.replace(token, safe);
  }

  private DesignException error(Token t, String message) {
    return error(t.line, t.col, message);
  }

  private DesignException error(int line, int col, String message) {
    return new DesignException(file, line, col, message);
  }
}
