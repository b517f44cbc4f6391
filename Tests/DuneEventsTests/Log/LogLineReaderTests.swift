import Testing
@testable import DuneEvents
import DuneTools

/// A file content for the reader, with a name for the test report.
struct ReaderFixture: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]

    var testDescription: String { name }

    static let all: [ReaderFixture] = [
        ReaderFixture(name: "empty", bytes: []),
        ReaderFixture(name: "one line", bytes: Array("a\n".utf8)),
        ReaderFixture(name: "only newlines", bytes: Array("\n\n\n".utf8)),
        ReaderFixture(name: "mixed lengths, a line longer than every chunk",
                      bytes: Array("alpha\nbe\n\ngamma-gamma-gamma\n".utf8) + Array(repeating: UInt8(ascii: "L"), count: 5000)
                          + Array("\nz\n".utf8)),
        ReaderFixture(name: "unterminated last line", bytes: Array("one\ntwo\nthr".utf8)),
        ReaderFixture(name: "only a partial first line", bytes: Array("partial".utf8)),
        ReaderFixture(name: "sealed log", bytes: (1...20).flatMap { logTestSealedLine(seq: $0, padding: $0 * 13) }),
    ]
}

@Suite struct LogLineReaderTests {
    static let chunkSizes = [1, 2, 7, 64, 4096]

    /// Reads `path` line by line and returns what the reader reported.
    func readLines(_ reader: LogLineReader, from offset: Int = 0, firstLineNumber: Int = 1) throws -> ([ObservedLine], LogLineReader.ReadEnd) {
        var lines: [ObservedLine] = []
        let end = try reader.forEachLine(startingAt: offset, firstLineNumber: firstLineNumber) { line in
            lines.append(ObservedLine(number: line.number, byteOffset: line.byteOffset, bytes: Array(line.bytes)))
        }
        return (lines, end)
    }

    @Test(arguments: ReaderFixture.all, chunkSizes)
    func linesMatchNaiveSplitForEveryChunkSize(fixture: ReaderFixture, chunkSize: Int) throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            try logTestWrite(path, fixture.bytes)
            let expected = NaiveSplit(fixture.bytes)
            let reader = try LogLineReader(path: path, chunkSize: chunkSize)

            let (lines, end) = try readLines(reader)

            #expect(lines == expected.lines)
            #expect(end == LogLineReader.ReadEnd(endOffset: fixture.bytes.count - expected.trailingByteCount,
                                                 nextLineNumber: expected.lines.count + 1,
                                                 trailingByteCount: expected.trailingByteCount))
            // The same reader (and its possibly grown buffer) reads the same again.
            let again = try readLines(reader)
            #expect(again.0 == lines)
            #expect(again.1 == end)
        }
    }

    @Test(arguments: ReaderFixture.all, chunkSizes)
    func batchesHoldWholeLinesAndCoverTheFile(fixture: ReaderFixture, chunkSize: Int) throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            try logTestWrite(path, fixture.bytes)
            let expected = NaiveSplit(fixture.bytes)
            let reader = try LogLineReader(path: path, chunkSize: chunkSize)

            var covered: [UInt8] = []
            var nextLineNumber = 1
            var lines: [ObservedLine] = []
            let end = try reader.forEachBatch { batch in
                #expect(batch.bytes.last == UInt8(ascii: "\n"))
                #expect(batch.byteOffset == covered.count)
                #expect(batch.firstLineNumber == nextLineNumber)
                covered += Array(batch.bytes)
                nextLineNumber = batch.nextLineNumber
                batch.forEachLine { line in
                    lines.append(ObservedLine(number: line.number, byteOffset: line.byteOffset, bytes: Array(line.bytes)))
                }
            }

            #expect(covered == Array(fixture.bytes.dropLast(expected.trailingByteCount)))
            #expect(lines == expected.lines)
            #expect(end.endOffset == covered.count)
            #expect(end.nextLineNumber == nextLineNumber)
        }
    }

    @Test func unterminatedLastLineIsNotYieldedUntilItIsComplete() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            try logTestWrite(path, Array("a\nb\npar".utf8))
            let writer = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)
            let reader = try LogLineReader(path: path, chunkSize: 2)

            let (first, firstEnd) = try readLines(reader)
            #expect(first == [ObservedLine(number: 1, byteOffset: 0, bytes: Array("a".utf8)),
                              ObservedLine(number: 2, byteOffset: 2, bytes: Array("b".utf8))])
            #expect(firstEnd == LogLineReader.ReadEnd(endOffset: 4, nextLineNumber: 3, trailingByteCount: 3))

            try writer.append(Array("tial\nc\n".utf8), sync: false)
            let (rest, restEnd) = try readLines(reader, from: firstEnd.endOffset, firstLineNumber: firstEnd.nextLineNumber)
            #expect(rest == [ObservedLine(number: 3, byteOffset: 4, bytes: Array("partial".utf8)),
                             ObservedLine(number: 4, byteOffset: 12, bytes: Array("c".utf8))])
            #expect(restEnd == LogLineReader.ReadEnd(endOffset: 14, nextLineNumber: 5, trailingByteCount: 0))
        }
    }

    @Test func readingStartsAtAGivenLineWithItsNumber() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let bytes = Array("first\nsecond\nthird\n".utf8)
            try logTestWrite(path, bytes)
            let (lines, end) = try readLines(try LogLineReader(path: path, chunkSize: 4), from: 6, firstLineNumber: 2)
            #expect(lines == NaiveSplit(Array(bytes[6...]), firstLineNumber: 2, startOffset: 6).lines)
            #expect(end == LogLineReader.ReadEnd(endOffset: bytes.count, nextLineNumber: 4, trailingByteCount: 0))

            let (none, pastEnd) = try readLines(try LogLineReader(path: path), from: 1000, firstLineNumber: 9)
            #expect(none.isEmpty)
            #expect(pastEnd == LogLineReader.ReadEnd(endOffset: 1000, nextLineNumber: 9, trailingByteCount: 0))
        }
    }

    @Test func readsTheWritersOwnFileWithoutDisturbingAppends() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let writer = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            try writer.append(logTestSealedLine(seq: 1), sync: false)
            let reader = LogLineReader(file: writer, chunkSize: 16)
            let (lines, _) = try readLines(reader)
            #expect(lines.count == 1)
            try writer.append(logTestSealedLine(seq: 2), sync: false)
            #expect(try logTestRead(path) == logTestSealedLine(seq: 1) + logTestSealedLine(seq: 2))
        }
    }

    @Test func aThrowFromTheBodyStopsTheRead() throws {
        struct Stop: Error {}
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            try logTestWrite(path, Array("a\nb\nc\n".utf8))
            let reader = try LogLineReader(path: path, chunkSize: 1)
            var seen: [Int] = []
            #expect(throws: Stop.self) {
                _ = try reader.forEachLine { line in
                    seen.append(line.number)
                    if line.number == 2 { throw Stop() }
                }
            }
            #expect(seen == [1, 2])
            // The reader is usable again afterwards.
            #expect(try readLines(reader).0.count == 3)
        }
    }

    @Test func missingFileIsInputUnavailable() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/missing.jsonl"
            let error = try #require(throws: DuneEventsError.self) { _ = try LogLineReader(path: path) }
            #expect(error.code == .inputUnavailable)
            #expect(error.location == DuneEventsError.Location(path: path))
        }
    }
}
