#!/usr/bin/env bash
# The cuzk corpus at scale: every designs/cuzk design checked as a user would (`interlock check DESIGN --threads
# gpu_worker=N`, default limits, JVM start included) at N = 3 and 4 workers (each design's jobs: 2), with partial-order
# reduction on, and off (the search before issue 36) in the same run. Prints per row the verdict, the counterexample's
# length, the thread count it needs, the states searched, wall seconds and peak RSS (MiB). A row past LIMIT_S seconds is
# a DNF row.
# Usage: bash bench/cuzk-scale.sh
# Environment: SIZES (default "3 4"), DESIGNS (default every designs/cuzk/*.design), LIMIT_S (default 60),
#              NO_POR (default "3": the sizes searched without POR too; "" for none).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
sizes="${SIZES:-3 4}"
limit_s="${LIMIT_S:-60}"
no_por="${NO_POR-3}"
designs="${DESIGNS:-$(ls designs/cuzk/*.design)}"
./interlock check designs/single-lock.design >/dev/null # builds the CLI once, outside the timings
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "# cuzk corpus, N workers x 2 jobs, default limits; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $(date -u +%F)"
printf '%-26s %-2s %-4s %-14s %6s %8s %12s %8s %8s\n' design N por verdict length threads states wall_s rss_mib
for d in $designs; do
  for n in $sizes; do
    for por in on off; do
      if [ "$por" = off ] && ! [[ " $no_por " == *" $n "* ]]; then
        continue
      fi
      flags=(--threads "gpu_worker=$n" --json)
      [ "$por" = off ] && flags+=(--no-por)
      set +e
      /usr/bin/time -f '%e %M' -o "$tmp/time" timeout "$limit_s" ./interlock check "$d" "${flags[@]}" >"$tmp/json" 2>/dev/null
      rc=$?
      set -e
      if [ "$rc" = 124 ]; then
        printf '%-26s %-2s %-4s %-14s %6s %8s %12s %8s %8s\n' "$(basename "$d")" "$n" "$por" "DNF" - - - ">$limit_s" -
        continue
      fi
      python3 - "$d" "$n" "$por" "$tmp/json" "$tmp/time" <<'PY'
import json, sys
d, n, por, jf, tf = sys.argv[1:]
j = json.load(open(jf))
wall, rss = open(tf).read().split()[-2:]
threads = ",".join(str(v) for v in j["threads"].values())
print(f"{d.split('/')[-1]:26s} {n:2s} {por:4s} {j['verdict']:14s} {j['length']:6d} {threads:>8s} {j['searched_states']:12d} {float(wall):8.2f} {int(rss) // 1024:8d}")
PY
    done
  done
done
