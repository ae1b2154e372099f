/**
 * The BLS12-381 curve layer of the Groth16 prover: immutable group elements, pairing checks and
 * multi-scalar multiplication, on top of the blst library (through the jblst JNI binding).
 *
 * <p>Conventions:
 *
 * <ul>
 *   <li><b>Immutability.</b> {@link dev.interlock.prover.curve.G1}, {@link
 *       dev.interlock.prover.curve.G2} (whose group law is written once, in {@link
 *       dev.interlock.prover.curve.CurvePoint}), {@link dev.interlock.prover.curve.G1Bases} and
 *       {@link dev.interlock.prover.curve.G2Bases} are immutable and safe to share between
 *       threads. The blst objects inside them are never handed out: in the SWIG binding {@code
 *       add}, {@code mult}, {@code dbl}, {@code neg}, {@code cneg} (and {@code PT.mul}, {@code
 *       PT.sqr}, {@code PT.final_exp}) <em>mutate the receiver</em> and return it, so every
 *       operation here works on a {@code dup()} (or on a fresh object it owns) and never mutates a
 *       point once it is wrapped.
 *   <li><b>Scalars</b> are elements of F_r, r = {@link dev.interlock.prover.curve.Scalars#R}
 *       (255 bits), in canonical (not Montgomery) form. One scalar is 32 little-endian bytes, or 4
 *       little-endian 64-bit limbs; a vector of n scalars is a flat {@code byte[32 n]} (scalar i at
 *       bytes [32i, 32i+32)) or {@code long[4 n]} (scalar i at limbs [4i, 4i+4)). Byte and limb
 *       inputs must be canonical, i.e. below r: a value at or above r is rejected with {@link
 *       java.lang.IllegalArgumentException} (it would mean the caller passed a non-reduced or
 *       wrongly encoded value). {@link java.math.BigInteger} scalars are reduced mod r instead
 *       (negative values included), for convenience in arithmetic code and tests.
 *   <li><b>Validation.</b> Every G1/G2 value is in the prime-order subgroup: values come only from
 *       the generator, the identity, group operations, and {@code deserialize}, which accepts only
 *       the canonical compressed encoding (48 bytes for G1, 96 for G2, ZCash/IETF flag bits) and
 *       checks that the point is on the curve and in the subgroup. Points are therefore not
 *       re-validated by MSM or pairing.
 *   <li><b>Equality</b> is by canonical compressed serialization (which is what {@code hashCode}
 *       hashes); the identity serializes as {@code 0xc0} followed by zeros.
 *   <li><b>MSM</b> ({@link dev.interlock.prover.curve.Msm}) is Pippenger's bucket method with
 *       signed digits over affine bases (mixed additions), parallel across windows for large
 *       inputs; the result does not depend on the window size or on parallelism.
 * </ul>
 */
package dev.interlock.prover.curve;
