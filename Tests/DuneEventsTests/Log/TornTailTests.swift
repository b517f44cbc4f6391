import Foundation
import Testing
@testable import DuneEvents
import DuneTools

@Suite struct TornTailTests {
    static let lines = [logTestSealedLine(seq: 1, padding: 2), logTestSealedLine(seq: 2, padding: 9), logTestSealedLine(seq: 3, padding: 4)]
    static let log = lines.flatMap { $0 }
    /// Offsets where a line ends (and the next begins): 0, end of line 1, 2, 3.
    static let boundaries = lines.reduce(into: [0]) { ends, line in ends.append(ends[ends.count - 1] + line.count) }
    static let timestamp = "20261122T011843Z"

    /// The log cut at `cut` bytes, as after a crash in the middle of an append.
    @Test(arguments: 0...log.count)
    func tornTailIsQuarantinedAtEveryCutOffset(cut: Int) throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let onDisk = Array(Self.log[..<cut])
            try logTestWrite(path, onDisk)
            let writer = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)

            let recovery = try writer.quarantineTornTail(validLine: StoredLine.isIntact, timestamp: Self.timestamp)

            let lastGood = try #require(Self.boundaries.last { $0 <= cut })
            let sidePath = path + ".torn-" + Self.timestamp
            if lastGood == cut {
                #expect(recovery == .intact)
                #expect(try logTestListing(directory) == ["events.jsonl", "events.jsonl.synced"])
            } else {
                #expect(recovery == .quarantined(LogFile.TornTailReport(sidePath: sidePath, byteOffset: lastGood, byteCount: cut - lastGood)))
                #expect(try logTestRead(sidePath) == Array(Self.log[lastGood..<cut]))
                #expect(try logTestPermissions(sidePath) == 0o600)
            }
            #expect(try logTestRead(path) == Array(Self.log[..<lastGood]))

            // Appending after recovery gives an intact log.
            let next = logTestSealedLine(seq: 4)
            try writer.append(next, sync: true)
            var lines: [[UInt8]] = []
            let end = try LogLineReader(path: path, chunkSize: 7).forEachLine { lines.append(Array($0.bytes)) }
            #expect(end.trailingByteCount == 0)
            #expect(lines.allSatisfy { StoredLine.isIntact($0) })
            #expect(try logTestRead(path) == Array(Self.log[..<lastGood]) + next)
            #expect(try writer.quarantineTornTail() == .intact)
        }
    }

    /// Lines 1 and 2 durably synced by a writer (which leaves `<log>.synced`
    /// saying so), then `tail` written past them without a sync.
    static func syncedTwoLinesThen(_ tail: [UInt8], at path: String) throws {
        try logTestWrite(path, Self.lines[0] + Self.lines[1])
        let writer = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)
        #expect(try writer.quarantineTornTail() == .intact)
        try writer.sync()
        try writer.close()
        try logTestWrite(path, Self.lines[0] + Self.lines[1] + tail)
    }

    @Test func completeLastLineWithBadCRCPastTheSyncedLengthIsQuarantinedWithItsNewline() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            var broken = Self.lines[2]
            broken[5] ^= 0x01  // still ends with "}\n", but the CRC no longer matches
            try Self.syncedTwoLinesThen(broken, at: path)
            let writer = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)

            let recovery = try writer.quarantineTornTail(validLine: StoredLine.isIntact, timestamp: Self.timestamp)

            #expect(recovery == .quarantined(LogFile.TornTailReport(sidePath: path + ".torn-" + Self.timestamp,
                                                                   byteOffset: Self.boundaries[2], byteCount: broken.count)))
            #expect(try logTestRead(path + ".torn-" + Self.timestamp) == broken)
            #expect(try logTestRead(path) == Self.lines[0] + Self.lines[1])
        }
    }

    @Test(arguments: [
        // A bad complete line 2, then a torn (unterminated) line 3.
        [lines[0], corrupted(lines[1]), Array(lines[2].prefix(10))],
        // A bad complete line 2, then a bad complete line 3.
        [lines[0], corrupted(lines[1]), corrupted(lines[2])],
        // A bad line 1 and a torn line 2.
        [corrupted(lines[0]), Array(lines[1].prefix(4))],
    ])
    func badLineBeforeTheLastIsDamageAndIsLeftAlone(parts: [[UInt8]]) throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let content = parts.flatMap { $0 }
            try logTestWrite(path, content)
            let writer = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)

            let recovery = try writer.quarantineTornTail(validLine: StoredLine.isIntact, timestamp: Self.timestamp)

            let badLineStart = parts.dropLast(2).reduce(0) { $0 + $1.count }
            #expect(recovery == .damaged(byteOffset: badLineStart))
            #expect(try logTestRead(path) == content)
            #expect(try logTestListing(directory) == ["events.jsonl"])
        }
    }

    /// SPEC §4: a complete last line inside the synced part that fails its
    /// CRC was acknowledged. It is damage: nothing is moved aside, nothing
    /// truncated (before, it was taken for a torn tail and its seq reused).
    @Test func completeLastLineWithBadCRCInsideTheSyncedPartIsDamage() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            try Self.syncedTwoLinesThen(Self.lines[2], at: path)
            let writer = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)
            #expect(try writer.quarantineTornTail() == .intact)
            try writer.sync()  // all three lines synced now
            try writer.close()
            var content = try logTestRead(path)
            content[Self.boundaries[2] + 5] ^= 0x01
            try logTestWrite(path, content)

            let again = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)
            #expect(try again.quarantineTornTail(validLine: StoredLine.isIntact, timestamp: Self.timestamp) == .damaged(byteOffset: Self.boundaries[2]))
            #expect(try logTestRead(path) == content)
            #expect(try logTestListing(directory) == ["events.jsonl", "events.jsonl.synced"])
        }
    }

    /// Without `<log>.synced` (a log of an older version) every complete
    /// line counts as synced: a bad complete last line is damage too.
    @Test func completeLastLineWithBadCRCWithoutARecordIsDamage() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let content = Self.lines[0] + Self.lines[1] + Self.corrupted(Self.lines[2])
            try logTestWrite(path, content)
            let writer = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)
            #expect(try writer.quarantineTornTail(validLine: StoredLine.isIntact, timestamp: Self.timestamp) == .damaged(byteOffset: Self.boundaries[2]))
            #expect(try logTestRead(path) == content)
            #expect(try logTestListing(directory) == ["events.jsonl"])
        }
    }

    static func corrupted(_ line: [UInt8]) -> [UInt8] {
        var line = line
        line[3] = UInt8(ascii: "X")
        return line
    }

    @Test func callersCheckDecidesWhatIsGood() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            try logTestWrite(path, Array("good\ngood\nbad!".utf8))
            let writer = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)
            let recovery = try writer.quarantineTornTail(validLine: { Array($0) == Array("good".utf8) }, timestamp: Self.timestamp)
            #expect(recovery == .quarantined(LogFile.TornTailReport(sidePath: path + ".torn-" + Self.timestamp, byteOffset: 10, byteCount: 4)))
            #expect(try logTestRead(path) == Array("good\ngood\n".utf8))
            // The default check (the CRC) finds the line before the torn bytes bad: damage.
            try logTestWrite(path, Array("good\ngood\npart".utf8))
            #expect(try writer.quarantineTornTail() == .damaged(byteOffset: 5))
        }
    }

    @Test func takenSideFileNamesGetACounter() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let base = path + ".torn-" + Self.timestamp
            try logTestWrite(base, Array("older".utf8))
            try logTestWrite(base + "-2", Array("older".utf8))
            try logTestWrite(path, Self.lines[0] + Array(Self.lines[1].prefix(3)))
            let writer = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)

            let recovery = try writer.quarantineTornTail(validLine: StoredLine.isIntact, timestamp: Self.timestamp)

            #expect(recovery == .quarantined(LogFile.TornTailReport(sidePath: base + "-3", byteOffset: Self.boundaries[1], byteCount: 3)))
            #expect(try logTestRead(base) == Array("older".utf8))
            #expect(try logTestRead(base + "-3") == Array(Self.lines[1].prefix(3)))
        }
    }

    @Test func sideFileIsNamedWithTheUTCTime() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            try logTestWrite(path, Array("{partial".utf8))
            let writer = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)

            guard case .quarantined(let report) = try writer.quarantineTornTail() else {
                Issue.record("expected a quarantined tail")
                return
            }
            let name = String(report.sidePath.dropFirst(path.count))
            #expect(name.wholeMatch(of: /\.torn-\d{8}T\d{6}Z/) != nil, "\(name)")
            #expect(report.byteOffset == 0 && report.byteCount == 8)
            #expect(try logTestRead(path).isEmpty)
            #expect(report.description == "torn last line: moved 8 bytes from byte 0 to '\(report.sidePath)' and truncated the log to the last good line")
        }
    }

    @Test func timestampFormat() {
        #expect(LogFile.sideFileTimestamp(secondsSince1970: 1_795_310_323) == "20261122T011843Z")
        #expect(LogFile.sideFileTimestamp(secondsSince1970: 951_868_799) == "20000229T235959Z")
        #expect(LogFile.sideFileTimestamp(secondsSince1970: 0) == "19700101T000000Z")
    }

    @Test func longTornTailIsFoundAndMovedInChunks() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            // Zeros, as a crash can leave after delayed allocation: no newline for 200 KiB.
            let zeros = [UInt8](repeating: 0, count: 200 * 1024)
            try logTestWrite(path, Self.log + zeros)
            let writer = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)

            let recovery = try writer.quarantineTornTail(validLine: StoredLine.isIntact, timestamp: Self.timestamp)

            #expect(recovery == .quarantined(LogFile.TornTailReport(sidePath: path + ".torn-" + Self.timestamp,
                                                                   byteOffset: Self.log.count, byteCount: zeros.count)))
            #expect(try logTestRead(path + ".torn-" + Self.timestamp) == zeros)
            #expect(try logTestRead(path) == Self.log)
        }
    }
}
