// swift-tools-version: 6.0
// An app-shaped client of DuneEvents: it links the library by path, the way an
// iOS app links a package, and uses nothing but its public API.
import PackageDescription

let package = Package(
    name: "EmbeddingApp",
    platforms: [.macOS(.v15), .iOS(.v18)],
    dependencies: [.package(name: "DuneEvents", path: "../..")],
    targets: [
        .executableTarget(name: "EmbeddingApp", dependencies: [.product(name: "DuneProjections", package: "DuneEvents")]),
    ],
    swiftLanguageModes: [.v6]
)
