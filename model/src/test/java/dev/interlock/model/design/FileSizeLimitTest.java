package dev.interlock.model.design;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.trace.TraceFormat;
import dev.interlock.model.trace.TraceFormatException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Design and trace files over the size limit are refused with a positioned error, before anything is read. */
class FileSizeLimitTest {
  @TempDir
  Path tmp;

  @AfterEach
  void clearProperty() {
    System.clearProperty(FileSizeLimit.PROPERTY);
  }

  /** A 100 MB file (sparse: no disk is written, its size is what the limit looks at). */
  private Path hundredMegabytes(String name) throws IOException {
    Path p = tmp.resolve(name);
    try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
      f.setLength(100_000_000L);
    }
    return p;
  }

  @Test
  void aHundredMegabyteDesignIsRefusedNamingTheFileAndTheLimit() throws IOException {
    Path big = hundredMegabytes("big.design");
    assertThatThrownBy(() -> DesignParser.parse(big)).isInstanceOf(DesignException.class)
        .hasMessage(big + ":1:1: file of 95.4 MiB is larger than the limit of 64MiB (raise it with"
            + " -Dinterlock.max-file-size=SIZE, e.g. INTERLOCK_JAVA_OPTS=-Dinterlock.max-file-size=1GiB)");
  }

  @Test
  void aHundredMegabyteTraceIsRefusedNamingTheFileAndTheLimit() throws IOException {
    Path big = hundredMegabytes("big.trace");
    assertThatThrownBy(() -> TraceFormat.read(big)).isInstanceOf(TraceFormatException.class)
        .hasMessageStartingWith(big + ":1:1: file of 95.4 MiB is larger than the limit of 64MiB (raise it with");
  }

  @Test
  void thePropertyRaisesOrLowersTheLimit() throws IOException, DesignException {
    Path small = tmp.resolve("small.design");
    Files.writeString(small, "design d\nvram 1GiB\nrole w x1 jobs 1\n  alloc a 1MiB\n  free a\n");
    assertThat(DesignParser.parse(small).name()).isEqualTo("d");
    System.setProperty(FileSizeLimit.PROPERTY, "16B");
    assertThatThrownBy(() -> DesignParser.parse(small)).hasMessageContaining("larger than the limit of 16B");
    System.setProperty(FileSizeLimit.PROPERTY, "1KiB");
    assertThat(DesignParser.parse(small).name()).isEqualTo("d");
    System.setProperty(FileSizeLimit.PROPERTY, "lots");
    assertThatThrownBy(() -> DesignParser.parse(small)).hasMessageStartingWith(small + ":1:1: -Dinterlock.max-file-size: bad size 'lots'");
  }
}
