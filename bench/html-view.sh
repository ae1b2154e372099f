#!/usr/bin/env bash
# Benchmark of the HTML trace view in headless chromium, on both axes:
#   time axis:   `run designs/single-lock.design --threads gpu_worker=THREADS --jobs gpu_worker=JOBS --html`
#   column axis: `show` of the trace of such a run (one column per transition; bench/LongTrace.java prints it)
# For each page, 3 loads: the file size, the SVG elements drawn, and the milliseconds from navigation start until the
# page has drawn its view into the DOM and laid it out (drawn), and until the frame after that (painted). The page
# records both with performance.now(); bench/page-timing.py loads it on real time over the DevTools pipe and waits for
# the page's own "painted" attribute (no --virtual-time-budget: under it performance.now() is virtual time while the
# page waits for a frame). Usage (docs/benchmarks.md):
#   bash bench/html-view.sh [THREADS JOBS]    (default 10 72: 720 jobs of single-lock, 10,080 transitions)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
threads="${1:-10}"
jobs="${2:-72}"
browser="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
if [ -z "$browser" ]; then
  echo "html-view.sh: needs chromium (apt-get install chromium)" >&2
  exit 2
fi
command -v python3 >/dev/null || { echo "html-view.sh: needs python3 (bench/page-timing.py)" >&2; exit 2; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cd "$root"
"$root/interlock" run designs/single-lock.design --threads gpu_worker="$threads" --jobs gpu_worker="$jobs" \
  --html "$dir/time.html" | grep -E '^(ran|events)'
java -cp "$root/cli/target/interlock-cli-0.1.0-SNAPSHOT-all.jar" bench/LongTrace.java designs/single-lock.design \
  gpu_worker "$threads" "$jobs" >"$dir/run.trace"
"$root/interlock" show "$dir/run.trace" --html "$dir/column.html" >/dev/null
echo "trace     $(grep -c '^ *[0-9]' "$dir/run.trace") transitions"
for axis in time column; do
  page="$dir/$axis.html"
  echo "$axis axis: file $(stat -c %s "$page") bytes"
  for i in 1 2 3; do
    read -r _ drawn _ painted _ elements _ canvases < <(python3 bench/page-timing.py "$browser" "$page" "$dir/profile-$axis-$i")
    echo "  load $i  drawn ${drawn} ms, painted ${painted} ms, ${elements} svg elements, ${canvases} canvases (goal: under 2000 ms)"
  done
done
