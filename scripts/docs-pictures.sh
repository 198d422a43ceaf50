#!/usr/bin/env bash
# The pictures the DocC articles show, drawn by Marbles itself: each is one fixture scenario drawn
# by `marbles show FILE --filter TITLE --svg OUT`. `scripts/docs-pictures.sh` (or `make
# docs-pictures`) writes them into the catalogs; `--check` draws them into a temporary folder and
# fails if a committed picture differs, which `make docs` runs. (The failing table's picture,
# table-failure.svg, is drawn by a test instead, MarblePictureTests.theReadmePictureIsCurrent:
# `MARBLES_RECORD_GOLDEN=1 swift test --filter theReadmePictureIsCurrent` writes it anew.)
set -euo pipefail
cd "$(dirname "$0")/.."

check=false
[ "${1:-}" = "--check" ] && check=true

# folder | fixture | title filter | picture
pictures=(
  "Sources/Marbles/Marbles.docc/Resources|Fixtures/seed000-subject-vs-replay.marbles|RACSubject|subject-misses.svg"
  "Sources/Marbles/Marbles.docc/Resources|Fixtures/seed000-subject-vs-replay.marbles|RACReplaySubject|replay-subject-replays.svg"
  "Sources/Marbles/Marbles.docc/Resources|Fixtures/seed004-six-requests.marbles|without sharing|six-requests.svg"
  "Sources/Marbles/Marbles.docc/Resources|Fixtures/seed004-six-requests.marbles|with replayLazily|one-request.svg"
  "Sources/Marbles/Marbles.docc/Resources|Fixtures/operators-time-and-higher-order.marbles|debounce|debounce.svg"
)

swift build --product marbles >/dev/null
marbles=$(swift build --show-bin-path)/marbles
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
stale=0
for entry in "${pictures[@]}"; do
  IFS='|' read -r folder fixture title picture <<<"$entry"
  "$marbles" show "$fixture" --filter "$title" --svg "$scratch/$picture" >/dev/null
  if $check; then
    if ! cmp -s "$scratch/$picture" "$folder/$picture"; then
      echo "docs-pictures: $folder/$picture is not what \`marbles show $fixture --filter '$title'\` draws"
      stale=1
    fi
  else
    mkdir -p "$folder"
    cp "$scratch/$picture" "$folder/$picture"
    echo "$folder/$picture"
  fi
done
if [ $stale -ne 0 ]; then
  echo "docs-pictures: run scripts/docs-pictures.sh (make docs-pictures) and commit the pictures" >&2
  exit 1
fi
