package dev.interlock.prover.curve;

import java.math.BigInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * blst's operations on the points of one group, G1 (jblst's P1 over F_p) or G2 (P2 over F_p^2): what {@link
 * CurvePoint} and {@link Pippenger} need, as jblst's methods, so that the group law around them is written once, as
 * the CUDA side writes it once over Fp and Fp2. The mutating operations ({@code add}, {@code addAffine}, {@code neg},
 * {@code dbl}, {@code mult}) mutate their first argument, as jblst's do.
 *
 * <p>There are exactly two, {@link G1#OPS} and {@link G2#OPS}, each a static final record: a call site that sees one
 * of them folds its components (records' fields are trusted finals) to direct calls, and one that sees both is
 * bimorphic, which C2 still inlines; a third would make the shared call sites megamorphic.
 *
 * @param <P> the immutable group element (G1 or G2)
 * @param <J> jblst's Jacobian point (P1 or P2), mutable
 * @param <A> jblst's affine point (P1_Affine or P2_Affine)
 * @param name the group's name in messages, "G1" or "G2"
 * @param compressedBytes bytes of the compressed encoding
 * @param wrap takes ownership of a Jacobian point as a group element
 * @param identityElement the shared identity element
 * @param infinity a fresh point at infinity
 * @param copy a fresh copy
 * @param add acc += b
 * @param addAffine acc += a (mixed addition)
 * @param neg acc = -acc
 * @param dbl acc = 2 acc
 * @param mult acc = k acc, for k in [0, r)
 * @param isInf whether a Jacobian point is the point at infinity
 * @param toAffine the affine form (one inversion)
 * @param toJacobian a fresh Jacobian point with Z = 1
 * @param decode parses a compressed encoding (throws on a bad one; no subgroup check)
 * @param onCurve whether an affine point lies on the curve
 * @param inGroup whether an affine point lies in the order-r subgroup
 * @param compress the compressed encoding
 */
record PointOps<P extends CurvePoint<P, J, A>, J, A>(
    String name,
    int compressedBytes,
    Function<J, P> wrap,
    Supplier<P> identityElement,
    Supplier<J> infinity,
    UnaryOperator<J> copy,
    BiConsumer<J, J> add,
    BiConsumer<J, A> addAffine,
    Consumer<J> neg,
    Consumer<J> dbl,
    BiConsumer<J, BigInteger> mult,
    Predicate<J> isInf,
    Function<J, A> toAffine,
    Function<A, J> toJacobian,
    Function<byte[], A> decode,
    Predicate<A> onCurve,
    Predicate<A> inGroup,
    Function<A, byte[]> compress) {}
