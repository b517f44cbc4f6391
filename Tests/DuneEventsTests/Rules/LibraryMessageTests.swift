import Foundation
import Testing

/// The libraries' messages are for an app, which has no terminal: no string
/// literal in `Sources/DuneEvents` or `Sources/DuneProjections` names a
/// `dune-replay` command or flag. `dune-replay` adds its own advice where it
/// reports an error.
@Suite struct LibraryMessageTests {
    /// Files whose messages are being rewritten elsewhere (issue 21, the store's lock per write);
    /// remove an entry when its file is clean.
    static let pending: Set<String> = []

    /// What a CLI instruction looks like inside a message.
    static let patterns = [#"dune-replay"#, #"(^|[^-\w])--[a-z][a-z-]+"#, #"\b(run|Run) '?(verify|rebuild|ingest|forget|report|explain)\b"#]

    static func violations(path: String, text: String) -> [String] {
        var found: [String] = []
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            if code.hasPrefix("//") { continue }
            // The string literals on the line.
            let pieces = code.components(separatedBy: "\"")
            for (position, piece) in pieces.enumerated() where position % 2 == 1 {
                if patterns.contains(where: { piece.range(of: $0, options: .regularExpression) != nil }) {
                    found.append("\(path):\(index + 1): \(piece)")
                }
            }
        }
        return found
    }

    @Test func noLibraryStringNamesACommandOrFlagOfTheCLI() throws {
        let root = ImportRulesTests.packageRoot()
        var violations: [String] = []
        for folder in ["Sources/DuneEvents", "Sources/DuneProjections"] {
            guard let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".swift") {
                let path = "\(folder)/\(relative)"
                if Self.pending.contains(path) { continue }
                let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                violations += Self.violations(path: path, text: text)
            }
        }
        #expect(violations.isEmpty, "library messages name the CLI:\n\(violations.joined(separator: "\n"))")
    }

    @Test func theCheckerSeesCommandsAndFlags() {
        #expect(Self.violations(path: "x", text: #"throw E("damaged. Run 'dune-replay verify'")"#).count == 1)
        #expect(Self.violations(path: "x", text: #"throw E("in use; pass --wait")"#).count == 1)
        #expect(Self.violations(path: "x", text: #"throw E("run forget again")"#).count == 1)
        #expect(Self.violations(path: "x", text: #"throw E("a 2026-02-28 line")"#).isEmpty)
        #expect(Self.violations(path: "x", text: #"// run 'dune-replay verify'"#).isEmpty)
    }
}
