package dev.interlock.prover;

import dev.interlock.prover.curve.G1;
import dev.interlock.prover.curve.G2;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestOutputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.stream.IntStream;

/**
 * Reads and writes a proving key with its verifying key in one binary file.
 *
 * <p>Format, versions 1 and 2 (all integers big-endian; points in their canonical compressed encodings, G1 48 bytes, G2
 * 96 bytes, as {@link G1#serialize()}/{@link G2#serialize()} write them). Version 1 is written for circuits with a
 * {@link WitnessShape#FIELD} witness (so the files of older builds stay valid), version 2 for the others: the same
 * layout with the witness shape inserted after structureSeed, every later offset moved by {@value #SHAPE_BYTES}
 * bytes. Version 1:
 *
 * <pre>
 *   offset  size         field
 *   0       8            magic "ILG16KEY" (ASCII)
 *   8       4            format version = 1
 *   12      4            logN            \
 *   16      4            publicInputs p   } the circuit parameters ({@link Circuit.Params})
 *   20      8            structureSeed   /
 *           (version 2 inserts 4 bytes witness kind, 0 field or 1 filecoin, and 4 bytes fullScalarsPpm here)
 *   28      4            m    (variables; a, b_g1, b_g2 query length)
 *   32      4            hLen (h_query length, N-1)
 *   36      4            lLen (l_query length, m-p-1)
 *   40      4            icLen (verifying key ic length, p+1)
 *   44      48           alpha_g1   (shared by pk and vk)
 *   92      48           beta_g1
 *   140     96           beta_g2    (shared by pk and vk)
 *   236     48           delta_g1
 *   284     96           delta_g2   (shared by pk and vk)
 *   380     96           gamma_g2   (vk only)
 *   476     48·m         a_query
 *           48·m         b_g1_query
 *           96·m         b_g2_query
 *           48·hLen      h_query
 *           48·lLen      l_query
 *           48·icLen     ic
 *           32           SHA-256 of every byte before it
 * </pre>
 *
 * <p>Reading checks, in order: the magic, the version, the header (parameters in range, counts as the parameters
 * imply), the file length against the header (truncated / trailing bytes), the checksum, that the parameters are the
 * expected circuit's, and every point's encoding (on the curve, in the subgroup, canonical). Each failure is a
 * {@link KeyFileException} naming the file and the problem. Writing goes to a temporary file in the same directory,
 * forced to disk, then moved into place: {@link #write} replaces an existing file atomically, {@link #writeNew}
 * refuses to replace one.
 */
public final class KeyFile {
  /** The magic bytes at offset 0. */
  public static final byte[] MAGIC = "ILG16KEY".getBytes(StandardCharsets.US_ASCII);
  /** The format version written for circuits with a field witness (and read). */
  public static final int VERSION = 1;
  /** The format version written for circuits with any other witness shape (and read). */
  public static final int VERSION_WITH_SHAPE = 2;
  /** Bytes before the first point, version 1. */
  static final int HEADER_BYTES = 44;
  /** Bytes version 2 adds to the header: the witness shape. */
  static final int SHAPE_BYTES = 8;
  /** Bytes of the trailing checksum. */
  static final int CHECKSUM_BYTES = 32;
  private static final int CHUNK = 1 << 14;

  private KeyFile() {}

  /** The exact size of a key file for a circuit with these parameters. */
  public static long fileSize(Circuit.Params params) {
    long m = ProvingKey.numVariables(params);
    long n = 1L << params.logN();
    return size(headerBytes(params.witness()), m, n - 1, m - params.publicInputs() - 1, params.publicInputs() + 1);
  }

  /** The header's bytes for a circuit with this witness shape. */
  static int headerBytes(WitnessShape shape) {
    return shape.equals(WitnessShape.FIELD) ? HEADER_BYTES : HEADER_BYTES + SHAPE_BYTES;
  }

  private static long size(int header, long m, long h, long l, long ic) {
    return header + 3L * G1.COMPRESSED_BYTES + 3L * G2.COMPRESSED_BYTES
        + (long) G1.COMPRESSED_BYTES * (2 * m + h + l + ic) + (long) G2.COMPRESSED_BYTES * m + CHECKSUM_BYTES;
  }

  // ---------------------------------------------------------------- writing

  /** Writes the keys to file, atomically replacing any existing file. */
  public static void write(Path file, Keys keys) throws KeyFileException {
    writeAtomically(file, keys, true);
  }

  /** Writes the keys to a new file; fails (KeyFileException caused by FileAlreadyExistsException) if it exists. */
  public static void writeNew(Path file, Keys keys) throws KeyFileException {
    writeAtomically(file, keys, false);
  }

