#!/usr/bin/env bash
# Benchmark of the HTML trace view: renders a run of about 10,000 transitions in headless chromium and prints the
# file size, the SVG element count and the milliseconds from navigation start until the page has drawn the view into
# the DOM (laid out) and until the next frame after that (painted), best of 3 loads. Usage (docs/benchmarks.md):
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
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
page="$dir/run.html"
"$root/interlock" run "$root/designs/single-lock.design" --threads gpu_worker="$threads" --jobs gpu_worker="$jobs" \
  --html "$page" | grep -E '^(ran|events)'
echo "file      $(stat -c %s "$page") bytes"
best_drawn=""
best_painted=""
for i in 1 2 3; do
  dom="$("$browser" --headless --no-sandbox --disable-gpu --window-size=1400,1000 --virtual-time-budget=10000 \
    --user-data-dir="$dir/profile" --dump-dom "file://$page" 2>/dev/null)"
  drawn="$(grep -o 'data-rendered-ms="[0-9.]*"' <<<"$dom" | grep -o '[0-9.]*')"
  painted="$(grep -o 'data-painted-ms="[0-9.]*"' <<<"$dom" | grep -o '[0-9.]*')"
  echo "load $i    drawn ${drawn} ms, painted ${painted} ms"
  if [ -z "$best_drawn" ] || awk "BEGIN{exit !($painted < $best_painted)}"; then
    best_drawn="$drawn"
    best_painted="$painted"
  fi
  elements="$(grep -o '<rect\|<path\|<text\|<line' <<<"$dom" | wc -l)"
done
echo "svg       $elements elements"
echo "render    best of 3: drawn ${best_drawn} ms, painted ${best_painted} ms (goal: under 2000 ms)"
