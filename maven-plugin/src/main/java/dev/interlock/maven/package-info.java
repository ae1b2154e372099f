/**
 * The Maven plugin's goals {@code interlock:check} and {@code interlock:fidelity}:
 * {@link dev.interlock.maven.CheckMojo} maps Maven's parameters onto {@link dev.interlock.maven.CheckSettings} and
 * {@link dev.interlock.maven.DesignsCheck} does the work without Maven types, so that it is tested on temporary
 * directories; likewise {@link dev.interlock.maven.FidelityMojo}, {@link dev.interlock.maven.FidelitySettings} and
 * {@link dev.interlock.maven.DesignsFidelity}, whose comparison is the fidelity library's.
 *
 * <p>Whether a design meets its expectation is decided in the model ({@code dev.interlock.model.expect}), and its
 * report is written by the shared JSON and HTML writers of the view module: the plugin only finds the files, applies
 * the overrides, logs and fails the build. Bad input is a {@link dev.interlock.maven.PluginInputException}, its
 * message {@code FILE:LINE:COL: message} where there is a position.
 */
package dev.interlock.maven;
