#!/usr/bin/env bash
# `make docs`: the DocC documentation of Signals, MarbleTesting, Marbles and MarblesCombine, built by
# the toolchain's own `docc` with no package dependency, into the static site .build/docs/site.
#
#   1. Symbol graphs from the compiler (`swift package dump-symbol-graph`), public symbols only.
#      MarblesCombine's come from its OpenCombine build, the MarblesOpenCombine/ package (the same
#      source files): Linux has no Combine, so the root package's module is empty here.
#   2. The pictures the articles show, drawn by the `marbles` command (scripts/docs-pictures.sh),
#      must equal the committed ones.
#   3. `docc convert` per module with --warnings-as-errors, in dependency order, each resolving
#      links into the archives built before it.
#   4. scripts/docs-check.swift: no undocumented public symbol, and every symbol organized.
#   5. `docc merge` into one archive, then `docc process-archive transform-for-static-hosting`.
#
# Serve the result on loopback with `python3 -m http.server -d .build/docs/site` and open
# http://127.0.0.1:8000/documentation/marbles/.
set -euo pipefail
cd "$(dirname "$0")/.."

modules=(Signals MarbleTesting Marbles MarblesCombine)
out=.build/docs
rm -rf "$out"
mkdir -p "$out/graphs"

echo "docs: symbol graphs"
graph_flags=(--skip-synthesized-members --skip-inherited-docs --emit-extension-block-symbols)
# `dump-symbol-graph` emits a graph for every module of the package, test modules included, and
# fails on one never built: build the tests first, so that `make docs` works as the first command
# on a fresh clone (after `make test` this finds nothing to do).
swift build --build-tests >"$out/build-root.log" 2>&1 || { cat "$out/build-root.log"; exit 1; }
swift package dump-symbol-graph "${graph_flags[@]}" >"$out/dump-root.log" 2>&1 \
  || { cat "$out/dump-root.log"; exit 1; }
swift package --package-path MarblesOpenCombine dump-symbol-graph "${graph_flags[@]}" \
  >"$out/dump-combine.log" 2>&1 || { cat "$out/dump-combine.log"; exit 1; }
root_graphs=$(dirname "$(swift build --show-bin-path)")/symbolgraph
combine_graphs=$(dirname "$(swift build --package-path MarblesOpenCombine --show-bin-path)")/symbolgraph
for module in Signals MarbleTesting Marbles; do
  mkdir -p "$out/graphs/$module"
  for graph in "$root_graphs/$module.symbols.json" "$root_graphs/$module"@*.symbols.json; do
    [ -e "$graph" ] && cp "$graph" "$out/graphs/$module/"
  done
done
mkdir -p "$out/graphs/MarblesCombine"
for graph in "$combine_graphs"/MarblesOpenCombine.symbols.json \
  "$combine_graphs"/MarblesOpenCombine@*.symbols.json; do
  name=$(basename "$graph")
  sed 's/"MarblesOpenCombine"/"MarblesCombine"/g' "$graph" \
    >"$out/graphs/MarblesCombine/${name/MarblesOpenCombine/MarblesCombine}"
done

echo "docs: pictures"
scripts/docs-pictures.sh --check

dependencies=()
for module in "${modules[@]}"; do
  echo "docs: docc convert $module"
  docc convert "Sources/$module/$module.docc" \
    --additional-symbol-graph-dir "$out/graphs/$module" \
    --output-path "$out/$module.doccarchive" \
    --fallback-display-name "$module" --fallback-bundle-identifier "marbles.$module" \
    --warnings-as-errors --ide-console-output \
    --enable-experimental-external-link-support --no-transform-for-static-hosting \
    "${dependencies[@]}" >"$out/$module.log" 2>&1 \
    || { grep -E 'warning|error' "$out/$module.log" || cat "$out/$module.log"; exit 1; }
  dependencies+=(--dependency "$out/$module.doccarchive")
done

echo "docs: checks"
swift scripts/docs-check.swift "$out" "${modules[@]}"

echo "docs: static site"
archives=()
for module in "${modules[@]}"; do archives+=("$out/$module.doccarchive"); done
docc merge "${archives[@]}" --output-path "$out/combined.doccarchive" \
  --synthesized-landing-page-name "Marbles" --synthesized-landing-page-kind Package \
  >"$out/merge.log" 2>&1 || { cat "$out/merge.log"; exit 1; }
docc process-archive transform-for-static-hosting "$out/combined.doccarchive" \
  --output-path "$out/site" >"$out/transform.log" 2>&1 || { cat "$out/transform.log"; exit 1; }
echo "docs: .build/docs/site (open documentation/marbles/ on a local server)"
