import Foundation
import Testing

/// Keeps the platform rule of STYLE.md ("Files and syscalls: one platform
/// layer") and RULES.md: only `Sources/DuneEvents/Platform/` talks to libc
/// (and inside it only `Syscalls.swift` and `Socket.swift`, the NATS
/// client's TCP socket, import it; the other files of the folder call their
/// functions), the core and the projections import
/// the standard library only.
///
/// A grep for `import Glibc` is not enough: Foundation re-exports Glibc on
/// Linux, so a file that imports Foundation can call `fsync` unqualified.
/// Hence a per-file allow-list of imports, checked on every `.swift` file
/// under `Sources/` and `Tests/`.
@Suite struct ImportRulesTests {
    /// The C library modules.
    static let libc: Set<String> = ["Glibc", "Musl", "Darwin"]
    /// The files of Sources that import them: the file system calls, and the TCP socket of
    /// the NATS client (issue 36), which keeps its `poll`/`connect`/`send` calls next to the
    /// socket state they act on.
    static let libcFiles: Set<String> = ["Sources/DuneEvents/Platform/Syscalls.swift", "Sources/DuneEvents/Platform/Socket.swift"]
    /// Foundation and its parts.
    static let foundation: Set<String> = ["Foundation", "FoundationEssentials", "FoundationXML", "FoundationNetworking"]

    /// The pure core: these folders of DuneEvents, the input rules, and all of DuneProjections.
    static let coreFolders = ["Sources/DuneEvents/Model/", "Sources/DuneEvents/Codec/", "Sources/DuneEvents/Deciders/",
                              "Sources/DuneEvents/Batch/", "Sources/DuneProjections/"]
    /// The input rules, inside the otherwise I/O-doing Input folder.
    static let corePrefixes = ["Sources/DuneEvents/Input/InputRules",
                               "Sources/DuneEvents/Input/IngestCommand", "Sources/DuneEvents/Input/Rejection",
                               "Sources/DuneEvents/Input/SampleInput", "Sources/DuneEvents/Input/SampleUnits"]
    /// What the core may import.
    static let coreImports: Set<String> = ["Swift", "DuneEvents", "Synchronization"]

    /// The files of Sources that run threads and so may import Dispatch.
    static let dispatchFiles: Set<String> = [
        "Sources/DuneEvents/Log/EventLog.swift",
        "Sources/DuneEvents/Platform/FileChangeWatcher.swift",
        "Sources/DuneEvents/Platform/InterruptWatch.swift",
        "Sources/DuneTools/Replay/LogReader+Batches.swift",
        "Sources/DuneEvents/Log/LogReader+EventBatches.swift",
        "Sources/DuneHealthImport/Internal/BlockingProducer.swift",
        "Sources/DuneEvents/Support/DispatchQueueExecutor.swift",
        "Sources/DuneEvents/Support/ComputedTogether.swift",
        "Sources/DuneTools/Input/IngestSession+ParseAhead.swift",
        "Sources/DuneShip/LogShipper.swift",
    ]
    /// The files of Sources that hold SwiftUI's state and so may import Observation (it ships with the toolchain on every platform).
    static let observationFiles: Set<String> = ["Sources/DuneProjections/Store/StoreStateModel.swift"]
    /// The files of Sources allowed Foundation: only the app-facing `Date` conversions, in
    /// DuneProjections (FoundationEssentials where it is a module of its own, as on Linux), so that
    /// DuneEvents stays Foundation-free (issue 35).
    /// And the snapshot coding of an app's own read models (`Codable` values, written as
    /// sorted JSON through `JSONEncoder`, issue 34).
    /// And `DuneStore.open(at: URL)`, for an app's App Group container (issue 35).
    static let foundationFiles: Set<String> = ["Sources/DuneProjections/Support/Timestamp+Date.swift",
                                               "Sources/DuneProjections/Store/DuneStore+URL.swift",
                                               "Sources/DuneProjections/Engine/AnyAppProjection.swift"]
    /// The HealthKit adapter (issue 33): `#if canImport(HealthKit)` files, compiled only on
    /// Apple platforms, which may import HealthKit and Foundation (HealthKit's dates,
    /// `NSKeyedArchiver` for anchors).
    static let healthKitAdapterFolder = "Sources/DuneHealthKit/HealthKit/"
    /// What any file of Sources may import, besides the lists above.
    static let sourceImports: Set<String> = ["Swift", "DuneEvents", "DuneProjections", "DuneHealthImport", "DuneHealthKit", "DuneShip",
                                             "DuneTools", "DuneFixtures", "Synchronization"]
    /// What any test file may import; libc only under `#if canImport(<module>)`.
    static let testImports: Set<String> = Set(["Swift", "Testing", "XCTest", "DuneEvents", "DuneProjections", "DuneHealthImport",
                                           "DuneHealthKit", "DuneShip", "DuneTools", "DuneFixtures", "DuneOracles", "dune_replay",
                                           "Synchronization", "Dispatch", "Observation"]).union(foundation)

