// swift-tools-version: 6.0
// An app-shaped client of DuneHealthKit: it links the library by path, the way
// an iOS app links a package, and uses nothing but its public API. On Linux it
// syncs from an in-memory stand-in for HealthKit; on Apple platforms with
// HealthKit data it would wire the HealthKit adapter instead.
import PackageDescription

let package = Package(
    name: "HealthKitApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "DuneEvents", path: "../..")],
    targets: [
        .executableTarget(name: "HealthKitApp", dependencies: [.product(name: "DuneHealthKit", package: "DuneEvents"),
                                                              .product(name: "DuneProjections", package: "DuneEvents")]),
    ],
    swiftLanguageModes: [.v6]
)
