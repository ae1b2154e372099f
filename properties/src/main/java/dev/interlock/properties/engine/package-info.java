/**
 * A small property-based testing engine with integrated shrinking over recorded choice sequences.
 *
 * <p>Conventions:
 *
 * <ul>
 *   <li>A {@link dev.interlock.properties.engine.Gen} builds a value only from the choices it asks
 *       a {@link dev.interlock.properties.engine.Source} for; it must be a deterministic function
 *       of those choices (no own randomness, clock or mutable shared state), so that replaying the
 *       recorded choices rebuilds the same value.
 *   <li>Each choice is an {@code int} in {@code [0, max]}, and 0 is always the simplest choice:
 *       generators encode values so that smaller choices mean simpler values (lower integers,
 *       {@code false}, the first alternative, "no more elements").
 *   <li>Shrinking works on the choice sequence, not on values: a sequence is simpler when it is
 *       shortlex-smaller ({@link dev.interlock.properties.engine.Shortlex}), and every candidate is
 *       normalized to what the generator actually consumed on replay, so shrunk values always are
 *       values the generator can produce.
 *   <li>A case the generator cannot build ({@link dev.interlock.properties.engine.Overrun},
 *       {@link dev.interlock.properties.engine.Unsatisfiable}) is invalid: it neither passes nor
 *       fails.
 *   <li>Runs are deterministic: the run seed comes from {@code -Dinterlock.seed} when set, else
 *       from the property name; try {@code i} derives its own seed from (run seed, {@code i}), so
 *       the run seed alone reproduces a failure.
 *   <li>Results are immutable records validated in their compact constructors; arrays are copied
 *       in and out.
 * </ul>
 *
 * <p>Typical use in a JUnit test:
 *
 * <pre>{@code
 * Gen<List<Integer>> sizes = Gen.lists(Gen.ints(0, 64), 1, 20);
 * PropertyRunner.assertHolds("total fits", sizes, xs -> total(xs) <= 64 * 20);
 * }</pre>
 */
package dev.interlock.properties.engine;