    @Test func everyFileImportsOnlyWhatItsFolderAllows() throws {
        let violations = try Self.violations(in: Self.packageRoot())
        #expect(violations.isEmpty, "\(violations.count) import rule violation(s):\n\(violations.joined(separator: "\n"))")
    }

    @Test func theCheckerSeesEveryKindOfViolation() {
        let core = "Sources/DuneEvents/Model/Scratch.swift"
        #expect(Self.violations(path: core, text: "import Glibc\n").count == 1)
        #expect(Self.violations(path: core, text: "@preconcurrency import Glibc\n").count == 1)
        #expect(Self.violations(path: core, text: "import Foundation\n").count == 1)
        #expect(Self.violations(path: core, text: "import Dispatch\n").count == 1)
        #expect(Self.violations(path: core, text: "let x = " + "Darwin" + ".sqrt(2.0)\n").count == 1)  // split: this file must not hold the pattern
        #expect(Self.violations(path: core, text: "import Synchronization\n").isEmpty)
        #expect(Self.violations(path: core, text: "import Observation\n").count == 1)
        #expect(Self.violations(path: "Sources/DuneProjections/Store/StoreStateModel.swift", text: "import Observation\n").isEmpty)
        let platform = "Sources/DuneEvents/Platform/Syscalls.swift"
        #expect(Self.violations(path: platform, text: "#if canImport(Glibc)\nimport Glibc\n#elseif canImport(Darwin)\nimport Darwin\n#endif\n").isEmpty)
        #expect(Self.violations(path: platform, text: "import Glibc\n").count == 1)
        #expect(Self.violations(path: "Sources/DuneEvents/Platform/Scratch.swift", text: "#if canImport(Glibc)\nimport Glibc\n#endif\n").count == 1)
        // The tools and the importer call the platform layer too; they never import libc.
        #expect(Self.violations(path: "Sources/DuneTools/CommandLine/Scratch.swift", text: "#if canImport(Glibc)\nimport Glibc\n#endif\n").count == 1)
        #expect(Self.violations(path: "Sources/DuneHealthImport/Scratch.swift", text: "import Darwin\n").count == 1)
        // HealthKit and Foundation only in the adapter's folder, and only under its condition.
        let adapter = "Sources/DuneHealthKit/HealthKit/Scratch.swift"
        #expect(Self.violations(path: adapter, text: "#if canImport(HealthKit)\nimport Foundation\nimport HealthKit\n#endif\n").isEmpty)
        #expect(Self.violations(path: adapter, text: "import HealthKit\n").count == 1)
        #expect(Self.violations(path: "Sources/DuneHealthKit/Engine/Scratch.swift", text: "import Foundation\n").count == 1)
        let test = "Tests/DuneEventsTests/Scratch.swift"
        #expect(Self.violations(path: test, text: "import Glibc\n").count == 1)
        #expect(Self.violations(path: test, text: "#if canImport(Glibc)\nimport Glibc\n#endif\n").isEmpty)
        #expect(Self.violations(path: test, text: "let s = \"\"\"\n    import json\n    \"\"\"\n").isEmpty)
    }

    // MARK: - The checker

