/**
 * Pipelines: the interpreter that runs any design's role body on the engine, and hand-written
 * pipelines written the way a proving engine is written, whose traces must equal the interpreter's
 * on their design files.
 */
package dev.interlock.impl.pipeline;
