import Foundation
import Testing
@testable import DuneEvents

/// The safe signatures the platform layer and the codec give callers that hold
/// bytes in arrays and strings: the pointers stay inside `FileDescriptor`,
/// `ContentDigest` and `Timestamp`, and these tests pin their edges.
@Suite struct SafeSignatureTests {
    private func scratchDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "dune-safe-signatures-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func writeAllOfAnArrayWritesEveryByteAndNothingForAnEmptyOne() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/written"
        let descriptor = try FileSystem.createFile(path, access: .writeOnly, ifExists: .fail, protection: .default)
        try descriptor.writeAll([])
        #expect(try descriptor.status().size == 0)
        let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try descriptor.writeAll(bytes)
        try descriptor.close()
        #expect(FileManager.default.contents(atPath: path).map(Array.init) == bytes)
    }

    @Test func readUpToStopsAtTheEndOfTheFileAndReadsNothingPastIt() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/read"
        let content = Array("0123456789".utf8)
        try AtomicFile.write(content, to: path)
        let descriptor = try FileDescriptor.open(path, .readOnly)
        defer { try? descriptor.close() }
        #expect(try descriptor.read(upTo: 0, atOffset: 0) == [])
        #expect(try descriptor.read(upTo: 4, atOffset: 3) == Array("3456".utf8))
        #expect(try descriptor.read(upTo: 100, atOffset: 0) == content)
        #expect(try descriptor.read(upTo: 100, atOffset: 8) == Array("89".utf8))
        #expect(try descriptor.read(upTo: 5, atOffset: 10) == [])
        #expect(try descriptor.read(upTo: 5, atOffset: 50) == [])
    }

    @Test func atomicWriteOfAnArrayReplacesTheWholeFile() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/atomic"
        try AtomicFile.write(Array("a longer first content".utf8), to: path)
        try AtomicFile.write(Array("short".utf8), to: path)
        #expect(FileManager.default.contents(atPath: path).map(Array.init) == Array("short".utf8))
        try AtomicFile.write([], to: path)
        #expect(FileManager.default.contents(atPath: path)?.isEmpty == true)
        let prepared = try AtomicFile.prepare(Array("prepared".utf8), for: path)
        try prepared.commit()
        #expect(FileManager.default.contents(atPath: path).map(Array.init) == Array("prepared".utf8))
    }

    @Test func contentDigestOfWordsIsTheDigestOfTheirLittleEndianBytes() {
        let words: [UInt64] = [0x0102_0304_0506_0708, 0, .max, 42]
        let bytes = words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
        #expect(ContentDigest(words: words) == ContentDigest(bytes))
        #expect(ContentDigest(words: []) == ContentDigest([UInt8]()))
        #expect(ContentDigest(words: [1, 2]) != ContentDigest(words: [2, 1]))
    }

    @Test(arguments: ["2026-03-01T07:30:00Z", "2026-03-01T07:30:00.250Z", "2026-03-01T07:30:00+02:00"])
    func timestampFromUTF8TextAgreesWithParsing(text: String) throws {
        let parsed = try Timestamp(parsing: text)
        let fromText = try #require(Timestamp(utf8Text: text))
        #expect(fromText == parsed)
        #expect(fromText.text == parsed.text)
    }

    @Test(arguments: ["", "2026-03-01T07:30:00", "2026-13-01T07:30:00Z", "not a time"])
    func timestampFromUTF8TextRejectsWhatParsingRejects(text: String) {
        #expect(Timestamp(utf8Text: text) == nil)
        #expect(throws: Timestamp.ParseError.self) { try Timestamp(parsing: text) }
    }

    @Test func eventVersionsStampChecksumIsTheCRCOfItsText() {
        let stamp = Array(EventVersions.stamp.utf8)
        let checksum = stamp.withUnsafeBytes { CRC32.checksum($0) }
        #expect(EventVersions.stampCRC == checksum)
    }
}
