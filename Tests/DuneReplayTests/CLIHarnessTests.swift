import Foundation
import Testing

/// The harness finds `dune-replay` beside the test bundle however the tests
/// were loaded: as the bundle's own executable (Linux), or from inside a
/// `.xctest` bundle by the toolchain's runner (macOS, where there is no `/proc`).
@Suite struct CLIHarnessTests {
    @Test func theBinaryFolderIsTheOneHoldingTheTestBundle() {
        #expect(CLI.folder(holdingTestBundleOf: "/repo/.build/x86_64-unknown-linux-gnu/debug/DuneEventsPackageTests.xctest")
                == "/repo/.build/x86_64-unknown-linux-gnu/debug")
        #expect(CLI.folder(holdingTestBundleOf: "/repo/.build/arm64-apple-macosx/debug/DuneEventsPackageTests.xctest/Contents/MacOS/DuneEventsPackageTests")
                == "/repo/.build/arm64-apple-macosx/debug")
        #expect(CLI.folder(holdingTestBundleOf: "/opt/runner/bin/tests") == "/opt/runner/bin")
    }

    @Test func theBinaryIsFound() {
        #expect(FileManager.default.isExecutableFile(atPath: CLI.binary), "\(CLI.binary)")
        #expect(CLI.folder(holdingTestBundleOf: CLI.testImagePath()) == URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path)
    }
}
