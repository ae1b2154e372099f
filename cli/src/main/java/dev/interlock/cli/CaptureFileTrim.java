package dev.interlock.cli;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Cuts what the capture library leaves around its records once the program has ended: the file grows in mapped
 * chunks, so it ends in NUL bytes, and a crash can leave a reserved but unwritten hole (NULs) in the middle.
 */
final class CaptureFileTrim {
  /** Files larger than this keep their holes; only the NUL tail is cut. */
  private static final long IN_MEMORY = 1L << 30;

  private CaptureFileTrim() {}

  /** Removes NUL runs (and a record cut short by one) and returns how many records (non-comment lines) remain. */
  static long trim(Path file) throws IOException {
    long size = Files.size(file);
    if (size > IN_MEMORY) {
      try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
        f.setLength(dataEnd(f, size));
      }
      return -1;
    }
    byte[] in = Files.readAllBytes(file);
    byte[] out = new byte[in.length];
    int n = 0;
    for (int i = 0; i < in.length; ) {
      if (in[i] != 0) {
        out[n++] = in[i++];
        continue;
      }
      while (i < in.length && in[i] == 0) {
        i++;
      }
      if (i < in.length) { // a hole, not the tail: a record written only in part before it is dropped
        while (n > 0 && out[n - 1] != '\n') {
          n--;
        }
      }
    }
    long records = 0;
    boolean lineStart = true;
    for (int i = 0; i < n; i++) {
      if (lineStart && out[i] != '#') {
        records++;
      }
      lineStart = out[i] == '\n';
    }
    if (n != in.length) {
      try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
        f.seek(0);
        f.write(out, 0, n);
        f.setLength(n);
      }
    }
    return records;
  }

  private static long dataEnd(RandomAccessFile f, long size) throws IOException {
    byte[] block = new byte[1 << 20];
    long end = size;
    while (end > 0) {
      int len = (int) Math.min(block.length, end);
      f.seek(end - len);
      f.readFully(block, 0, len);
      for (int i = len - 1; i >= 0; i--) {
        if (block[i] != 0) {
          return end - len + i + 1;
        }
      }
      end -= len;
    }
    return 0;
  }
}
