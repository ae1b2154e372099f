/**
 * The BLS12-381 scalar field F_r (r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001) and NTTs
 * over it, for the Groth16 prover.
 *
 * <p>Representation conventions:
 *
 * <ul>
 *   <li><b>Limbs.</b> An element is four 64-bit limbs, least significant first (little-endian limb order); a limb is
 *       an unsigned 64-bit value held in a {@code long}.
 *   <li><b>Montgomery form.</b> Stored limbs are x·R mod r with R = 2^256, always fully reduced (in [0, r)), so each
 *       element has exactly one representation and equality compares limbs. Only the conversions ({@code
 *       fromBigInteger}, {@code fromLong}, {@code fromLittleEndianBytes}, {@code fromCanonicalLimbs} and their
 *       inverses) see canonical values; canonical byte encodings are 32 bytes little-endian, the layout blst takes
 *       for scalars.
 *   <li><b>Vectors.</b> A vector of n elements is a {@code long[4n]}; element i occupies limbs [4i, 4i+4). The
 *       static operations of {@link dev.interlock.prover.field.Fr} take (array, element index) pairs, so hot
 *       loops run over flat arrays without allocating; outputs may alias inputs.
 *   <li><b>Values.</b> {@link dev.interlock.prover.field.FrElement} is an immutable single element for setup
 *       code and tests; {@code read}/{@code writeTo} move elements between it and vectors.
 *   <li><b>Domains.</b> {@link dev.interlock.prover.field.Domain} derives roots of unity from the generator 7
 *       (omega_{2^32} = 7^((r-1)/2^32)) and uses 7 as the coset shift; {@link
 *       dev.interlock.prover.field.Ntt} transforms vectors of 2^k elements in place, natural order in and out.
 * </ul>
 */
package dev.interlock.prover.field;
