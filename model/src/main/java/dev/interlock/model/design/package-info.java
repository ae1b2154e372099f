/**
 * Lock designs: the parsed form of a {@code .design} file, its parser and its printer.
 *
 * <p>A {@link dev.interlock.model.design.Design} is immutable and validated on construction; the
 * parser reports every static error as {@code FILE:LINE:COL: message} through
 * {@link dev.interlock.model.design.DesignException}, and {@code parse(print(d)).equals(d)} holds.
 */
package dev.interlock.model.design;
