#!/usr/bin/env bash
# Builds capture/target/jbundle: gpu-bundle's runtime and the CLI's jars without the test and Lincheck jars (37 MiB), so
# that it, the capture library and the checkout fit the device tool's 64 MiB carry together (capture/gpu-java-runs.sh).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
[ -x gpu-bundle/jre/bin/java ] || bash gpu/bundle.sh
dest=capture/target/jbundle
rm -rf "$dest" && mkdir -p "$dest/lib"
cp -r gpu-bundle/jre gpu-bundle/interlock "$dest/"
for j in gpu-bundle/lib/*.jar; do
  case "$(basename "$j")" in
    *-tests.jar|lincheck*|kotlin*|byte-buddy*|asm*|atomicfu*|Java-WebSocket*|annotations-*|junit-platform*|assertj*|slf4j*) ;;
    *) cp "$j" "$dest/lib/" ;;
  esac
done
du -sh "$dest"
