#!/usr/bin/env bash
# Makes docs/images/two-lock-counterexample.png and cuzk-phase9-swallowed.png: the HTML views of two-lock's and cuzk
# phase 9's counterexamples, screenshot by headless chromium (apt-get install chromium). Usage: bash docs/images/regenerate.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
browser="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
[ -n "$browser" ] || { echo "regenerate.sh: needs chromium (apt-get install chromium)" >&2; exit 2; }
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
cd "$root"
./interlock check designs/two-lock.design --html "$dir/two-lock.html" >/dev/null || [ $? -eq 1 ]
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --user-data-dir="$dir/profile" --window-size=1000,540 \
  --screenshot="$root/docs/images/two-lock-counterexample.png" "file://$dir/two-lock.html" 2>/dev/null
./interlock check designs/cuzk/phase9.design --html "$dir/phase9.html" >/dev/null || [ $? -eq 1 ]
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
  --user-data-dir="$dir/profile" --window-size=1400,580 \
  --screenshot="$root/docs/images/cuzk-phase9-swallowed.png" "file://$dir/phase9.html" 2>/dev/null
echo "wrote docs/images/two-lock-counterexample.png and docs/images/cuzk-phase9-swallowed.png"
