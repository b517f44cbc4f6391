// swift-tools-version: 6.0
import PackageDescription

// DuneEvents ships Apple's privacy manifest (PrivacyInfo.xcprivacy: why it calls stat/fstat and
// statfs; see docs/platforms.md, "Privacy manifest"). It is a resource where Apple platforms are built
// (a macOS host, for macOS and iOS). On other hosts it is excluded: declaring any resource makes
// SwiftPM generate a `Bundle.module` accessor that imports Foundation into the target, which
// would make the Foundation-free DuneEvents link Foundation on Linux for a file no Linux
// program reads.
#if os(Linux) || os(Windows) || os(Android)
let privacyManifest: (resources: [Resource], exclude: [String]) = ([], ["PrivacyInfo.xcprivacy"])
#else
let privacyManifest: (resources: [Resource], exclude: [String]) = ([.copy("PrivacyInfo.xcprivacy")], [])
#endif

let package = Package(
    name: "DuneEvents",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "DuneEvents", targets: ["DuneEvents"]),
        .library(name: "DuneProjections", targets: ["DuneProjections"]),
        // The Apple Health export.xml importer: for an app that imports exports, not linked otherwise.
        .library(name: "DuneHealthImport", targets: ["DuneHealthImport"]),
        // MARK: issue 33 (HealthKit sync): the sync engine, its source protocol and the HealthKit adapter.
        .library(name: "DuneHealthKit", targets: ["DuneHealthKit"]),
        .executable(name: "dune-replay", targets: ["dune-replay"]),
    ],
    targets: [
        .target(name: "DuneEvents", exclude: privacyManifest.exclude, resources: privacyManifest.resources, linkerSettings: [.linkedLibrary("m")]),
        .target(name: "DuneProjections", dependencies: ["DuneEvents"]),
        .target(name: "DuneHealthImport", dependencies: ["DuneEvents"]),
        // MARK: issue 33 (HealthKit sync): portable engine + `#if canImport(HealthKit)` adapter.
        .target(name: "DuneHealthKit", dependencies: ["DuneProjections"]),
        // The command line's machinery (inspection, explain, the ingest session, its
        // input reader and JSON line parser, tail, process calls): for `dune-replay` and the tests,
        // not a product, so no app links it.
        .target(name: "DuneTools", dependencies: ["DuneEvents", "DuneProjections", "DuneHealthImport", "DuneHealthKit"]),
        // Synthetic data and Apple Health export fixtures: for `generate`, the tests and
        // the benchmarks, not a product, so no app links them.
        .target(name: "DuneFixtures", dependencies: ["DuneEvents"]),
        // Shipping a log to NATS JetStream and mirroring it back (SPEC §14, docs/shipping.md): the
        // NATS client, for `dune-replay ship`/`mirror` and server-side Swift, not a product, so no app links it.
        .target(name: "DuneShip", dependencies: ["DuneEvents", "DuneTools"]),
        .executableTarget(name: "dune-replay", dependencies: ["DuneEvents", "DuneProjections", "DuneHealthImport", "DuneHealthKit", "DuneTools", "DuneFixtures", "DuneShip"]),
        // The slow reference paths the fast ones are checked against (the reference read of a
        // log, the reference replay): test code, shared by the test targets, in Tests/.
        .target(name: "DuneOracles", dependencies: ["DuneEvents", "DuneProjections", "DuneTools"], path: "Tests/DuneOracles"),
        .testTarget(name: "DuneEventsTests", dependencies: ["DuneEvents", "DuneHealthImport", "DuneTools", "DuneFixtures", "DuneOracles"]),
        .testTarget(name: "DuneProjectionsTests", dependencies: ["DuneEvents", "DuneProjections", "DuneTools", "DuneFixtures", "DuneOracles"]),
        // MARK: issue 33 (HealthKit sync): the engine against the in-memory source.
        .testTarget(name: "DuneHealthKitTests", dependencies: ["DuneHealthKit", "DuneEvents", "DuneProjections", "DuneTools", "DuneFixtures"]),
        .testTarget(name: "DuneReplayTests", dependencies: ["DuneEvents", "DuneTools", "dune-replay", "DuneFixtures", "DuneShip"]),
    ],
    swiftLanguageModes: [.v6]
)
