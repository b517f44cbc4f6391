// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "DuneEvents",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DuneEvents", targets: ["DuneEvents"]),
        .library(name: "DuneProjections", targets: ["DuneProjections"]),
        .executable(name: "dune-replay", targets: ["dune-replay"]),
    ],
    targets: [
        .target(name: "DuneEvents", linkerSettings: [.linkedLibrary("m")]),
        .target(name: "DuneProjections", dependencies: ["DuneEvents"]),
        .executableTarget(name: "dune-replay", dependencies: ["DuneEvents", "DuneProjections"]),
        .testTarget(name: "DuneEventsTests", dependencies: ["DuneEvents"]),
        .testTarget(name: "DuneProjectionsTests", dependencies: ["DuneEvents", "DuneProjections"]),
        .testTarget(name: "DuneReplayTests", dependencies: ["DuneEvents", "dune-replay"]),
    ],
    swiftLanguageModes: [.v6]
)
