import Foundation
import Testing

/// Issue 35, item 1: the dependency lines Getting Started documents resolve.
/// `Scripts/consumer-package.sh --resolve-only` writes a consumer package from
/// the article's marked block (the path form, `package: "DuneEvents"`) and
/// loads its package graph, which fails on a wrong package or product name;
/// `.ci/run` runs the script without the flag to build and run it.
@Suite struct ConsumerPackageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func theDocumentedPathFormResolves() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Self.repository + "/Scripts/consumer-package.sh", "--resolve-only"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("duneevents<"), "\(text)")
    }

    /// Item 9: the README says how to build and run a release `dune-replay` for a real log,
    /// with a product the package declares.
    @Test func theReadmeSaysHowToBuildAndRunARelease() throws {
        let readme = try String(contentsOfFile: Self.repository + "/README.md", encoding: .utf8)
        let manifest = try String(contentsOfFile: Self.repository + "/Package.swift", encoding: .utf8)
        #expect(readme.contains("swift build -c release --product dune-replay"))
        #expect(readme.contains(".build/release/dune-replay verify --log"))
        #expect(readme.contains("`swift run` builds a debug binary"))
        #expect(manifest.contains(#".executable(name: "dune-replay""#))
    }

    @Test func gettingStartedOffersNoVersionThatIsNotTagged() throws {
        let article = try String(contentsOfFile: Self.repository + "/Sources/DuneProjections/DuneProjections.docc/GettingStarted.md", encoding: .utf8)
        #expect(!article.contains(#"from: "1.0.0""#))
        #expect(article.contains(#".package(url: "<the repository URL>", branch: "main")"#))
        #expect(article.contains(#".package(path: "../DuneEvents")"#))
    }
}
