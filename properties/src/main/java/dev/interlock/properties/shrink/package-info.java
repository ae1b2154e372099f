/**
 * Shrinking a violating schedule of the model, as {@code check --random} finds them: fewer
 * threads per role, then fewer jobs, then a shorter schedule through the engine's
 * {@link dev.interlock.properties.engine.Shrinker}, keeping the violation's kind at every stage.
 *
 * <p>Every candidate is run on the {@link dev.interlock.model.state.Model}, which alone decides
 * what a step does; the result is a trace the model recorded, so it replays.
 */
package dev.interlock.properties.shrink;
