#!/usr/bin/env bash
# `make check-marbletesting-alone`: a test target that links MarbleTesting alone cannot pass a
# failing check. Tests/MarbleTestingAlone is such a target (a package of its own); each of its two
# tests, one XCTest and one Swift Testing, deadlocks its world, which MarbleTesting reports by
# itself. Each run must fail, and say which product the target must link.
set -uo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
package=Tests/MarbleTestingAlone
"$swift" build --build-tests --package-path "$package" || exit 1
failed=0
for run in "XCTest:DeadlockXCTests" "Swift Testing:aDeadlockDoesNotPass"; do
  framework=${run%%:*}
  filter=${run#*:}
  output=$("$swift" test --skip-build --package-path "$package" --filter "$filter" 2>&1)
  status=$?
  if [ "$status" -eq 0 ]; then
    echo "check-marbletesting-alone: $framework: the deadlocked test passed"
    failed=1
  elif ! grep -q 'does not link the `Marbles`' <<<"$output"; then
    echo "check-marbletesting-alone: $framework: the run failed without naming the Marbles product:"
    echo "$output" | head -20
    failed=1
  elif ! grep -q "The test's world is deadlocked" <<<"$output"; then
    echo "check-marbletesting-alone: $framework: the failure itself was not printed:"
    echo "$output" | head -20
    failed=1
  fi
done
[ "$failed" -eq 0 ] && echo "check-marbletesting-alone: both frameworks stop at the failure, naming Marbles"
exit "$failed"
