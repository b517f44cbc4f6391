#!/usr/bin/env bash
# Builds the DocC documentation with the Swift toolchain's own tools (no plugin package) and
# checks that every public symbol has a doc comment.
#
#   Scripts/build-docs.sh            symbol graphs, `docc convert --warnings-as-errors`, coverage
#   DOCC=/path/to/docc Scripts/build-docs.sh
#
# Output: .build/docs/DuneProjections.doccarchive (and DuneHealthKit.doccarchive), transformed for static hosting: serve the
# folder (e.g. `python3 -m http.server -d .build/docs/DuneProjections.doccarchive 8000`) and open
# http://127.0.0.1:8000/documentation/duneprojections. Exit status 0 only when docc reported
# no warning and no public symbol lacks a doc comment.
#
# Steps:
# 1. `swift build -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc DIR` in a
#    scratch directory of its own (.build/docs-build), so the extra compiler flags do not
#    invalidate the normal .build/debug. The compiler writes a module's graph when it compiles
#    the module; an up-to-date build writes nothing and the graphs from the last build stay.
# 2. docs/log-format.md copied into the catalog as the `LogFormat` article (one source for the
#    log format: DocC cannot include a file outside its catalog; the copy is git-ignored), with
#    its links to other docs/ files turned into plain text naming the file (the site has no
#    docs/ folder to link to). Then `docc convert Sources/DuneProjections/DuneProjections.docc
#    --additional-symbol-graph-dir … --warnings-as-errors --transform-for-static-hosting`.
# 3. Scripts/doc_coverage.py over the graphs: every public symbol without a `///` comment.
#
# What was found about links across modules (Swift 6.3.1, docc from the same toolchain):
# - DuneProjections re-exports DuneEvents (`@_exported import`). The graph the compiler emits
#   for DuneProjections (-emit-symbol-graph) then holds DuneEvents' public symbols too, under
#   DuneProjections: one `docc convert` of the DuneProjections catalog documents both modules,
#   and a link written ``EventLog`` resolves (to /documentation/duneprojections/eventlog).
#   A module-qualified ``DuneEvents/EventLog`` does not resolve ("'DuneEvents' doesn't exist").
#   So there is one catalog, DuneProjections.docc, and no separate DuneEvents catalog (it would
#   repeat every DuneEvents page under a second module).
# - `swift-symbolgraph-extract -module-name DuneProjections -I .build/debug/Modules` does NOT
#   include the re-exported symbols (719 symbols instead of 1670), so links to DuneEvents
#   types fail with it; that is why this script uses the compiler's -emit-symbol-graph.
# - Separate archives: a DuneEvents archive converted with
#   --enable-experimental-external-link-support, given to the DuneProjections convert with
#   `--dependency` (which needs that flag too, or docc warns "No external resolver
#   registered"), silences the warning for a full `<doc://org.duneevents.DuneEvents/
#   documentation/DuneEvents/EventLog>` link but renders it as plain text, not a link; symbol
#   links ``DuneEvents/EventLog`` still do not resolve.
# - `docc merge A.doccarchive B.doccarchive` works: one site with both archives and a
#   synthesized landing page. It puts archives side by side; it resolves no link between them.
set -euo pipefail
cd "$(dirname "$0")/.."

scratch=.build/docs-build
graphs="$scratch/symbol-graphs"
out=.build/docs
catalog=Sources/DuneProjections/DuneProjections.docc
docc="${DOCC:-$(dirname "$(command -v swift)")/docc}"
if [ ! -x "$docc" ]; then
    echo "build-docs: no docc at '$docc' (it ships with the Swift toolchain; set DOCC=/path/to/docc)" >&2
    exit 69
fi

build_graphs() {
    mkdir -p "$graphs"
    # DuneHealthKit depends on DuneProjections and DuneEvents: building it emits all three graphs.
    swift build --scratch-path "$scratch" --target DuneHealthKit \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" >&2
}

