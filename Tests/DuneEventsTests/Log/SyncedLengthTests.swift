import Foundation
import Testing
@testable import DuneEvents
@testable import DuneTools

/// `<log>.synced` (SPEC §4): the last length known to be durably synced
/// separates a crash artifact (moved aside) from damage to acknowledged
/// lines (refused). Regression tests for the two halves of issue 24's gap.
@Suite struct SyncedLengthTests {
    /// The record's length, or `nil` when there is none that decodes.
    static func recordedLength(_ path: String) -> Int? {
        (try? logTestRead(SyncedLengthRecord.path(forLog: path))).flatMap(SyncedLengthRecord.decode)?.length
    }

    static func fileNames(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    /// Before: one flipped byte in an acknowledged last line, and the next
    /// writer moved the line aside as a "torn last line" and gave its seq to
    /// a new event. Now the open is refused and nothing is moved.
    @Test func anAcknowledgedLastLineThatFailsItsCRCIsRefusedAndItsSeqNeverReused() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            _ = try await log.ingest(try LogFixture.commands())
            await log.close()
            var content = try logTestRead(path)
            let lastLineStart = try #require(content.dropLast().lastIndex(of: UInt8(ascii: "\n"))) + 1
            content[lastLineStart + 20] ^= 0x01
            try logTestWrite(path, content)

            do {
                _ = try EventLog(path: path)
                Issue.record("a log whose acknowledged last line is damaged was opened for appending")
            } catch let error as DuneEventsError {
                #expect(error.code == .corruptLog)
                #expect(error.location.byteOffset == lastLineStart)
            }
            #expect(try logTestRead(path) == content)
            #expect(try Self.fileNames(directory) == ["events.jsonl", "events.jsonl.synced"])
        }
    }

    /// Before: a power loss that kept the last line but lost the one before
    /// it (zeros) made every command exit 65. Both lie past the synced
    /// length: they were never acknowledged, go to the side file, and the
    /// next writer appends.
    @Test func damageBeyondTheSyncedLengthIsACrashArtifactAndTheNextWriterAppends() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            let first = try await log.ingest(Array(try LogFixture.commands().prefix(4)))
            await log.close()
            let synced = try logTestRead(path)
            #expect(Self.recordedLength(path) == synced.count)
            let lastSeq = try #require(first.appended.last?.seq)
            let whole = logTestSealedLine(seq: lastSeq + 2)
            try logTestWrite(path, synced + [UInt8](repeating: 0, count: 120) + [UInt8(ascii: "\n")] + whole)

            let next = try EventLog(path: path)
            #expect(await next.warnings.contains { $0.contains("torn last line: moved \(121 + whole.count) bytes from byte \(synced.count)") })
            let result = try await next.ingest([try InputParser.parse(#"{"type":"profile","sleepTargetMinutes":420,"at":"2026-02-03T08:00:00Z"}"#)])
            await next.close()
            #expect(result.appended.first?.seq == lastSeq + 1)
            #expect(try logTestRead(path).starts(with: synced))
            let report = try LogVerifier.verify(path: path)
            #expect(report.isIntact)
            #expect(report.lastSeq == lastSeq + 1)
        }
    }

    /// A truncation below the recorded length (a batch rolled back after
    /// part of it was synced) lowers the record first: it never claims bytes
    /// that are about to be replaced.
    @Test func truncatingBelowTheSyncedLengthLowersTheRecord() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let writer = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            #expect(try writer.quarantineTornTail() == .intact)
            let one = logTestSealedLine(seq: 1)
            try writer.append(one, sync: true)
            try writer.append(logTestSealedLine(seq: 2), sync: true)
            let size = try writer.size
            #expect(Self.recordedLength(path) == size)
            try writer.truncate(to: one.count)
            #expect(Self.recordedLength(path) == one.count)
            try writer.close()
        }
    }

    /// The record names the line it ends at; a line longer than the first
    /// window read for it is still found.
    @Test func aRecordEndingAtALongLineIsInForce() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let writer = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            #expect(try writer.quarantineTornTail() == .intact)
            let long = logTestSealedLine(seq: 1, padding: 20_000)
            try writer.append(long, sync: true)
            try writer.close()
            #expect(Self.recordedLength(path) == long.count)
            // Past the synced length: a lost write (zeros), then a whole line. In force, the
            // record makes both a crash artifact; without it, the end would look intact.
            let tail = [UInt8](repeating: 0, count: 50) + [UInt8(ascii: "\n")] + logTestSealedLine(seq: 3)
            try logTestWrite(path, long + tail)
            let again = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)
            #expect(try again.quarantineTornTail(validLine: StoredLine.isIntact, timestamp: "20260101T000000Z")
                    == .quarantined(LogFile.TornTailReport(sidePath: path + ".torn-20260101T000000Z", byteOffset: long.count,
                                                           byteCount: tail.count)))
            #expect(try logTestRead(path) == long)
            try again.close()
        }
    }

    /// `forget` replaces the log: the record then describes the new one.
    @Test func forgetLeavesARecordOfTheNewLog() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            _ = try await log.ingest(try LogFixture.commands())
            var selection = ForgetSelection()
            selection.sampleIDs = ["B1"]
            _ = try await log.forget(selection, dryRun: false)
            await log.close()
            #expect(Self.recordedLength(path) == (try logTestRead(path)).count)
        }
    }
}
