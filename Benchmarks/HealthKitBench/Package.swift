// swift-tools-version: 6.0
// Measures DuneHealthKit's sync engine (issue 33): a decade of samples backfilled
// from a synthetic in-memory source against `ingest` of the same samples as JSON
// lines, the engine's memory apart from the store's, and an observer wake with 10
// new samples on an open store. Run by Benchmarks/healthkit-backfill.sh; kept out
// of the product (a benchmark, not something an app links).
import PackageDescription

let package = Package(
    name: "HealthKitBench",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "DuneEvents", path: "../..")],
    targets: [
        .executableTarget(name: "HealthKitBench", dependencies: [
            .product(name: "DuneHealthKit", package: "DuneEvents"),
            .product(name: "DuneProjections", package: "DuneEvents"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
