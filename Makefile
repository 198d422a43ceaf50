# Marbles — the commands README.md promises. `make test` is what .ci/run calls.
SWIFT ?= swift
ZERO_DEP_MODULES := Sources/Signals Sources/MarbleTesting Sources/MarbleFixtures

.PHONY: build test test-tsan lint format check-imports bench demo clean

build:
	$(SWIFT) build

## Runs the whole test suite: unit tests, seed scenarios, fixtures; then the import check.
test: check-imports
	$(SWIFT) test --parallel

## The concurrency tests under the thread sanitizer.
test-tsan:
	$(SWIFT) test --sanitize=thread --scratch-path .build-tsan --filter 'Concurrency|[Tt]woThreads|ParallelUse'

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

## Signals, MarbleTesting and MarbleFixtures must import no Foundation, XCTest or Testing.
check-imports:
	@bad=$$(grep -rnE '^[[:space:]]*(@preconcurrency |public |package |internal )?import (Foundation|FoundationEssentials|XCTest|Testing)([[:space:]]|$$)' $(wildcard $(ZERO_DEP_MODULES)) 2>/dev/null); \
	if [ -n "$$bad" ]; then echo "forbidden imports in zero-dependency modules:"; echo "$$bad"; exit 1; fi; \
	cli=$$(grep -rnE '^[[:space:]]*(@preconcurrency |public |package |internal )?import (XCTest|Testing|Marbles|MarbleTesting|Signals)([[:space:]]|$$)' Sources/MarblesCLI); \
	if [ -n "$$cli" ]; then echo "the marbles command may import only MarbleFixtures (and FoundationEssentials):"; echo "$$cli"; exit 1; fi; \
	echo "check-imports: ok"

clean:
	rm -rf .build

## Release-build benchmarks in the separate Benchmarks/ package (the root keeps zero dependencies).
bench:
	BENCH_FILTER="$(FILTER)" $(SWIFT) run -c release --package-path Benchmarks MarblesBenchmarks

## The main job: every fixture from the command line — each table, PASS/FAIL, a summary.
demo:
	$(SWIFT) run marbles Fixtures
