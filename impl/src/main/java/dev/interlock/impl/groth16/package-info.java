/**
 * A Groth16 prover and verifier over BLS12-381, split into the stages of a GPU proving engine (cuzk-style), on top of
 * the field ({@link dev.interlock.impl.groth16.field}) and curve ({@link dev.interlock.impl.groth16.curve}) layers.
 *
 * <p>Pieces:
 *
 * <ul>
 *   <li>{@link dev.interlock.impl.groth16.Circuit}: a synthetic R1CS family with exactly 2^logN constraints and
 *       real-circuit-like densities, and its {@link dev.interlock.impl.groth16.Witness}es.
 *   <li>{@link dev.interlock.impl.groth16.Setup}: keys ({@link dev.interlock.impl.groth16.ProvingKey}, {@link
 *       dev.interlock.impl.groth16.VerifyingKey}) from random toxic waste; {@link dev.interlock.impl.groth16.KeyFile}
 *       stores them (documented binary format, checksum, atomic writes), {@link dev.interlock.impl.groth16.KeyCache}
 *       reuses stored keys.
 *   <li>{@link dev.interlock.impl.groth16.Prover}: the stages synthesize → ntt_h → msm → b_g2_msm → epilogue; ntt_h
 *       and msm take a backend ({@link dev.interlock.impl.groth16.NttBackend}, {@link
 *       dev.interlock.impl.groth16.MsmBackend}) so an engine's device can run them; {@link
 *       dev.interlock.impl.groth16.PartitionSizes} says how much device memory a partition needs.
 *   <li>{@link dev.interlock.impl.groth16.Verifier} checks a {@link dev.interlock.impl.groth16.Proof} with one pairing
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
package dev.interlock.impl.groth16;
