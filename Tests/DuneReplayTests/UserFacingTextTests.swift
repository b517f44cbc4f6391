import Foundation
import Testing

/// What users read refers to nothing outside the repository: the README, `docs/`, the DocC catalogs,
/// `///` doc comments and every string literal in `Sources/` never name the team's SPEC or `../shared`.
/// Plain `//` comments may (they are for the people who change the code).
@Suite struct UserFacingTextTests {
    static let repository = SampleLogTests.repository
    static let forbidden = ["SPEC", "../shared"]

    @Test func readmeDocsAndCatalogsReferToNothingOutsideTheRepository() throws {
        var files = [Self.repository + "/README.md"]
        files += try Self.files(under: "docs") { _ in true }
        files += try Self.files(under: "Sources") { $0.contains(".docc/") }
        var violations: [String] = []
        for file in files {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where Self.forbidden.contains(where: { line.contains($0) }) {
                violations.append("\(Self.relative(file)):\(index + 1): \(line)")
            }
        }
        #expect(violations.isEmpty, "user-facing text names the SPEC or ../shared:\n\(violations.joined(separator: "\n"))")
    }

    /// The README is the front page: every file of `docs/` is linked from it, as `(docs/NAME.md)`,
    /// and every `docs/` file it links exists.
    @Test func readmeLinksEveryDocsFileAndOnlyFilesThatExist() throws {
        let readme = try String(contentsOfFile: Self.repository + "/README.md", encoding: .utf8)
        let docs = try Self.files(under: "docs") { $0.hasSuffix(".md") }.map(Self.relative)
        #expect(docs.count >= 7, "docs/ should hold the documentation: \(docs)")
        let unlinked = docs.filter { !readme.contains("(\($0))") && !readme.contains("(\($0)#") }
        #expect(unlinked.isEmpty, "README.md does not link: \(unlinked.joined(separator: ", "))")
        var linked: [String] = []
        var rest = readme[...]
        while let start = rest.range(of: "](docs/") {
            rest = rest[start.upperBound...]
            let target = rest.prefix { $0 != ")" && $0 != "#" }
            linked.append("docs/" + target)
        }
        let missing = linked.filter { !FileManager.default.fileExists(atPath: Self.repository + "/" + $0) }
        #expect(missing.isEmpty, "README.md links files that do not exist: \(missing.joined(separator: ", "))")
    }

    @Test func docCommentsAndStringLiteralsInSourcesReferToNothingOutsideTheRepository() throws {
        var violations: [String] = []
        for file in try Self.files(under: "Sources", { $0.hasSuffix(".swift") }) {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            for (line, fragment) in SwiftUserText.fragments(of: text)
            where Self.forbidden.contains(where: { fragment.contains($0) }) {
                violations.append("\(Self.relative(file)):\(line): \(fragment)")
            }
        }
        #expect(violations.isEmpty, "a /// comment or string literal names the SPEC or ../shared:\n\(violations.joined(separator: "\n"))")
    }

    /// The scanner itself: it must see doc comments and literals, and skip `//` comments.
    @Test func scannerFindsDocCommentsAndLiteralsButNotPlainComments() {
        let source = #"""
        // SPEC §3 in a plain comment is fine
        /// SPEC in a doc comment
        let a = "see SPEC §5" // SPEC again, a comment
        let b = #"raw "SPEC" // not a comment"#
        let c = """
            multi-line // ../shared here
            """
        let d = "http://example.com" // SPEC in a comment after a // inside a literal
        """#
        let hits = SwiftUserText.fragments(of: source).filter { line, text in
            Self.forbidden.contains(where: { text.contains($0) })
        }.map(\.line)
        #expect(hits == [2, 3, 4, 6])
    }

    // MARK: - Files

    static func files(under folder: String, _ include: (String) -> Bool) throws -> [String] {
        let root = repository + "/" + folder
        guard FileManager.default.fileExists(atPath: root) else { return [] }
        let paths = FileManager.default.subpaths(atPath: root) ?? []
        return paths.sorted().map { root + "/" + $0 }.filter { path in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue && include(path)
        }
    }

    static func relative(_ path: String) -> String {
        path.hasPrefix(repository + "/") ? String(path.dropFirst(repository.count + 1)) : path
    }
}

/// Splits Swift source into what a user can read: `///` doc comments and code with its string
/// literals (single-line, raw and multi-line), leaving out the text of plain `//` comments.
enum SwiftUserText {
    /// `(1-based line, text)` pairs: a doc comment's text, or a line's code outside plain comments.
    static func fragments(of source: String) -> [(line: Int, text: String)] {
        var result: [(line: Int, text: String)] = []
        var inMultiline = false
        var multilineHashes = 0
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let chars = Array(line)
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if !inMultiline && trimmed.hasPrefix("///") {
                result.append((index + 1, String(trimmed)))
                continue
            }
            var kept = ""
            var position = 0
            var inString = false
            var stringHashes = 0
            while position < chars.count {
                let char = chars[position]
                if inMultiline {
                    if matches(chars, position, "\"\"\"" + String(repeating: "#", count: multilineHashes)) {
                        inMultiline = false
                        position += 3 + multilineHashes
                        continue
                    }
                    kept.append(char)
                    position += 1
                } else if inString {
                    if char == "\\" && stringHashes == 0 {
                        kept.append(char)
                        if position + 1 < chars.count { kept.append(chars[position + 1]) }
                        position += 2
                        continue
                    }
                    if matches(chars, position, "\"" + String(repeating: "#", count: stringHashes)) {
                        inString = false
                        position += 1 + stringHashes
                        continue
                    }
                    kept.append(char)
                    position += 1
                } else {
                    if matches(chars, position, "//") { break }  // a plain comment: the rest of the line
                    var hashes = 0
                    while position + hashes < chars.count && chars[position + hashes] == "#" { hashes += 1 }
                    if matches(chars, position + hashes, "\"\"\"") {
                        inMultiline = true
                        multilineHashes = hashes
                        position += hashes + 3
                        continue
                    }
                    if matches(chars, position + hashes, "\"") {
                        inString = true
                        stringHashes = hashes
                        position += hashes + 1
                        continue
                    }
                    kept.append(char)
                    position += 1
                }
            }
            if !kept.trimmingCharacters(in: .whitespaces).isEmpty { result.append((index + 1, kept)) }
        }
        return result
    }

    private static func matches(_ chars: [Character], _ position: Int, _ pattern: String) -> Bool {
        let pattern = Array(pattern)
        guard position + pattern.count <= chars.count else { return false }
        return Array(chars[position..<position + pattern.count]) == pattern
    }
}
