package dev.interlock.prover;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * A directory of key files, one per circuit: {@link #loadOrCreate} reuses a valid file and otherwise runs the setup
 * and writes one. Safe against concurrent creators (the first file written wins; the others read it).
 */
public final class KeyCache {
  private static final System.Logger LOG = System.getLogger(KeyCache.class.getName());

  /** How {@link #loadOrCreate} obtained the keys. */
  public enum Outcome {
    /** A valid file was read. */
    LOADED,
    /** No file existed; keys were generated and written. */
    CREATED,
    /** The file was invalid; it was renamed to {@code <name>.invalid} and fresh keys were written. */
    REPLACED_INVALID
  }

  /** The keys, the file that holds them, and how they were obtained. */
  public record Entry(Keys keys, Path file, Outcome outcome) {}

  private KeyCache() {}

  /**
   * The file name for a circuit: {@code groth16-bls12381-n<logN>-p<publicInputs>-s<structureSeed hex>.key}, with
   * {@code -filecoin<fullScalarsPpm>} before {@code .key} for a Filecoin-like witness.
   */
  public static String fileName(Circuit.Params params) {
    WitnessShape w = params.witness();
    return "groth16-bls12381-n" + params.logN() + "-p" + params.publicInputs() + "-s"
        + Long.toHexString(params.structureSeed())
        + (w.equals(WitnessShape.FIELD) ? "" : "-" + w.kind().name().toLowerCase(java.util.Locale.ROOT) + w.fullScalarsPpm())
        + ".key";
  }

  /**
   * The keys for circuit from dir: read when the file is valid (any setup seed: a valid key is a valid key), else
   * generated with {@code new SplittableRandom(setupSeed)} and written. An invalid existing file is kept as
   * {@code <name>.invalid} (replacing an older one) and logged, never silently lost.
   */
  public static Entry loadOrCreate(Path dir, Circuit circuit, long setupSeed) throws KeyFileException {
    return loadOrCreate(dir, circuit, setupSeed, G1FixedBase.CPU);
  }

  /** {@link #loadOrCreate(Path, Circuit, long)}, generating with the G1 fixed-base multiplications of {@code g1}. */
  public static Entry loadOrCreate(Path dir, Circuit circuit, long setupSeed, G1FixedBase g1) throws KeyFileException {
    Objects.requireNonNull(dir, "dir");
    Objects.requireNonNull(circuit, "circuit");
    Path file = dir.resolve(fileName(circuit.params()));
    Outcome outcome = Outcome.CREATED;
    if (Files.exists(file)) {
      try {
        return new Entry(KeyFile.read(file, circuit), file, Outcome.LOADED);
      } catch (KeyFileException e) {
        LOG.log(Level.WARNING, "invalid key file, regenerating: " + e.getMessage());
        Path aside = file.resolveSibling(file.getFileName() + ".invalid");
        try {
          Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException io) {
          throw new KeyFileException(file, "invalid (" + e.getMessage() + ") and cannot be moved aside: " + io, io);
        }
        outcome = Outcome.REPLACED_INVALID;
      }
    }
    Keys keys = Setup.generate(circuit, new SplittableRandom(setupSeed), g1);
    try {
      KeyFile.writeNew(file, keys);
    } catch (KeyFileException e) {
      if (e.getCause() instanceof FileAlreadyExistsException) {
        return new Entry(KeyFile.read(file, circuit), file, Outcome.LOADED); // a concurrent creator won
      }
      throw e;
    }
    return new Entry(keys, file, outcome);
  }
}
