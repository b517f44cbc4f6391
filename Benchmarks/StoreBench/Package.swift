// swift-tools-version: 6.0
// Measures DuneStore as an app uses it (only the public API): opening a long
// log and the first state read, single-sample appends with the lock taken per
// call, another process's appends reaching an observer, and an idle observed
// store's CPU time. Run by Benchmarks/store.sh; kept out of the product (it
// reads clocks and getrusage through Glibc, which the library may not import).
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