echo "== symbol graphs ($graphs)" >&2
build_graphs
if [ ! -f "$graphs/DuneProjections.symbols.json" ] || [ ! -f "$graphs/DuneEvents.symbols.json" ] \
    || [ ! -f "$graphs/DuneHealthKit.symbols.json" ]; then
    # An up-to-date build emits nothing: start this scratch directory over once.
    echo "build-docs: symbol graphs missing; rebuilding $scratch from scratch" >&2
    rm -rf "$scratch"
    build_graphs
fi

# docc gets only the DuneProjections graphs (they include the re-exported DuneEvents symbols).
staging="$out/symbol-graphs-DuneProjections"
rm -rf "$staging" "$out/DuneProjections.doccarchive"
mkdir -p "$staging"
cp "$graphs"/DuneProjections.symbols.json "$staging"/
for extension in "$graphs"/DuneProjections@*.symbols.json; do
    [ -e "$extension" ] && cp "$extension" "$staging"/
done

# The LogFormat article: docs/log-format.md, whose first line is already the `# Title` DocC
# wants; `[other.md](other.md#anchor)` becomes `docs/other.md` in code voice, and
# `[text](other.md#anchor)` becomes `text (docs/other.md)`.
sed -E -e 's/\[([A-Za-z0-9_-]+)\.md\]\(\1\.md(#[^)]*)?\)/`docs\/\1.md`/g' \
    -e 's/\[([^]]*)\]\(([A-Za-z0-9_-]+)\.md(#[^)]*)?\)/\1 (`docs\/\2.md`)/g' docs/log-format.md >"$catalog/LogFormat.md"

# convert MODULE CATALOG STAGING LOG: `docc convert` of one catalog into $out/MODULE.doccarchive,
# warnings as errors; prints the count of docc's diagnostics, and a failure sets docc_status.
docc_status=0
convert() {
    local module=$1 catalog_dir=$2 staging_dir=$3 log=$4 status=0
    "$docc" convert "$catalog_dir" \
        --additional-symbol-graph-dir "$staging_dir" \
        --output-path "$out/$module.doccarchive" \
        --fallback-display-name "$module" \
        --fallback-bundle-identifier "org.duneevents.$module" \
        --transform-for-static-hosting \
        --warnings-as-errors >"$log" 2>&1 || status=$?
    [ "$status" -eq 0 ] || docc_status=$status
    grep -E '^(warning|error):' "$log" >&2 || true
    echo "docc convert $module: exit $status, $(grep -cE '^(warning|error):' "$log" || true) warnings/errors (full output: $log)"
}

echo "== docc convert ($docc)" >&2
convert DuneProjections "$catalog" "$staging" "$out/docc-convert.log"

# DuneHealthKit: a catalog and an archive of its own (links to DuneProjections' types are code
# voice, since docc resolves no link between archives). Its HealthKit adapter is compiled only
# where HealthKit exists, so it is not in a graph built on Linux.
hk_staging="$out/symbol-graphs-DuneHealthKit"
rm -rf "$hk_staging" "$out/DuneHealthKit.doccarchive"
mkdir -p "$hk_staging"
cp "$graphs"/DuneHealthKit.symbols.json "$hk_staging"/
convert DuneHealthKit Sources/DuneHealthKit/DuneHealthKit.docc "$hk_staging" "$out/docc-convert-healthkit.log"

echo "== documentation coverage" >&2
coverage_status=0
python3 Scripts/doc_coverage.py "$graphs" DuneEvents DuneProjections DuneHealthKit >"$out/coverage.txt" || coverage_status=$?
head -n 20 "$out/coverage.txt" >&2
echo "coverage: $(tail -n 1 "$out/coverage.txt") (full list: $out/coverage.txt)"

if [ "$docc_status" -ne 0 ] || [ "$coverage_status" -ne 0 ]; then
    exit 1
fi
echo "sites: $out/DuneProjections.doccarchive, $out/DuneHealthKit.doccarchive"
