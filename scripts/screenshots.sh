#!/usr/bin/env bash
# Renders the HTML report of Fixtures/ and a few single pictures to PNG with headless Chromium, to
# look at them as a browser draws them: `make screenshots`. Installs nothing; CI does not run it.
set -euo pipefail
cd "$(dirname "$0")/.."

browser=""
for candidate in chromium chromium-browser google-chrome; do
  if command -v "$candidate" >/dev/null 2>&1; then browser="$candidate"; break; fi
done
if [ -z "$browser" ]; then
  echo "screenshots: no Chromium found. On Debian or Ubuntu: sudo apt-get install chromium" >&2
  exit 1
fi

out=.build/screenshots
mkdir -p "$out"
swift build --product marbles >/dev/null
marbles=$(swift build --show-bin-path)/marbles

# The report of every fixture, and one picture of each kind.
"$marbles" --quiet --html "$out/report.html" Fixtures >/dev/null || true
"$marbles" show Fixtures/seed004-six-requests.marbles --filter replayLazily --svg "$out/replayLazily.svg" >/dev/null
"$marbles" show Fixtures/operators-time-and-higher-order.marbles --svg "$out/time.svg" >/dev/null
"$marbles" --html "$out/failing.html" Tests/MarblesCLITests/Fixtures/failing-expectation.marbles >/dev/null || true
cp Sources/Marbles/Marbles.docc/Resources/*.svg Tests/MarbleFixturesTests/Golden/*.svg "$out/"

shoot() { # URL, png, width, height (the time budget lets a page's scripts render it)
  "$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=8000 \
    --screenshot="$2" --window-size="$3,$4" "$1" >/dev/null 2>&1
  echo "$2"
}

shoot "file://$PWD/$out/report.html" "$out/report.png" 1250 4000
shoot "file://$PWD/$out/failing.html" "$out/failing.png" 1250 700
for svg in "$out"/*.svg; do shoot "file://$PWD/$svg" "${svg%.svg}.png" 1000 600; done

# The documentation site, served on loopback as a reader opens it: the landing page and two articles.
scripts/docs.sh >/dev/null
port=8765
python3 -m http.server "$port" --bind 127.0.0.1 --directory .build/docs/site >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
sleep 1
for page in marbles marbles/gettingstarted marbles/hotandcold; do
  shoot "http://127.0.0.1:$port/documentation/$page" "$out/docs-${page//\//-}.png" 1280 2200
done
