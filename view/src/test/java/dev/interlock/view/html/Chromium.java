package dev.interlock.view.html;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Debian's chromium in headless mode, for the browser tests (this module's and cli's): screenshots and the DOM after the
 * page's script ran. Missing chromium skips the tests with the reason, except under {@code CI=true}, where it fails them.
 */
public final class Chromium {
  private final Path binary;
  private final Path profile;

  private Chromium(Path binary, Path profile) {
    this.binary = binary;
    this.profile = profile;
  }

  /** The browser, or the test is skipped (failed under CI=true) saying why. */
  public static Chromium require(Path scratch) {
    Optional<Path> b = find();
    if (b.isEmpty()) {
      String why = "no chromium found (looked at $CHROMIUM, then chromium, chromium-browser, google-chrome on PATH); "
          + "install it (apt-get install chromium) to run the browser tests";
      if ("true".equals(System.getenv("CI"))) {
        fail("CI=true: the browser tests must run, but " + why);
      }
      System.err.println("browser tests skipped: " + why);
      Assumptions.abort(why);
    }
    return new Chromium(b.get(), scratch.resolve("profile"));
  }

  private static Optional<Path> find() {
    List<Path> candidates = new ArrayList<>();
    String env = System.getenv("CHROMIUM");
    if (env != null && !env.isBlank()) {
      candidates.add(Path.of(env));
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      for (String name : List.of("chromium", "chromium-browser", "google-chrome")) {
        candidates.add(Path.of(dir, name));
      }
    }
    return candidates.stream().filter(Files::isExecutable).findFirst();
  }

  /** A screenshot of {@code page} in a window of the given size, at one device pixel per CSS pixel. */
  public Path screenshot(Path page, int width, int height, Path png) throws IOException, InterruptedException {
    run(page, List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=" + width + "," + height), png.resolveSibling("shot.log"));
    if (!Files.isRegularFile(png)) {
      fail("chromium wrote no screenshot; its output: " + Files.readString(png.resolveSibling("shot.log")));
    }
    return png;
  }

  /** The DOM of {@code page} after its scripts ran. */
  public String dumpDom(Path page, int width, int height) throws IOException, InterruptedException {
    Path out = page.resolveSibling(page.getFileName() + ".dom");
    run(page, List.of("--dump-dom", "--window-size=" + width + "," + height), out);
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  private void run(Path page, List<String> args, Path stdout) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--hide-scrollbars", "--force-device-scale-factor=1", "--user-data-dir=" + profile.toAbsolutePath()));
    cmd.addAll(args);
    cmd.add(page.toAbsolutePath().toUri().toString());
    Process p = new ProcessBuilder(cmd).redirectOutput(stdout.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    if (!p.waitFor(90, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("chromium did not finish within 90 s: " + cmd);
    }
    if (p.exitValue() != 0) {
      fail("chromium exited with " + p.exitValue() + ": " + cmd);
    }
  }
}
