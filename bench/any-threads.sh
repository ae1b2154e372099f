#!/usr/bin/env bash
# `check --threads ROLE=any` on every shipped design (designs/*.design and designs/cuzk/*.design), as a user runs it
# (default limits and --bounded-up-to 6, each design's jobs, JVM start included); ROLE is the design's first role. Prints
# per design the verdict, the method that decided every number (coverability, isolation, or - when neither applies),
# the fewest threads of ROLE that violate (- when SAFE or UNKNOWN), how many upward-closed kinds are safe for every
# number, the states of the analysis (local states for coverability, states of one worker alone for isolation), the
# bounded search's configurations, wall seconds and peak RSS (MiB). A row past LIMIT_S seconds is a DNF row.
# Usage: bash bench/any-threads.sh
# Environment: DESIGNS (default every shipped design), LIMIT_S (default 60).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
limit_s="${LIMIT_S:-60}"
designs="${DESIGNS:-$(ls designs/*.design designs/cuzk/*.design)}"
./interlock check designs/single-lock.design >/dev/null # builds the CLI once, outside the timings
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# --threads ROLE=any on the shipped designs, --bounded-up-to 6; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"
printf '%-34s %-12s %-14s %-12s %7s %6s %8s %7s %8s %8s\n' design role verdict method fewest safe_n analysis bounded wall_s rss_mib
for d in $designs; do
  role=$(grep -m1 -E '^role ' "$d" | awk '{print $2}')
  set +e
  /usr/bin/time -f '%e %M' -o "$tmp/time" timeout "$limit_s" ./interlock check "$d" --threads "$role=any" --json \
    >"$tmp/json" 2>/dev/null
  rc=$?
  set -e
  name=${d#designs/}
  if [ "$rc" = 124 ]; then
    printf '%-34s %-12s %-14s %-12s %7s %6s %8s %7s %8s %8s\n' "$name" "$role" DNF - - - - - ">$limit_s" -
    continue
  fi
  python3 - "$name" "$role" "$tmp/json" "$tmp/time" <<'PY'
import json, sys
name, role, jf, tf = sys.argv[1:]
j = json.load(open(jf))
wall, rss = open(tf).read().split()[-2:]
method = j.get("parameterized_method") or "-"
analysis = j.get("isolation_states") if method == "isolation" else j.get("coverability_local_states")
fewest = str(j["threads"][role]) if j["verdict"] not in ("SAFE", "UNKNOWN", "LIMIT") else "-"
print(f"{name:34s} {role:12s} {j['verdict']:14s} {method:12s} {fewest:>7s} {len(j['safe_for_all_n']):6d} "
      f"{str(analysis if analysis is not None else '-'):>8s} {j['bounded_configurations']:7d} {float(wall):8.2f} {int(rss) // 1024:8d}")
PY
done
