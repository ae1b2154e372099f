package dev.interlock.cli;

import dev.interlock.model.trace.Trace;
import dev.interlock.model.trace.TraceFormat;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Writes trace files (and views of them) without ever clobbering a user's file by accident. */
final class TraceFiles {
  private TraceFiles() {}

  /** Fails (exit 2) when {@code path} (null: none) exists and {@code force} is off; before work that would write it. */
  static void checkWritable(Path path, boolean force) {
    if (path != null && !force && Files.exists(path)) {
      throw new CliError(path + ": exists; not overwritten (pass --force to replace it)");
    }
  }

  /** Writes t to path; an existing file is replaced only with {@code force}, and then atomically. */
  static void write(Trace t, Path path, boolean force) {
    write(TraceFormat.print(t).getBytes(StandardCharsets.UTF_8), path, force, "trace");
  }

  /** Writes {@code text} (a trace, or a view of one: {@code what}) to path, as {@link #write(Trace, Path, boolean)}. */
  static void write(String text, Path path, boolean force, String what) {
    write(text.getBytes(StandardCharsets.UTF_8), path, force, what);
  }

  /** Writes bytes (a {@code what}, for messages) to path; as {@link #write(Trace, Path, boolean)}. */
  static void write(byte[] bytes, Path path, boolean force, String what) {
    try {
      Path parent = path.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      if (!force) {
        Files.write(path, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return;
      }
      Path tmp = Files.createTempFile(parent, ".interlock-", ".tmp");
      try {
        Files.write(tmp, bytes);
        Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp); // gone after the move; left only when the write or the move failed
      }
    } catch (FileAlreadyExistsException e) {
      throw new CliError(path + ": exists; not overwritten (pass --force to replace it)");
    } catch (IOException e) {
      throw new CliError(path + ": cannot write " + what + ": " + e.getMessage());
    }
  }
}
