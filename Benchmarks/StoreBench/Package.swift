// swift-tools-version: 6.0
// Measures DuneStore as an app uses it (only the public API): opening a long
// log, the first readiness read, and single-sample appends. Run by
// Benchmarks/store.sh; kept out of the product.
import PackageDescription

let package = Package(
    name: "StoreBench",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "DuneEvents", path: "../..")],
    targets: [
        .executableTarget(name: "StoreBench", dependencies: [.product(name: "DuneProjections", package: "DuneEvents")]),
    ],
    swiftLanguageModes: [.v6]
)
