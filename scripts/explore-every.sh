#!/usr/bin/env bash
# Runs every test of the root package and of Integrations with each of their schedulers following
# a random schedule of its same-tick work (MARBLES_EXPLORE_EVERY_SCHEDULER, one seed per pass), and
# fails if a test fails that is not in scripts/fifo-by-design.txt: the tests that check Marbles'
# first-in-first-out order of same-tick work on purpose. Any other failure is either a test that
# relies on FIFO without saying so, or a bug in the exploration (this is how a wake-up freed twice
# was found).
#
# Usage: scripts/explore-every.sh [SEED...]   (default seeds: 1 2 3)
set -euo pipefail
cd "$(dirname "$0")/.."
swift="${SWIFT:-swift}"
allowed="scripts/fifo-by-design.txt"
seeds=("$@")
[[ ${#seeds[@]} -gt 0 ]] || seeds=(1 2 3)

"$swift" build --build-tests
"$swift" build --build-tests --package-path Integrations

log="$(mktemp -d)"
unexpected=0
# The names of the allowed tests.
names="$(grep -vE '^(#|$)' "$allowed" | sed -E 's/[[:space:]].*//')"
for seed in "${seeds[@]}"; do
  for package in . Integrations; do
    out="$log/$seed-${package//\//_}"
    # The failures are the point: the runs' own exit statuses are not. (Nimble's by-design finding
    # is skipped, as the Makefile's KNOWN_PORT_FINDINGS skips it.) XCTest runs with
    # --parallel, as `make test` runs it, each test in a process of its own: a serial run of this
    # package's XCTests now and then hangs in XCTest's tear-down wait when
    # SchedulerInAPropertyXCTests runs beside the others (an open bug).
    MARBLES_RECORD= MARBLES_EXPLORE_EVERY_SCHEDULER="$seed" \
      "$swift" test --skip-build --parallel --disable-xctest --package-path "$package" \
      --skip NeighboursTests >"$out.testing.log" 2>&1 || true
    MARBLES_RECORD= MARBLES_EXPLORE_EVERY_SCHEDULER="$seed" \
      "$swift" test --skip-build --parallel --disable-swift-testing --package-path "$package" \
      --skip NeighboursTests --skip 'AsyncAwaitTest/testWaitUntilDetectsStalledMainThreadActivity' \
      >"$out.xctest.log" 2>&1 || true
    # Swift Testing: "✘ Test name(…) recorded an issue" (or a display name in quotes); XCTest:
    # "Test Case 'Class.testName' failed".
    failed="$({
      grep -oE '^✘ Test ([A-Za-z_][A-Za-z0-9_]*\(|"[^"]*")' "$out.testing.log" |
        sed -E 's/^✘ Test //; s/\($//'
      grep -oE "^Test Case '[^']*' failed" "$out.xctest.log" |
        sed -E "s/^Test Case '[^.']*\.//; s/' failed$//"
    } | sort -u || true)"
    count=0
    while IFS= read -r name; do
      [[ -n "$name" ]] || continue
      count=$((count + 1))
      if ! grep -qxF -- "$name" <<<"$names"; then
        echo "seed $seed, $package: $name failed, and it is not in $allowed (logs: $out.*)"
        unexpected=$((unexpected + 1))
      fi
    done <<<"$failed"
    echo "seed $seed, $package: $count test(s) failed"
  done
done
if [[ $unexpected -gt 0 ]]; then
  echo "explore-every: $unexpected unexpected failure(s)"
  exit 1
fi
echo "explore-every: every failure was a test of FIFO order"
rm -rf "$log"
