import Foundation
import Testing
@testable import DuneEvents
@testable import DuneTools

/// The rewrite behind `forget`: redacted lines and `data.forgotten` decode
/// everywhere, forgotten ids survive a reopen and a checkpoint, and an
/// interrupted job is finished or discarded by the next writer.
@Suite struct LogEraserTests {
    func forgetB1(_ path: String, checkpointBytes: Int? = nil) async throws -> ForgetReport {
        let log = try EventLog(path: path, options: .init(checkpointBytes: checkpointBytes))
        _ = try await log.ingest(try LogFixture.commands())
        var selection = ForgetSelection()
        selection.sampleIDs = ["B1"]
        let report = try await log.forget(selection, dryRun: false)
        await log.close()
        return report
    }

    @Test func redactedLinesAndTheForgetRecordDecodeTheSameOnEveryPath() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let report = try await forgetB1(path)
            #expect(report.sampleIDs == ["B1"] && report.redactedEvents == 2 && report.forgottenSeq == 12)
            let reference = try LogReader(path: path).events()
            var batched: [RecordedEvent] = []
            for try await batch in try LogReader(path: path).eventBatches() {
                for index in 0..<batch.count { batched.append(batch[index]) }
            }
            #expect(batched == reference)
            #expect(reference[3].payload == .redacted(RedactedEvent(sampleID: "B1", type: .sampleIngested)))
            #expect(reference[4].payload == .redacted(RedactedEvent(sampleID: "B1", type: .sampleDeleted)))
            #expect(reference[11].payload == .dataForgotten(ForgetRecord(selectors: ["sample"], samples: 1, events: 2)))
            // Encoding what was decoded gives the stored bytes back.
            let stored = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { String($0) + "\n" }
            for (event, line) in zip(reference, stored) {
                #expect(EventCodec.encodeLine(event) == Array(line.utf8))
            }
            let verify = try LogVerifier.verify(path: path)
            #expect(verify.problems.isEmpty)
        }
    }

    @Test func forgottenIdsStayForgottenAcrossAReopenAndACheckpoint() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            _ = try await forgetB1(path, checkpointBytes: 1)
            for checkpointBytes in [1, 1, nil] as [Int?] {
                let log = try EventLog(path: path, options: .init(checkpointBytes: checkpointBytes))
                let again = try await log.ingest(try LogFixture.commands([LogFixture.lines[3], LogFixture.lines[4]]))
                #expect(again.results.map(\.outcome) == [.alreadyAppended, .alreadyAppended])
                #expect(again.results.allSatisfy { IngestState.isForgottenReason($0.reason) })
                await log.close()
            }
            #expect(LogCheckpoint.load(logPath: path)?.state.isForgotten("B1") == true)
        }
    }

    @Test func theNextWriterDiscardsAnUnfinishedNewLog() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            _ = try await log.ingest(try LogFixture.commands())
            await log.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            try Data("half a new log".utf8).write(to: URL(fileURLWithPath: LogEraser.newLogPath(forLog: path)))
            try Data("journal".utf8).write(to: URL(fileURLWithPath: LogEraser.journalPath(forLog: path)))
            #expect(LogEraser.interruptedJobWarning(path: path)?.contains("the log is the old one") == true)

            let next = try EventLog(path: path)
            #expect(await next.warnings.contains { $0.contains("discarded the unfinished new log") })
            await next.close()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["events.jsonl", "events.jsonl.synced"])
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test func theNextWriterFinishesTheCleanupAfterTheRename() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            _ = try await forgetB1(path)
            for name in [".torn-20260101T000000Z", ".checkpoint", ".snapshot", ".snapshot.tmp-123", ".forget-journal"] {
                try Data("left behind".utf8).write(to: URL(fileURLWithPath: path + name))
            }
            try Data("mine".utf8).write(to: URL(fileURLWithPath: directory + "/notes.txt"))
            let next = try EventLog(path: path, options: .init(checkpointBytes: nil))
            #expect(await next.warnings.contains { $0.contains("finished the cleanup of an interrupted forget (deleted 4 files") })
            await next.close()
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["events.jsonl", "events.jsonl.synced", "notes.txt"])
        }
    }

    /// The new log's writer: pieces of every size, across more than one whole
    /// buffer, land in order whether or not the writes bypass the page cache;
    /// after `finish` the descriptor takes ordinary (unaligned) appends.
    @Test func theNewLogWriterWritesEveryPieceInOrderAndEndsInTheUsualMode() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/new.jsonl"
            let descriptor = try FileSystem.createFile(path, access: .readWriteAppend, ifExists: .fail, protection: .none)
            defer { try? descriptor.close() }
            var random = AppleHealthTestRandom(state: 13)
            var expected: [UInt8] = []
            let writer = LogEraser.NewLogWriter(descriptor: descriptor, path: path)
            while expected.count < (8 << 20) * 2 + 12_345 {
                let size = [1, 7, 4096, 4097, 65_537, 1 << 20, 3 << 20].randomElement(using: &random)!
                var piece = [UInt8](repeating: UInt8.random(in: 0...255, using: &random), count: size)
                piece[size - 1] = UInt8.random(in: 0...255, using: &random)
                if Bool.random(using: &random) { try writer.write(piece) } else { try ByteView.with(piece) { try writer.write($0) } }
                expected += piece
            }
            try writer.finish()
            #expect(writer.written == expected.count)
            let appended = Array("{\"seq\":2}\n".utf8)
            try appended.withUnsafeBytes { try descriptor.writeAll($0) }
            #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == expected + appended)
        }
    }

    @Test func aSelectionSelectsASampleWhenAnyVersionMatches() throws {
        var selection = ForgetSelection()
        #expect(selection.isEmpty)
        selection.sources = ["Scale"]
        selection.from = DayKey("2026-02-02")
        #expect(selection.selectorKinds == ["from", "source"])
        let start = try Timestamp(parsing: "2026-02-02T07:00:00+01:00")
        let sample = Sample(id: "B1", kind: .bodyMass, start: start, end: start, source: "Scale",
                            reading: .quantity(Quantity(value: 80, inputValue: 80, inputUnit: "kg")))
        #expect(selection.matches(sample))
        selection.to = DayKey("2026-02-01")
        #expect(!selection.matches(sample))
    }
}
