/**
 * The {@code interlock} command line: {@code check}, {@code replay} and {@code bench}.
 *
 * <p>Conventions: exit 0 SAFE (or nothing found), 1 violation (or a diverging replay), 2 bad input
 * or a resource limit. Bad input is reported as one line, {@code FILE:LINE:COL: message} where
 * there is a position, never as a stack trace; with {@code --json} it is {@code {"error": ...}}.
 */
package dev.interlock.cli;
