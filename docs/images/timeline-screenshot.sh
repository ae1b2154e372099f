#!/usr/bin/env bash
# Screenshots a --timeline-json file in chrome://tracing's viewer (Catapult's trace viewer, made standalone by its
# trace2html), the way docs/images/prove-gpu-timeline.png was made. ui.perfetto.dev reads the same file but is not
# reachable from the development machines, and Catapult is not on npm or in Debian: give a checkout of
# https://github.com/catapult-project/catapult (its tracing/ and third_party/ folders are enough) as CATAPULT.
# Needs python3, node with npm (puppeteer-core, installed into a temporary folder) and chromium.
#   CATAPULT=/path/to/catapult bash docs/images/timeline-screenshot.sh prove-gpu.json docs/images/prove-gpu-timeline.png
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: CATAPULT=DIR $0 TIMELINE.json OUT.png" >&2; exit 2; }
[ -f "$1" ] || { echo "$0: $1: no such timeline file" >&2; exit 2; }
[ -x "${CATAPULT:-}/tracing/bin/trace2html" ] || { echo "$0: set CATAPULT to a catapult checkout (tracing/bin/trace2html)" >&2; exit 2; }
browser="${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}"
[ -n "$browser" ] || { echo "$0: needs chromium (apt-get install chromium)" >&2; exit 2; }
out="$(cd "$(dirname "$2")" && pwd)/$(basename "$2")"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
python3 "$CATAPULT/tracing/bin/trace2html" "$1" --output "$dir/timeline.html" >/dev/null
(cd "$dir" && npm init -y >/dev/null && npm install --silent --no-audit --no-fund puppeteer-core@24.43.1 >/dev/null)
cat > "$dir/shot.js" <<'JS'
const puppeteer = require('puppeteer-core');
(async () => {
  const [, , browser, url, out] = process.argv;
  const b = await puppeteer.launch({executablePath: browser, headless: true, args: ['--no-sandbox', '--disable-gpu']});
  const p = await b.newPage();
  await p.setViewport({width: 1600, height: 700});
  await p.goto(url, {waitUntil: 'load'});
  // the viewer imports the trace asynchronously, behind a progress dialog: wait for the dialog to go
  await p.waitForFunction(() => !document.body.innerText.includes('Importing'), {timeout: 60000});
  await p.waitForFunction(() => document.body.innerText.includes('threads'), {timeout: 60000});
  await p.screenshot({path: out});
  await b.close();
})().catch(e => { console.error(e); process.exit(1); });
JS
(cd "$dir" && node shot.js "$browser" "file://$dir/timeline.html" "$out")
echo "wrote $2"
