/**
 * JSON of check results, written by Jackson as one compact line with keys in the order they were put: the one writer
 * of a check report's JSON, for {@code interlock check --json} and the Maven plugin's report files alike.
 *
 * <p>Keys are snake_case; seconds have six plain decimals. The fields are documented in docs/cli.md (JSON output) and
 * docs/maven-plugin.md.
 */
package dev.interlock.view.json;
