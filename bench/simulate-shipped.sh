#!/usr/bin/env bash
# Simulates every shipped design at 1-8 workers in one JVM and prints each one's time and the total (issue 37: under
# 5 s in all on 2 cores). Builds the CLI's jar first when it is missing.
#   bash bench/simulate-shipped.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
jar=cli/target/interlock-cli-0.1.0-SNAPSHOT-all.jar
[ -f "$jar" ] || ./interlock --version >/dev/null
echo "# $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F); $(git rev-parse --short HEAD)"
java -cp "$jar" bench/SimulateShipped.java