  private static void writeAtomically(Path file, Keys keys, boolean replace) throws KeyFileException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(keys, "keys");
    Path abs = file.toAbsolutePath();
    Path dir = abs.getParent();
    if (!replace && Files.exists(abs)) {
      throw new KeyFileException(file, "file exists; refusing to overwrite it", new FileAlreadyExistsException(
          file.toString()));
    }
    Path tmp = null;
    try {
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, abs.getFileName().toString() + ".", ".tmp");
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        OutputStream raw = java.nio.channels.Channels.newOutputStream(ch);
        MessageDigest sha = sha256();
        DigestOutputStream hashing = new DigestOutputStream(new BufferedOutputStream(raw, 1 << 16), sha);
        DataOutputStream out = new DataOutputStream(hashing);
        writeBody(out, keys);
        hashing.on(false); // the checksum covers everything before it
        out.write(sha.digest());
        out.flush();
        ch.force(true);
      }
      if (replace) {
        Files.move(tmp, abs, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } else {
        try {
          Files.createLink(abs, tmp); // atomic, and fails if the target exists
        } catch (UnsupportedOperationException e) {
          Files.move(tmp, abs); // no hard links here: not atomic against a concurrent writer, but never replaces
          tmp = null;
        }
      }
    } catch (FileAlreadyExistsException e) {
      throw new KeyFileException(file, "file exists; refusing to overwrite it", e);
    } catch (IOException e) {
      throw new KeyFileException(file, "cannot write key file: " + e, e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException e) {
          // best effort: a stray temporary file is harmless
        }
      }
    }
  }

  private static void writeBody(DataOutputStream out, Keys keys) throws IOException {
    ProvingKey pk = keys.pk();
    VerifyingKey vk = keys.vk();
    Circuit.Params params = pk.params();
    boolean field = params.witness().equals(WitnessShape.FIELD);
    out.write(MAGIC);
    out.writeInt(field ? VERSION : VERSION_WITH_SHAPE);
    out.writeInt(params.logN());
    out.writeInt(params.publicInputs());
    out.writeLong(params.structureSeed());
    if (!field) {
      out.writeInt(params.witness().kind().ordinal());
      out.writeInt(params.witness().fullScalarsPpm());
    }
    out.writeInt(pk.aQuery().size());
    out.writeInt(pk.hQuery().size());
    out.writeInt(pk.lQuery().size());
    out.writeInt(vk.ic().size());
    out.write(pk.alphaG1().serialize());
    out.write(pk.betaG1().serialize());
    out.write(pk.betaG2().serialize());
    out.write(pk.deltaG1().serialize());
    out.write(pk.deltaG2().serialize());
    out.write(vk.gammaG2().serialize());
    writePoints(out, pk.aQuery().size(), i -> pk.aQuery().get(i).serialize());
    writePoints(out, pk.bG1Query().size(), i -> pk.bG1Query().get(i).serialize());
    writePoints(out, pk.bG2Query().size(), i -> pk.bG2Query().get(i).serialize());
    writePoints(out, pk.hQuery().size(), i -> pk.hQuery().get(i).serialize());
    writePoints(out, pk.lQuery().size(), i -> pk.lQuery().get(i).serialize());
    writePoints(out, vk.ic().size(), i -> vk.ic().get(i).serialize());
  }

  /** Serializes points chunk by chunk (in parallel within a chunk) and writes them in order. */
  private static void writePoints(DataOutputStream out, int count, IntFunction<byte[]> encode) throws IOException {
    for (int start = 0; start < count; start += CHUNK) {
      int end = Math.min(count, start + CHUNK);
      byte[][] enc = new byte[end - start][];
      int s0 = start;
      IntStream.range(start, end).parallel().forEach(i -> enc[i - s0] = encode.apply(i));
      for (byte[] e : enc) {
        out.write(e);
      }
    }
  }

  // ---------------------------------------------------------------- reading

  /** Reads and validates a key file that must be for {@code expected} (see the class doc for the checks). */
  public static Keys read(Path file, Circuit expected) throws KeyFileException {
    Objects.requireNonNull(expected, "expected");
    return read(file, expected.params());
  }

  /** Reads and validates a key file for whatever circuit its header names. */
  public static Keys read(Path file) throws KeyFileException {
    return read(file, (Circuit.Params) null);
  }

  private static Keys read(Path file, Circuit.Params expected) throws KeyFileException {
    Objects.requireNonNull(file, "file");
    long size;
    try {
      size = Files.size(file);
    } catch (java.nio.file.NoSuchFileException e) {
      throw new KeyFileException(file, "no such key file", e);
    } catch (IOException e) {
      throw new KeyFileException(file, "cannot read key file: " + e, e);
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      Header h = readHeader(file, ch, size);
      int header = headerBytes(h.params.witness());
      long expectedSize = size(header, h.m, h.hLen, h.lLen, h.icLen);
      if (size < expectedSize) {
        throw new KeyFileException(file, "truncated: the header declares " + expectedSize + " bytes, the file has "
            + size + " (or the header is corrupt)");
      }
      if (size > expectedSize) {
        throw new KeyFileException(file, (size - expectedSize) + " unexpected trailing bytes after the "
            + expectedSize + " the header declares (or the header is corrupt)");
      }
      verifyChecksum(file, ch, size);
      if (expected != null) {
        checkParams(file, h.params, expected);
      }
      ch.position(header);
      DataInputStream in = new DataInputStream(new BufferedInputStream(java.nio.channels.Channels.newInputStream(ch),
          1 << 16));
      G1 alphaG1 = readG1(file, in, "alpha_g1");
      G1 betaG1 = readG1(file, in, "beta_g1");
      G2 betaG2 = readG2(file, in, "beta_g2");
      G1 deltaG1 = readG1(file, in, "delta_g1");
      G2 deltaG2 = readG2(file, in, "delta_g2");
      G2 gammaG2 = readG2(file, in, "gamma_g2");
      List<G1> a = readPoints(file, in, "a_query", h.m, G1.COMPRESSED_BYTES, G1::deserialize);
      List<G1> bG1 = readPoints(file, in, "b_g1_query", h.m, G1.COMPRESSED_BYTES, G1::deserialize);
      List<G2> bG2 = readPoints(file, in, "b_g2_query", h.m, G2.COMPRESSED_BYTES, G2::deserialize);
      List<G1> hq = readPoints(file, in, "h_query", h.hLen, G1.COMPRESSED_BYTES, G1::deserialize);
      List<G1> lq = readPoints(file, in, "l_query", h.lLen, G1.COMPRESSED_BYTES, G1::deserialize);
      List<G1> ic = readPoints(file, in, "ic", h.icLen, G1.COMPRESSED_BYTES, G1::deserialize);
      ProvingKey pk = new ProvingKey(h.params, alphaG1, betaG1, betaG2, deltaG1, deltaG2, a, bG1, bG2, hq, lq);
      return new Keys(pk, new VerifyingKey(alphaG1, betaG2, gammaG2, deltaG2, ic));
    } catch (EOFException e) {
      throw new KeyFileException(file, "truncated while reading points", e);
    } catch (IOException e) {
      throw new KeyFileException(file, "cannot read key file: " + e, e);
    }
  }

  private record Header(Circuit.Params params, int m, int hLen, int lLen, int icLen) {}

  private static Header readHeader(Path file, FileChannel ch, long size) throws IOException, KeyFileException {
    if (size < MAGIC.length) {
      throw new KeyFileException(file, "truncated or not a Groth16 key file: only " + size + " bytes");
    }
    ByteBuffer buf = ByteBuffer.allocate((int) Math.min(size, HEADER_BYTES + SHAPE_BYTES));
    while (buf.hasRemaining() && ch.read(buf) >= 0) {
      // fill
    }
    buf.flip();
    byte[] magic = new byte[MAGIC.length];
    buf.get(magic);
    if (!Arrays.equals(magic, MAGIC)) {
      throw new KeyFileException(file, "not a Groth16 key file: bad magic bytes (expected \"ILG16KEY\")");
    }
    if (size < HEADER_BYTES + CHECKSUM_BYTES) {
      throw new KeyFileException(file, "truncated: " + size + " bytes is shorter than the header");
    }
    int version = buf.getInt();
    if (version != VERSION && version != VERSION_WITH_SHAPE) {
      throw new KeyFileException(file, "unsupported key file format version " + version + " (this build reads versions "
          + VERSION + " and " + VERSION_WITH_SHAPE + ")");
    }
    int logN = buf.getInt();
    int p = buf.getInt();
    long seed = buf.getLong();
    Circuit.Params params;
    try {
      WitnessShape shape = WitnessShape.FIELD;
      if (version == VERSION_WITH_SHAPE) {
        if (buf.remaining() < SHAPE_BYTES) {
          throw new KeyFileException(file, "truncated: " + size + " bytes is shorter than the header");
        }
        int kind = buf.getInt();
        int ppm = buf.getInt();
        if (kind < 0 || kind >= WitnessShape.Kind.values().length) {
          throw new IllegalArgumentException("witness kind " + kind + " is none of 0 (field), 1 (filecoin)");
        }
        shape = new WitnessShape(WitnessShape.Kind.values()[kind], ppm);
        if (shape.equals(WitnessShape.FIELD)) {
          throw new IllegalArgumentException("a version 2 header names the field witness, which version 1 stores");
        }
      }
      params = new Circuit.Params(logN, p, seed, shape);
    } catch (IllegalArgumentException e) {
      throw new KeyFileException(file, "corrupt header: " + e.getMessage(), e);
    }
    int m = buf.getInt();
    int hLen = buf.getInt();
    int lLen = buf.getInt();
    int icLen = buf.getInt();
    int em = ProvingKey.numVariables(params);
    int eh = (1 << logN) - 1;
    if (m != em || hLen != eh || lLen != em - p - 1 || icLen != p + 1) {
      throw new KeyFileException(file, "corrupt header: counts m=" + m + ", h=" + hLen + ", l=" + lLen + ", ic="
          + icLen + " do not fit " + params + " (expected " + em + ", " + eh + ", " + (em - p - 1) + ", " + (p + 1)
          + ")");
    }
    return new Header(params, m, hLen, lLen, icLen);
  }

  private static void verifyChecksum(Path file, FileChannel ch, long size) throws IOException, KeyFileException {
    MessageDigest sha = sha256();
    ch.position(0);
    ByteBuffer buf = ByteBuffer.allocate(1 << 16);
    long remaining = size - CHECKSUM_BYTES;
    while (remaining > 0) {
      buf.clear();
      if (remaining < buf.capacity()) {
        buf.limit((int) remaining);
      }
      int r = ch.read(buf);
      if (r < 0) {
        throw new KeyFileException(file, "truncated while computing the checksum");
      }
      buf.flip();
      sha.update(buf);
      remaining -= r;
    }
    ByteBuffer stored = ByteBuffer.allocate(CHECKSUM_BYTES);
    while (stored.hasRemaining()) {
      if (ch.read(stored) < 0) {
        throw new KeyFileException(file, "truncated checksum");
      }
    }
    if (!MessageDigest.isEqual(sha.digest(), stored.array())) {
      throw new KeyFileException(file, "checksum mismatch: file is corrupt");
    }
  }

  private static void checkParams(Path file, Circuit.Params got, Circuit.Params want) throws KeyFileException {
    if (got.logN() != want.logN()) {
      throw new KeyFileException(file, "key is for logN=" + got.logN() + ", circuit has logN=" + want.logN());
    }
    if (got.publicInputs() != want.publicInputs()) {
      throw new KeyFileException(file, "key is for publicInputs=" + got.publicInputs() + ", circuit has publicInputs="
          + want.publicInputs());
    }
    if (got.structureSeed() != want.structureSeed()) {
      throw new KeyFileException(file, "key is for structureSeed=" + got.structureSeed()
          + ", circuit has structureSeed=" + want.structureSeed());
    }
    if (!got.witness().equals(want.witness())) {
      throw new KeyFileException(file, "key is for a " + got.witness() + " witness, circuit has a " + want.witness()
          + " witness");
    }
  }

  private static G1 readG1(Path file, DataInputStream in, String name) throws IOException, KeyFileException {
    return readPoints(file, in, name, 1, G1.COMPRESSED_BYTES, G1::deserialize).get(0);
  }

  private static G2 readG2(Path file, DataInputStream in, String name) throws IOException, KeyFileException {
    return readPoints(file, in, name, 1, G2.COMPRESSED_BYTES, G2::deserialize).get(0);
  }

  /** Reads count points of width bytes each, decoding (and validating) each chunk in parallel. */
  private static <T> List<T> readPoints(Path file, DataInputStream in, String name, int count, int width,
      Function<byte[], T> decode) throws IOException, KeyFileException {
    List<T> out = new ArrayList<>(count);
    for (int start = 0; start < count; start += CHUNK) {
      int n = Math.min(CHUNK, count - start);
      byte[] bytes = new byte[n * width];
      in.readFully(bytes);
      Object[] decoded = new Object[n];
      String[] errors = new String[n];
      IntStream.range(0, n).parallel().forEach(i -> {
        try {
          decoded[i] = decode.apply(Arrays.copyOfRange(bytes, i * width, (i + 1) * width));
        } catch (IllegalArgumentException e) {
          errors[i] = e.getMessage();
        }
      });
      for (int i = 0; i < n; i++) {
        if (errors[i] != null) {
          String where = count == 1 ? name : name + "[" + (start + i) + "]";
          throw new KeyFileException(file, "bad point " + where + ": " + errors[i]);
        }
        @SuppressWarnings("unchecked")
        T t = (T) decoded[i];
        out.add(t);
      }
    }
    return out;
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }
}
