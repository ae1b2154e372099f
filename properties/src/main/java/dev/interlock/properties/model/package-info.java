/**
 * Generators of the model's inputs for property tests: designs and schedules.
 *
 * <p>Every generator builds its value only from choices drawn from a
 * {@link dev.interlock.properties.engine.Source}, with the simplest value at choice 0, so the
 * engine can shrink a failing design or schedule by shrinking its choices.
 */
package dev.interlock.properties.model;
