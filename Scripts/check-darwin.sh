#!/usr/bin/env bash
# Type-checks the Darwin branches of Sources/DuneEvents/Platform/ on Linux.
#
# `swiftc -parse` does not type-check inactive `#if` branches, and this
# machine has no Apple SDK. So the script builds a stand-in `Darwin` module
# (Scripts/darwin-standin/: a C header transcribing, from Apple's headers, the
# declarations the platform layer uses, with Darwin's types; and a Swift
# overlay with the shapes of Swift's Darwin overlay), copies Platform/ with
# what it needs from the rest of the module, turns the Linux branches off and
# the Apple ones on, and runs `swiftc -typecheck` once per Apple target:
#
#   macOS, iOS device, iOS simulator, Mac Catalyst.
#
# `-D` cannot set `os()` or `targetEnvironment()`, so those conditions are
# rewritten to `true`/`false` in the copied text, per target, on `#if` and
# `#elseif` lines; `canImport(Glibc)` and `canImport(Musl)` become `false`,
# and `canImport(Darwin)` finds the stand-in.
#
# What it catches: a name Darwin lacks (inotify, MADV_HUGEPAGE, O_DIRECT), a
# type-width mistake (st_mode is UInt16, st_dev Int32, statvfs's block
# counts UInt32), a wrong overlay shape (open, fcntl). What it cannot: the
# behaviour of the calls, and any declaration the transcription gets wrong;
# that is for a run on Apple hardware (.github/workflows/apple.yml).
#
# Usage: Scripts/check-darwin.sh              check the sources as they are
#        Scripts/check-darwin.sh --self-test  also check that three known
#            mistakes, injected into a copy, fail (MADV_HUGEPAGE, an inotify
#            call, st_mode read into a UInt32), and that a platform branch
#            in another target (Sources/DuneTools) is seen
# Exits non-zero on any error.
set -euo pipefail
cd "$(dirname "$0")/.."

standin=Scripts/darwin-standin
platform=Sources/DuneEvents/Platform
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. The stand-in module: the overlay, compiled as Swift module `Darwin` on top
#    of the C module of the same name (as Swift's overlay sits on Apple's).
#    Swift 5 mode, as the real overlay is built (its global `MAP_FAILED`).
mkdir -p "$work/module"
swiftc -swift-version 5 -parse-as-library -emit-module -module-name Darwin -import-underlying-module \
    -I "$standin/Darwin" -emit-module-path "$work/module/Darwin.swiftmodule" \
    "$standin/DarwinOverlay.swift"
#    The toolchain's Linux Dispatch and Synchronization import Glibc, whose C
#    structs clash with the stand-in's in one clang instance: stand-ins of both,
#    with only what Platform/ uses, found first on the import path.
for module in Dispatch Synchronization; do
    swiftc -swift-version 6 -parse-as-library -emit-module -module-name "$module" \
        -emit-module-path "$work/module/$module.swiftmodule" "$standin/$module.swift"
done