    /// The package root: three levels above this file (Tests/DuneEventsTests/Rules/).
    static func packageRoot() -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Every violation in the `.swift` files under `root/Sources` and `root/Tests`, as `path:line: reason`.
    static func violations(in root: URL) throws -> [String] {
        var found: [String] = []
        var checked = 0
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let path = "\(folder)/\(relative)"
                let text = try String(contentsOf: base.appendingPathComponent(relative), encoding: .utf8)
                found += violations(path: path, text: text)
                checked += 1
            }
        }
        if checked < 100 { found.append("only \(checked) Swift files found under \(root.path): is the package root right?") }
        return found.sorted()
    }

    /// The violations in one file, given its path relative to the package root.
    static func violations(path: String, text: String) -> [String] {
        let isSource = path.hasPrefix("Sources/")
        let isLibcFile = libcFiles.contains(path)
        let isHealthKitAdapter = path.hasPrefix(healthKitAdapterFolder)
        let isCore = coreFolders.contains { path.hasPrefix($0) } || corePrefixes.contains { path.hasPrefix($0) }
        var found: [String] = []
        var conditions: [String] = []   // the active `#if`/`#elseif` branch conditions, outermost first
        var inMultilineString = false
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            let at = "\(path):\(index + 1)"
            if line.components(separatedBy: "\"\"\"").count % 2 == 0 { inMultilineString.toggle(); continue }
            if inMultilineString || line.hasPrefix("//") { continue }
            if line.hasPrefix("#if ") { conditions.append(String(line.dropFirst(4))); continue }
            if line.hasPrefix("#elseif ") { conditions[conditions.count - 1] = String(line.dropFirst(8)); continue }
            if line == "#else" || line.hasPrefix("#else ") { conditions[conditions.count - 1] = "#else"; continue }
            if line.hasPrefix("#endif") { _ = conditions.popLast(); continue }

            func guarded(_ module: String) -> Bool {
                conditions.contains { $0.contains("canImport(\(module))") && !$0.contains("!canImport(\(module))") }
            }
            // Qualified uses: `Glibc.write(…)` compiles only where Glibc does.
            for module in libc where line.range(of: "\\b\(module)\\.", options: .regularExpression) != nil {
                if isSource && !isLibcFile {
                    found.append("\(at): uses '\(module).' outside \(libcFiles.sorted().joined(separator: " and ")); call the platform layer")
                } else if !guarded(module) {
                    found.append("\(at): uses '\(module).' outside '#if canImport(\(module))'")
                }
            }
            guard let module = importedModule(line) else { continue }
            let allowed: Bool
            var reason = ""
            if libc.contains(module) {
                if isSource && !isLibcFile {
                    allowed = false
                    reason = "only \(libcFiles.sorted().joined(separator: " and ")) import libc; call their functions"
                } else {
                    allowed = guarded(module)
                    reason = "put 'import \(module)' under '#if canImport(\(module))'"
                }
            } else if !isSource {
                allowed = testImports.contains(module)
                reason = "tests import only \(testImports.sorted().joined(separator: ", ")) (and libc under #if canImport)"
            } else if isCore {
                allowed = coreImports.contains(module) || (module == "Dispatch" && dispatchFiles.contains(path))
                    || (module == "Observation" && observationFiles.contains(path))
                    || (foundation.contains(module) && foundationFiles.contains(path))
                reason = "the pure core (Model, Codec, Deciders, Batch, input parsing, DuneProjections) imports only the standard library, Synchronization and DuneEvents"
            } else if isHealthKitAdapter && (module == "HealthKit" || module == "Foundation") {
                allowed = text.contains("#if canImport(HealthKit)")
                reason = "the HealthKit adapter's files are wrapped in '#if canImport(HealthKit)'"
            } else if foundation.contains(module) {
                allowed = foundationFiles.contains(path)
                reason = "Foundation is allowed only in the files listed in ImportRulesTests.foundationFiles"
            } else if module == "Dispatch" {
                allowed = dispatchFiles.contains(path)
                reason = "Dispatch is allowed only where threads are run (ImportRulesTests.dispatchFiles)"
            } else {
                allowed = sourceImports.contains(module)
                reason = "Sources import only \(sourceImports.sorted().joined(separator: ", ")) and the listed exceptions"
            }
            if !allowed { found.append("\(at): 'import \(module)': \(reason)") }
        }
        return found
    }

    /// The module an import declaration names (`import X`, `@testable import X`,
    /// `import struct X.Y`), or `nil` when the line is not one.
    static func importedModule(_ line: String) -> String? {
        var words = line.split(separator: " ").map(String.init)
        while let first = words.first, first.hasPrefix("@") { words.removeFirst() }
        guard words.first == "import", words.count >= 2 else { return nil }
        let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
        let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
        return path.split(separator: ".").first.map(String.init)
    }
}
