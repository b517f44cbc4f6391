// swift-tools-version: 6.0
// A peer for Benchmarks/run.sh, kept out of the product: the obvious Swift way to
// read a DuneEvents log — Foundation's JSONDecoder on every line — folding the
// same totals (samples by kind and local day) the other peers compute.
import PackageDescription

let package = Package(
    name: "FoundationFold",
    targets: [
        .executableTarget(name: "FoundationFold"),
    ],
    swiftLanguageModes: [.v6]
)