# 2. The sources for one target: Platform/, the module's error type, and the
#    stand-ins for the few other types Platform/ names; with the conditions
#    rewritten. $1: target name; $2: os(iOS); $3: simulator; $4: macCatalyst.
prepare() {
    local target=$1 ios=$2 simulator=$3 catalyst=$4 macos=false
    [[ $target == macOS ]] && macos=true
    local dir="$work/$target"
    mkdir -p "$dir"
    # The byte views the platform layer's safe signatures take are copied whole
    # (small, and they need nothing else of the module).
    cp "$platform"/*.swift Sources/DuneEvents/DuneEventsError.swift Sources/DuneEvents/Codec/ByteView.swift \
        Sources/DuneEvents/Codec/MutableByteView.swift "$standin/ModuleStandIns.swift" "$dir/"
    sed -E -i "/^[[:space:]]*#(if|elseif)[[:space:]]/{
        s/canImport\((Glibc|Musl)\)/false/g
        s/os\(macOS\)/$macos/g
        s/os\(iOS\)/$ios/g
        s/os\([A-Za-z]+\)/false/g
        s/targetEnvironment\(simulator\)/$simulator/g
        s/targetEnvironment\(macCatalyst\)/$catalyst/g
        s/targetEnvironment\([A-Za-z]+\)/false/g
    }" "$dir"/*.swift
    if grep -nE '^[[:space:]]*#(if|elseif)[[:space:]].*(os|targetEnvironment|canImport\((Glibc|Musl))\(' "$dir"/*.swift; then
        echo "check-darwin: a condition above was not rewritten" >&2
        return 1
    fi
}

# 3. One type-check of a prepared copy; prints the compiler's errors.
typecheck() {
    swiftc -typecheck -swift-version 6 -module-name DuneEvents -package-name DuneEvents \
        -I "$work/module" -I "$standin/Darwin" "$1"/*.swift
}

targets=(
    "macOS false false false"
    "iOS true false false"
    "iOS-simulator true true false"
    "Mac-Catalyst true false true"
)

failed=0

# 0. The other targets (the rest of DuneEvents, DuneProjections, DuneHealthImport,
#    DuneTools, DuneFixtures, dune-replay) have no Darwin branch for this check to
#    type-check: they call the platform layer and never test os(), targetEnvironment()
#    or canImport() of a C library. That claim is checked here, so that a branch
#    added to any target, old or new, cannot escape the check. (The app-facing `Date`
#    conversions, DuneProjections/Support/Timestamp+Date.swift, are on every platform
#    with Foundation and need no exception.)
# $1: a folder holding a Sources/ tree; prints every platform branch outside $platform.
platform_branches() {
    (cd "$1" && grep -rnE '^[[:space:]]*#(if|elseif)[[:space:]].*(os\(|targetEnvironment\(|canImport\((Glibc|Musl|Darwin)\))' \
        --include='*.swift' Sources | grep -v "^$platform/" || true)
}
platform_conditions=$(platform_branches .)
if [[ -n $platform_conditions ]]; then
    echo "$platform_conditions" >&2
    echo "check-darwin: a platform condition above is outside $platform; move the call into the platform layer" >&2
    failed=1
else
    targets_seen=$(find Sources -mindepth 1 -maxdepth 1 -type d | sort | xargs -n1 basename | tr '\n' ' ')
    echo "check-darwin: no platform branch outside $platform in any target (${targets_seen% })"
fi

for spec in "${targets[@]}"; do
    read -r target ios simulator catalyst <<<"$spec"
    prepare "$target" "$ios" "$simulator" "$catalyst"
    if typecheck "$work/$target"; then
        echo "check-darwin: $target: type-checks ($(ls "$work/$target" | wc -l | tr -d ' ') files)"
    else
        echo "check-darwin: $target: FAILED" >&2
        failed=1
    fi
done

# 4. Optionally, that the check catches what it exists to catch: each mistake,
#    added to a Darwin branch of a copy of Syscalls.swift, must fail.
if [[ ${1:-} == --self-test ]]; then
    mistakes=(
        "_ = MADV_HUGEPAGE"
        "_ = inotify_init1(0)"
        "var info = stat(); let mode: UInt32 = info.st_mode; _ = (info, mode)"
    )
    # And step 0 must see a platform branch in a target outside the platform layer.
    mkdir -p "$work/branch/Sources/DuneTools"
    printf '#if os(iOS)\nlet injected = 1\n#endif\n' >"$work/branch/Sources/DuneTools/Injected.swift"
    if [[ -n $(platform_branches "$work/branch") ]]; then
        echo "check-darwin: self-test: an '#if os(iOS)' in Sources/DuneTools is refused"
    else
        echo "check-darwin: self-test: an '#if os(iOS)' in Sources/DuneTools went unnoticed" >&2
        failed=1
    fi
    for index in "${!mistakes[@]}"; do
        dir="$work/mistake-$index"
        cp -r "$work/macOS" "$dir"
        printf '\n#if canImport(Darwin)\nfunc injectedMistake() {\n    %s\n}\n#endif\n' "${mistakes[$index]}" >> "$dir/Syscalls.swift"
        if typecheck "$dir" >/dev/null 2>&1; then
            echo "check-darwin: self-test: '${mistakes[$index]}' type-checked, but Darwin would refuse it" >&2
            failed=1
        else
            echo "check-darwin: self-test: '${mistakes[$index]}' is refused"
        fi
    done
fi

# ============================================================================
# HealthKit adapter (issue 33) — Sources/DuneHealthKit/HealthKit/
# ============================================================================
# The adapter is `#if canImport(HealthKit)` code. Here it is type-checked with
# the whole DuneHealthKit target (the engine it implements the protocol of)
# against a stand-in `HealthKit` module (Scripts/healthkit-standin/: the
# declarations the adapter uses, transcribed from Apple's HealthKit
# documentation, each citing its page), so `canImport(HealthKit)` is true.
#
# Foundation is this machine's (swift-corelibs-foundation): the adapter's
# Foundation calls (Date, TimeZone, UUID, NSPredicate, NSKeyedArchiver with
# secure coding, NSKeyedUnarchiver.unarchivedObject(ofClass:from:)) have the
# same Swift shapes there, which is acceptable for a type-check but is not
# Apple's Foundation. DuneEvents and DuneProjections are compiled to module
# interfaces from their sources first; in that copy only, the `Date` →
# `Timestamp` initializer (Sources/DuneEvents/Support/Timestamp+Date.swift,
# Apple-only today) is compiled where Foundation is, so the adapter's call to
# it is checked. The iOS and macOS passes differ only by `os()` conditions
# (rewritten as above); availability (`@available`) is not checked here.
# What it catches: a wrong label, a missing or extra optional, a name HealthKit
# lacks, a `Sendable` mistake. What it cannot: behaviour — it never ran on a device.
healthkit_standin=Scripts/healthkit-standin
healthkit_modules="$work/healthkit-modules"

# The stand-in, DuneEvents and DuneProjections as modules. $1: a log file.
healthkit_prepare_modules() {
    mkdir -p "$healthkit_modules" "$work/healthkit-events"
    swiftc -swift-version 6 -parse-as-library -enable-library-evolution -suppress-warnings -emit-module -module-name HealthKit \
        -emit-module-path "$healthkit_modules/HealthKit.swiftmodule" "$healthkit_standin/HealthKit.swift" >>"$1" 2>&1 || return 1
    cp -r Sources/DuneEvents/. "$work/healthkit-events/"
    if [[ -f "$work/healthkit-events/Support/Timestamp+Date.swift" ]]; then
        sed -E -i 's/^#if canImport\(Darwin\) && canImport\(Foundation\)$/#if canImport(Foundation)/' \
            "$work/healthkit-events/Support/Timestamp+Date.swift"
    fi
    local module
    for module in DuneEvents DuneProjections; do
        local sources="$work/healthkit-events"
        [[ $module == DuneProjections ]] && sources=Sources/DuneProjections
        # shellcheck disable=SC2046
        swiftc -swift-version 6 -parse-as-library -suppress-warnings -experimental-skip-non-inlinable-function-bodies \
            -emit-module -module-name "$module" -package-name DuneEvents -I "$healthkit_modules" \
            -emit-module-path "$healthkit_modules/$module.swiftmodule" $(find "$sources" -name '*.swift' | sort) >>"$1" 2>&1 || return 1
    done
}

# A copy of Sources/DuneHealthKit for one target, `os()` rewritten. $1: target, $2: os(iOS).
healthkit_prepare_target() {
    local target=$1 ios=$2 macos=false
    [[ $target == macOS ]] && macos=true
    local dir="$work/healthkit-$target"
    mkdir -p "$dir"
    find Sources/DuneHealthKit -name '*.swift' | while read -r file; do
        cp "$file" "$dir/$(echo "${file#Sources/DuneHealthKit/}" | tr '/' '_')"
    done
    sed -E -i "/^[[:space:]]*#(if|elseif)[[:space:]]/{
        s/os\(macOS\)/$macos/g
        s/os\(iOS\)/$ios/g
        s/os\([A-Za-z]+\)/false/g
        s/targetEnvironment\([A-Za-z]+\)/false/g
    }" "$dir"/*.swift
}

# One type-check of a prepared copy; prints the compiler's errors.
healthkit_typecheck() {
    swiftc -typecheck -swift-version 6 -parse-as-library -module-name DuneHealthKit -package-name DuneEvents \
        -I "$healthkit_modules" "$1"/*.swift
}

healthkit_log="$work/healthkit-modules.log"
healthkit_adapter_files=$(grep -l '^#if canImport(HealthKit)' Sources/DuneHealthKit/HealthKit/*.swift 2>/dev/null | wc -l | tr -d ' ')
if [[ $healthkit_adapter_files == 0 ]]; then
    echo "check-darwin: HealthKit adapter: no '#if canImport(HealthKit)' file in Sources/DuneHealthKit/HealthKit" >&2
    failed=1
elif ! healthkit_prepare_modules "$healthkit_log"; then
    cat "$healthkit_log" >&2
    echo "check-darwin: HealthKit adapter: the stand-in or the modules it needs did not build" >&2
    failed=1
else
    for spec in "macOS false" "iOS true"; do
        read -r target ios <<<"$spec"
        healthkit_prepare_target "$target" "$ios"
        if healthkit_typecheck "$work/healthkit-$target"; then
            echo "check-darwin: HealthKit adapter: $target: type-checks against the HealthKit stand-in ($healthkit_adapter_files adapter files, $(ls "$work/healthkit-$target" | wc -l | tr -d ' ') DuneHealthKit files)"
        else
            echo "check-darwin: HealthKit adapter: $target: FAILED" >&2
            failed=1
        fi
    done
    # Self-test: each mistake, added to a copy inside `#if canImport(HealthKit)`, must be refused.
    if [[ ${1:-} == --self-test ]]; then
        healthkit_mistakes=(
            "_ = HKObserverQuery(type: HKQuantityType(.stepCount), predicate: nil) { _, completion, _ in completion() }"
            "_ = HKAnchoredObjectQuery(type: HKQuantityType(.stepCount), predicate: nil, anchor: nil, limit: 1) { (_: HKAnchoredObjectQuery, samples: [HKSample], _: [HKDeletedObject]?, _: HKQueryAnchor?, _: (any Error)?) in _ = samples }"
            "let type: HKQuantityType = HKObjectType.quantityType(forIdentifier: .stepCount); _ = type"
        )
        healthkit_mistake_names=(
            "a wrong initializer label (HKObserverQuery(type:) for init(sampleType:predicate:updateHandler:))"
            "a non-optional where HealthKit gives an optional ([HKSample] for the results handler's [HKSample]?)"
            "a non-optional where HealthKit gives an optional (HKQuantityType for quantityType(forIdentifier:)'s HKQuantityType?)"
        )
        for index in "${!healthkit_mistakes[@]}"; do
            dir="$work/healthkit-mistake-$index"
            cp -r "$work/healthkit-macOS" "$dir"
            printf '#if canImport(HealthKit)\nimport HealthKit\nfunc injectedHealthKitMistake() {\n    %s\n}\n#endif\n' \
                "${healthkit_mistakes[$index]}" >"$dir/InjectedMistake.swift"
            if healthkit_typecheck "$dir" >/dev/null 2>&1; then
                echo "check-darwin: self-test: HealthKit adapter: ${healthkit_mistake_names[$index]} type-checked, but HealthKit would refuse it" >&2
                failed=1
            else
                echo "check-darwin: self-test: HealthKit adapter: ${healthkit_mistake_names[$index]} is refused"
            fi
        done
    fi
fi
# ============================================================================
# End of: HealthKit adapter (issue 33)
# ============================================================================
# --- NATS sockets (issue 36) ---------------------------------------------------
# Platform/Socket.swift (the TCP client of DuneShip) is type-checked with the rest
# of Platform/ above, against the "NATS sockets" section of the stand-in header.
# With --self-test, three socket mistakes Linux accepts must fail against Darwin:
# Linux-only socket flags (SOCK_CLOEXEC, MSG_NOSIGNAL) and sa_family read as
# Linux's 16 bits (Darwin's sa_family_t is 8).
if [[ ${1:-} == --self-test ]]; then
    socket_mistakes=(
        "_ = SOCK_CLOEXEC"
        "_ = MSG_NOSIGNAL"
        "let family: UInt16 = sockaddr().sa_family; _ = family"
    )
    for index in "${!socket_mistakes[@]}"; do
        dir="$work/socket-mistake-$index"
        cp -r "$work/macOS" "$dir"
        printf '\n#if canImport(Darwin)\nfunc injectedSocketMistake() {\n    %s\n}\n#endif\n' "${socket_mistakes[$index]}" >> "$dir/Socket.swift"
        if typecheck "$dir" >/dev/null 2>&1; then
            echo "check-darwin: self-test: '${socket_mistakes[$index]}' type-checked, but Darwin would refuse it" >&2
            failed=1
        else
            echo "check-darwin: self-test: '${socket_mistakes[$index]}' is refused"
        fi
    done
fi
# --- end of NATS sockets (issue 36) --------------------------------------------

if [[ $failed != 0 ]]; then
    echo "check-darwin: FAILED" >&2
    exit 1
fi
echo "check-darwin: all targets type-check against the Darwin stand-in"
