/**
 * A Groth16 prover and verifier over BLS12-381, split into the stages of a GPU proving engine (cuzk-style), on top of
 * the field ({@link dev.interlock.prover.field}) and curve ({@link dev.interlock.prover.curve}) layers.
 *
 * <p>Pieces:
 *
 * <ul>
 *   <li>{@link dev.interlock.prover.Circuit}: a synthetic R1CS family with exactly 2^logN constraints and
 *       real-circuit-like densities, and its {@link dev.interlock.prover.Witness}es.
 *   <li>{@link dev.interlock.prover.Setup}: keys ({@link dev.interlock.prover.ProvingKey}, {@link
 *       dev.interlock.prover.VerifyingKey}) from random toxic waste; {@link dev.interlock.prover.KeyFile}
 *       stores them (documented binary format, checksum, atomic writes), {@link dev.interlock.prover.KeyCache}
 *       reuses stored keys.
 *   <li>{@link dev.interlock.prover.Prover}: the stages synthesize → ntt_h → msm → b_g2_msm → epilogue; an engine
 *       runs ntt_h and msm on its device instead (the workload module); {@link
 *       dev.interlock.prover.PartitionSizes} says how much device memory a partition needs.
 *   <li>{@link dev.interlock.prover.Verifier} checks a {@link dev.interlock.prover.Proof} with one pairing
 *       product.
 * </ul>
 *
 * <p>Conventions: Fr vectors are {@code long[]} in Montgomery form, element i at limbs [4i, 4i+4) (as in the field
 * package); MSM scalars are canonical limbs (as in the curve package), converted once per proof. Variable 0 is the
 * constant one, variables 1..p the public inputs. The NTT domain is H = {ω^i} of size N with the coset 7·H. Every
 * random choice comes from a caller-supplied {@link java.util.random.RandomGenerator}, so seeded runs are
 * reproducible; parallel work (streams on the common pool) never changes a result. Arrays handed across stage
 * boundaries are shared, not copied, and must be treated as read-only unless a method says it consumes them.
 */
package dev.interlock.prover;
