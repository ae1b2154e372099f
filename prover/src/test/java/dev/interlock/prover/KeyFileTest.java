package dev.interlock.prover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KeyFileTest {
  @TempDir Path dir;

  private final Circuit circuit = Circuit.synthetic(5, 2, 17);

  private Path written() throws Exception {
    Path file = dir.resolve("k.key");
    KeyFile.write(file, Groth16TestSupport.keys(circuit));
    return file;
  }

  @Test
  void roundTrip() throws Exception {
    SplittableRandom rnd = Groth16TestSupport.random("KeyFileTest.roundTrip", 20);
    Keys keys = Groth16TestSupport.keys(circuit);
    Path file = written();
    assertThat(Files.size(file)).isEqualTo(KeyFile.fileSize(circuit.params()));
    Keys back = KeyFile.read(file, circuit);
    assertThat(back.pk()).isEqualTo(keys.pk());
    assertThat(back.vk()).isEqualTo(keys.vk());
    assertThat(KeyFile.read(file).pk().params()).isEqualTo(circuit.params());
    Witness w = circuit.witness(rnd);
    Proof proof = Prover.prove(back.pk(), circuit, w, rnd);
    assertThat(Verifier.verify(keys.vk(), proof, w.publicInputs())).isTrue();
    assertThat(Verifier.verify(back.vk(), proof, w.publicInputs())).isTrue();
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files).containsExactly(file); // no temporary file left behind
    }
  }

  @Test
  void corruptByteIsAChecksumError() throws Exception {
    SplittableRandom rnd = Groth16TestSupport.random("KeyFileTest.corruptByteIsAChecksumError", 21);
    Path file = written();
    byte[] bytes = Files.readAllBytes(file);
    for (int k = 0; k < 3; k++) {
      byte[] bad = bytes.clone();
      int at = KeyFile.HEADER_BYTES + rnd.nextInt(bytes.length - KeyFile.HEADER_BYTES);
      bad[at] ^= (byte) (1 << rnd.nextInt(8));
      Files.write(file, bad);
      assertThatThrownBy(() -> KeyFile.read(file, circuit)).isInstanceOf(KeyFileException.class)
          .hasMessage(file + ": checksum mismatch: file is corrupt");
    }
  }

  @Test
  void truncatedFileIsReported() throws Exception {
    Path file = written();
    byte[] bytes = Files.readAllBytes(file);
    for (int len : new int[] {0, 5, 30, KeyFile.HEADER_BYTES + 10, bytes.length / 2, bytes.length - 1}) {
      Files.write(file, Arrays.copyOf(bytes, len));
      assertThatThrownBy(() -> KeyFile.read(file, circuit)).as("length %d", len).isInstanceOf(KeyFileException.class)
          .hasMessageStartingWith(file + ": ")
          .hasMessageContaining("truncated");
    }
    Path missing = dir.resolve("missing.key");
    assertThatThrownBy(() -> KeyFile.read(missing, circuit)).hasMessage(missing + ": no such key file");
    Files.write(file, Arrays.copyOf(bytes, bytes.length - 1));
    assertThatThrownBy(() -> KeyFile.read(file, circuit)).hasMessageContaining("truncated");
    Files.write(file, Arrays.copyOf(bytes, bytes.length + 3));
    assertThatThrownBy(() -> KeyFile.read(file, circuit)).hasMessageContaining("3 unexpected trailing bytes");
  }

  @Test
  void keyForAnotherCircuitIsRejected() throws Exception {
    Path file = written();
    assertThatThrownBy(() -> KeyFile.read(file, Circuit.synthetic(4, 2, 17)))
        .isInstanceOf(KeyFileException.class).hasMessage(file + ": key is for logN=5, circuit has logN=4");
    assertThatThrownBy(() -> KeyFile.read(file, Circuit.synthetic(5, 1, 17)))
        .hasMessage(file + ": key is for publicInputs=2, circuit has publicInputs=1");
    assertThatThrownBy(() -> KeyFile.read(file, Circuit.synthetic(5, 2, 18)))
        .hasMessage(file + ": key is for structureSeed=17, circuit has structureSeed=18");
  }

  @Test
  void badMagicAndVersionAreReported() throws Exception {
    Path file = written();
    byte[] bytes = Files.readAllBytes(file);
    byte[] bad = bytes.clone();
    bad[0] = 'X';
    Files.write(file, bad);
    assertThatThrownBy(() -> KeyFile.read(file, circuit)).hasMessageContaining("not a Groth16 key file: bad magic");
    bad = bytes.clone();
    bad[11] = 9;
    Files.write(file, bad);
    assertThatThrownBy(() -> KeyFile.read(file, circuit))
        .hasMessage(file + ": unsupported key file format version 9 (this build reads versions 1 and 2)");
  }

  @Test
  void aFilecoinWitnessKeyIsVersionTwoWithItsShape() throws Exception {
    Circuit fc = Circuit.synthetic(new Circuit.Params(5, 2, 17, WitnessShape.filecoin(20_000)));
    Path file = dir.resolve(KeyCache.fileName(fc.params()));
    assertThat(file.getFileName().toString()).isEqualTo("groth16-bls12381-n5-p2-s11-filecoin20000.key");
    Keys keys = Groth16TestSupport.keys(fc);
    KeyFile.write(file, keys);
    assertThat(Files.size(file)).isEqualTo(KeyFile.fileSize(fc.params()))
        .isEqualTo(KeyFile.fileSize(circuit.params()) + KeyFile.SHAPE_BYTES);
    byte[] bytes = Files.readAllBytes(file);
    assertThat(bytes[11]).isEqualTo((byte) KeyFile.VERSION_WITH_SHAPE);
    Keys back = KeyFile.read(file, fc);
    assertThat(back.pk().params()).isEqualTo(fc.params());
    assertThat(back.vk()).isEqualTo(keys.vk());
    assertThat(back.pk()).isEqualTo(keys.pk());
    assertThatThrownBy(() -> KeyFile.read(file, Circuit.synthetic(new Circuit.Params(5, 2, 17, WitnessShape.filecoin(10_000)))))
        .hasMessage(file + ": key is for a filecoin (2% full-width) witness, circuit has a filecoin (1% full-width) witness");
    assertThatThrownBy(() -> KeyFile.read(file, circuit))
        .hasMessage(file + ": key is for a filecoin (2% full-width) witness, circuit has a field witness");
    // a field key is still version 1, as older builds wrote it
    assertThat(Files.readAllBytes(written())[11]).isEqualTo((byte) KeyFile.VERSION);
  }

  @Test
  void invalidPointWithValidChecksumIsReported() throws Exception {
    Path file = written();
    byte[] bytes = Files.readAllBytes(file);
    int aQuery = KeyFile.HEADER_BYTES + 3 * 48 + 3 * 96;
    int third = aQuery + 3 * 48;
    bytes[third + 47] ^= 1; // x changes: almost surely not on the curve or not canonical / in the subgroup
    resign(bytes);
    Files.write(file, bytes);
    assertThatThrownBy(() -> KeyFile.read(file, circuit)).isInstanceOf(KeyFileException.class)
        .hasMessageStartingWith(file + ": bad point a_query[3]: G1 point");
    // a header whose counts do not fit its parameters
    byte[] fresh = Files.readAllBytes(written());
    fresh[31] ^= 1; // m
    resign(fresh);
    Files.write(file, fresh);
    assertThatThrownBy(() -> KeyFile.read(file, circuit)).hasMessageContaining("corrupt header: counts");
  }

  private static void resign(byte[] bytes) throws Exception {
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    sha.update(bytes, 0, bytes.length - 32);
    System.arraycopy(sha.digest(), 0, bytes, bytes.length - 32, 32);
  }

  @Test
  void writeNewRefusesToOverwriteAndWriteReplaces() throws Exception {
    Path file = dir.resolve("sub/new.key");
    Keys keys = Groth16TestSupport.keys(circuit);
    KeyFile.writeNew(file, keys);
    byte[] first = Files.readAllBytes(file);
    assertThatThrownBy(() -> KeyFile.writeNew(file, keys)).isInstanceOf(KeyFileException.class)
        .hasMessage(file + ": file exists; refusing to overwrite it")
        .hasCauseInstanceOf(FileAlreadyExistsException.class);
    Files.write(file, new byte[] {1, 2, 3});
    assertThatThrownBy(() -> KeyFile.writeNew(file, keys)).isInstanceOf(KeyFileException.class);
    assertThat(Files.readAllBytes(file)).containsExactly(1, 2, 3);
    KeyFile.write(file, keys);
    assertThat(Files.readAllBytes(file)).isEqualTo(first); // deterministic encoding
    try (Stream<Path> files = Files.list(file.getParent())) {
      assertThat(files).containsExactly(file);
    }
  }

  @Test
  void keyCacheCreatesReusesAndReplacesInvalidFiles() throws Exception {
    Path cache = dir.resolve("cache");
    KeyCache.Entry created = KeyCache.loadOrCreate(cache, circuit, 5);
    assertThat(created.outcome()).isEqualTo(KeyCache.Outcome.CREATED);
    assertThat(created.file()).isEqualTo(cache.resolve(KeyCache.fileName(circuit.params())));
    KeyCache.Entry loaded = KeyCache.loadOrCreate(cache, circuit, 6);
    assertThat(loaded.outcome()).isEqualTo(KeyCache.Outcome.LOADED);
    assertThat(loaded.keys().pk()).isEqualTo(created.keys().pk());
    assertThat(loaded.keys().vk()).isEqualTo(created.keys().vk());
    corrupt(created.file());
    KeyCache.Entry replaced = KeyCache.loadOrCreate(cache, circuit, 5);
    assertThat(replaced.outcome()).isEqualTo(KeyCache.Outcome.REPLACED_INVALID);
    assertThat(replaced.keys().vk()).isEqualTo(created.keys().vk()); // same setup seed, same keys
    assertThat(cache.resolve(KeyCache.fileName(circuit.params()) + ".invalid")).exists();
    assertThat(KeyFile.read(replaced.file(), circuit).vk()).isEqualTo(created.keys().vk());
    // another circuit gets its own file
    Circuit other = Circuit.synthetic(4, 1, 17);
    assertThat(KeyCache.loadOrCreate(cache, other, 5).file()).isNotEqualTo(created.file());
  }

  private static void corrupt(Path file) throws IOException {
    byte[] b = Files.readAllBytes(file);
    b[b.length / 2] ^= 0x10;
    Files.write(file, b);
  }
}
