#!/usr/bin/env bash
# Builds an app-shaped consumer package from exactly the dependency lines the
# DocC article Getting Started documents (the block after its
# "consumer-package" marker), against a copy of this checkout in a folder
# named DuneEvents beside it, as the article's path form says (issue 35, item 1).
#
#   Scripts/consumer-package.sh                  # swift build + run the consumer (CI)
#   Scripts/consumer-package.sh --resolve-only   # load the package graph only (seconds; the test)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
mode=${1:-build}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/DuneEvents" "$work/MyApp/Sources/MyApp"
cp -R "$root/Package.swift" "$root/Sources" "$root/Tests" "$work/DuneEvents/"

article="$root/Sources/DuneProjections/DuneProjections.docc/GettingStarted.md"
lines=$(awk '/<!-- consumer-package/ { found = 1; next }
             found && /^```swift/ { inside = 1; next }
             inside && /^```/ { exit }
             inside { print }' "$article")
if [[ -z $lines ]]; then
    echo "consumer-package: no block after the consumer-package marker in $article" >&2
    exit 1
fi
{
    echo '// swift-tools-version: 6.0'
    echo 'import PackageDescription'
    echo 'let package = Package('
    echo '    name: "MyApp",'
    echo '    platforms: [.macOS(.v15), .iOS(.v18)],'
    echo "$lines,"
    echo '    swiftLanguageModes: [.v6]'
    echo ')'
} > "$work/MyApp/Package.swift"
cat > "$work/MyApp/Sources/MyApp/main.swift" <<'SWIFT'
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DuneProjections

// The public API an app types first: a Date and a zone to a Timestamp and a DayKey.
let date = Date(timeIntervalSince1970: 1_772_431_960.123)
let zone = TimeZone(secondsFromGMT: 3600)!
print(Timestamp(date, in: zone).text, DayKey(date, in: zone))
SWIFT

cd "$work/MyApp"
if [[ $mode == --resolve-only ]]; then
    swift package show-dependencies
else
    swift build
    swift run MyApp
fi
