/**
 * Fuzzing of the file readers: inputs mutated from the real files ({@link dev.interlock.properties.fuzz.Mutations}),
 * read under a timeout ({@link dev.interlock.properties.fuzz.Fuzzer}) by the property engine, which shrinks a crash
 * and prints its seed; the only outcomes allowed are a value and the reader's positioned error.
 */
package dev.interlock.properties.fuzz;
