import Foundation
import Synchronization
import Testing
@testable import DuneEvents
import DuneFixtures
@testable import DuneTools

/// Input lines used by the log tests: samples, a correction, a deletion,
/// refreshes, tasks and a profile update.
enum LogFixture {
    static let lines: [String] = [
        #"{"type":"profile","sleepTargetMinutes":450,"at":"2026-02-01T08:00:00+01:00"}"#,
        #"{"type":"sample","kind":"hrv","id":"H1","start":"2026-02-02T06:00:00+01:00","end":"2026-02-02T06:01:00+01:00","value":48.2,"unit":"ms","source":"Apple Watch"}"#,
        #"{"type":"sample","kind":"hrv","id":"H1","start":"2026-02-02T06:00:00+01:00","end":"2026-02-02T06:01:00+01:00","value":52,"unit":"ms","source":"Apple Watch"}"#,
        #"{"type":"sample","kind":"bodyMass","id":"B1","start":"2026-02-02T07:00:00+01:00","end":"2026-02-02T07:00:00+01:00","value":180,"unit":"lb","source":"Scale"}"#,
        #"{"type":"sampleDeleted","id":"B1","at":"2026-02-02T09:00:00+01:00"}"#,
        #"{"type":"refresh","source":"foreground","at":"2026-02-02T07:00:00+01:00"}"#,
        #"{"type":"refresh","source":"healthKitObserver","kind":"hrv","at":"2026-02-02T07:00:30+01:00"}"#,
        #"{"type":"task","task":"t1","feature":"readiness","phase":"started","at":"2026-02-02T07:00:01+01:00","eventID":"task-t1-start"}"#,
        #"{"type":"task","task":"t2","feature":"readiness","phase":"started","at":"2026-02-02T07:00:05+01:00"}"#,
        #"{"type":"task","task":"t2","feature":"readiness","phase":"failed","error":"Cancelled","at":"2026-02-02T07:00:09+01:00"}"#,
    ]

    static func commands(_ lines: [String] = lines) throws -> [IngestCommand] {
        try lines.map { try InputParser.parse($0) }
    }
}

@Suite struct EventLogTests {
    @Test func appendsWithGaplessSeqAndDecidesEveryLine() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            let result = try await log.ingest(try LogFixture.commands())
            #expect(result.results.map(\.outcome) == Array(repeating: .appended, count: 10))
            // t2 started while t1 was in flight: a superseding cancellation comes first (seq 8), then t2 (seq 9).
            #expect(result.results.map(\.seqs) == [1...1, 2...2, 3...3, 4...4, 5...5, 6...6, 7...7, 8...8, 9...10, 11...11])
            #expect(result.appended.map(\.seq) == Array(1...11))
            #expect(result.appended.map(\.type) == [.profileUpdated, .sampleIngested, .sampleIngested, .sampleIngested, .sampleDeleted,
                                                    .refreshRequested, .refreshRequested, .taskStarted, .taskCancelled, .taskStarted, .taskCancelled])
            if case .refreshRequested(let record) = result.appended[6].payload {
                #expect(record.outcome == .throttled && record.reason == .coordinatorThrottle)
            } else {
                Issue.record("expected a refresh")
            }
            await log.close()
            let stored = try LogReader(path: path).events()
            #expect(stored == result.appended)
            #expect(try LogVerifier.verify(path: path).isIntact)
        }
    }

    /// Opening a long log replays the deciders' state in batches; a cancelled
    /// open stops between two of them, throws, and releases the lock.
    @Test func anOpenAskedToStopStopsBetweenReplayBatchesAndReleasesTheLock() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let first = try EventLog(path: path, options: EventLog.Options(checkpointBytes: nil))
            let commands = SyntheticHealthData(days: 120, seed: 9).lines().compactMap { try? InputParser.parse($0) }
            _ = try await first.ingest(commands)
            await first.close()
            final class Asked: Sendable {
                let count = Mutex(0)
            }
            let asked = Asked()
            #expect(throws: DuneEventsError(.closed, "the open was cancelled", location: .init(path: path))) {
                _ = try EventLog(path: path, options: EventLog.Options(checkpointBytes: nil), isCancelled: {
                    asked.count.withLock { count in
                        count += 1
                        return count > 1  // stop at the second batch
                    }
                })
            }
            #expect(asked.count.withLock { $0 } == 2)
            let again = try EventLog(path: path, options: EventLog.Options(checkpointBytes: nil))
            #expect(try await again.lastSeq > 10_000)
            await again.close()
        }
    }

    @Test func ingestingTheSameInputTwiceLeavesTheLogByteIdentical() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let first = try EventLog(path: path)
            _ = try await first.ingest(try LogFixture.commands())
            await first.close()
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            // A new process rebuilds its state from the log alone.
            let second = try EventLog(path: path)
            let result = try await second.ingest(try LogFixture.commands())
            await second.close()
            #expect(result.results.map(\.outcome) == Array(repeating: .alreadyAppended, count: 10))
            #expect(result.appended.isEmpty)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test func idempotencyOutcomes() async throws {
        try await withTemporaryDirectory { directory in
            let log = try EventLog(path: directory + "/events.jsonl")
            let lines = [
                #"{"eventID":"e1","type":"refresh","source":"pullToRefresh","at":"2026-02-02T07:00:00Z"}"#,
                // Same eventID, same content → alreadyAppended.
                #"{"at":"2026-02-02T07:00:00Z","source":"pullToRefresh","type":"refresh","eventID":"e1"}"#,
                // Same eventID, other content → conflict.
                #"{"eventID":"e1","type":"refresh","source":"pullToRefresh","at":"2026-02-02T07:05:00Z"}"#,
                // Deleting a sample never seen → alreadyAppended.
                #"{"type":"sampleDeleted","id":"nope","at":"2026-02-02T07:00:00Z"}"#,
                #"{"type":"sample","kind":"stepCount","id":"S","start":"2026-02-02T07:00:00Z","end":"2026-02-02T07:10:00Z","value":100,"unit":"count","source":"iPhone"}"#,
                // A correction appends; re-sending either version does not.
                #"{"type":"sample","kind":"stepCount","id":"S","start":"2026-02-02T07:00:00Z","end":"2026-02-02T07:10:00Z","value":120,"unit":"count","source":"iPhone"}"#,
                #"{"type":"sample","kind":"stepCount","id":"S","start":"2026-02-02T07:00:00Z","end":"2026-02-02T07:10:00Z","value":100,"unit":"count","source":"iPhone"}"#,
                #"{"type":"sampleDeleted","id":"S","at":"2026-02-02T08:00:00Z"}"#,
                #"{"type":"sampleDeleted","id":"S","at":"2026-02-02T08:05:00Z"}"#,
                // A task phase reported twice with other content is a conflict.
                #"{"type":"task","task":"t","feature":"trends","phase":"started","at":"2026-02-02T07:00:00Z"}"#,
                #"{"type":"task","task":"t","feature":"trends","phase":"started","at":"2026-02-02T07:00:01Z"}"#,
            ]
            let result = try await log.ingest(try LogFixture.commands(lines))
            #expect(result.results.map(\.outcome) == [.appended, .alreadyAppended, .conflict, .alreadyAppended, .appended, .appended,
                                                      .alreadyAppended, .appended, .alreadyAppended, .appended, .conflict])
            #expect(result.results[2].reason == "eventID \"e1\" is already in the log (seq 1) with different content; use a new eventID for a new event")
            #expect(result.results[10].reason == "task t already has a started event (seq 5) with different content")
            await log.close()
        }
    }

    @Test func atomicBatchWithAConflictAppendsNothing() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            _ = try await log.ingest(try LogFixture.commands([#"{"eventID":"e1","type":"refresh","source":"pullToRefresh","at":"2026-02-02T07:00:00Z"}"#]))
            let result = try await log.ingest(try LogFixture.commands([
                #"{"type":"refresh","source":"pullToRefresh","at":"2026-02-02T07:10:00Z"}"#,
                #"{"eventID":"e1","type":"refresh","source":"pullToRefresh","at":"2026-02-02T07:05:00Z"}"#,
            ]), atomic: true)
            #expect(result.results.map(\.outcome) == [.appended, .conflict])
            #expect(result.appended.isEmpty)
            #expect(try await log.lastSeq == 1)
            await log.close()
            #expect(try LogReader(path: path).events().count == 1)
        }
    }

    @Test func aSecondWriterIsRefusedWithLogLocked() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            #expect(throws: DuneEventsError.self) { try EventLog(path: path) }
            do {
                _ = try EventLog(path: path)
            } catch let error as DuneEventsError {
                #expect(error.code == .logLocked)
            }
            await log.close()
            let again = try EventLog(path: path)
            await again.close()
        }
    }

    @Test func tornTailAtEveryOffsetIsQuarantinedAndAppendsContinue() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            _ = try await log.ingest(try LogFixture.commands(Array(LogFixture.lines.prefix(3))))
            await log.close()
            let full = try Data(contentsOf: URL(fileURLWithPath: path))
            let lastLineStart = full.dropLast().lastIndex(of: UInt8(ascii: "\n"))! + 1
            for cut in lastLineStart...full.count {
                let casePath = directory + "/cut-\(cut).jsonl"
                try full.prefix(cut).write(to: URL(fileURLWithPath: casePath))
                let reopened = try EventLog(path: casePath)
                let torn = cut > lastLineStart && cut < full.count
                #expect(await reopened.warnings.count == (torn ? 1 : 0), "cut at \(cut)")
                #expect(try await reopened.lastSeq == (cut == full.count ? 3 : 2), "cut at \(cut)")
                // The cut line's sample is appended again (from input) and the log stays valid.
                let result = try await reopened.ingest(try LogFixture.commands(Array(LogFixture.lines.prefix(3))))
                #expect(result.results.map(\.outcome) == (cut == full.count ? [.alreadyAppended, .alreadyAppended, .alreadyAppended]
                                                                              : [.alreadyAppended, .alreadyAppended, .appended]), "cut at \(cut)")
                await reopened.close()
                let report = try LogVerifier.verify(path: casePath)
                #expect(report.isIntact && report.lastSeq == 3, "cut at \(cut)")
            }
        }
    }

    @Test func damageBeforeTheLastLineRefusesAppends() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            _ = try await log.ingest(try LogFixture.commands())
            await log.close()
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let secondLine = bytes.firstIndex(of: UInt8(ascii: "\n"))! + 1
            bytes[secondLine + 40] ^= 0x01
            try bytes.write(to: URL(fileURLWithPath: path))
            do {
                _ = try EventLog(path: path)
                Issue.record("opening a damaged log must fail")
            } catch let error as DuneEventsError {
                #expect(error.code == .corruptLog)
                #expect(error.location.line == 2)
                #expect(error.location.byteOffset == secondLine)
            }
            let report = try LogVerifier.verify(path: path)
            #expect(report.problems == [LogVerifier.Problem(line: 2, byteOffset: secondLine, reason: "CRC mismatch: the line's bytes changed after it was written")])
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        }
    }

    @Test func createdLogIsPrivate() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/nested/events.jsonl"
            let log = try EventLog(path: path)
            await log.close()
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
        }
    }
}

/// Runs `body` with a fresh directory that is removed afterwards.
func withTemporaryDirectory(_ body: (String) async throws -> Void) async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("DuneEventsTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    try await body(url.path)
}

@Suite struct VerifierWriterTests {
    @Test func bytesAfterTheLastNewlineAreATornTailOnlyWithoutAnActiveWriter() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            _ = try await log.ingest(try LogFixture.commands())
            // Half a line, as a writer in the middle of its write(2) would leave it.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(#"{"v":1,"seq":12,"#.utf8))
            try handle.close()
            let whileWriting = try LogVerifier.verify(path: path)
            #expect(whileWriting.writerActive && whileWriting.isIntact && whileWriting.trailingBytes == 16)
            await log.close()
            let afterwards = try LogVerifier.verify(path: path)
            #expect(!afterwards.writerActive && !afterwards.isIntact && afterwards.trailingBytes == 16)
        }
    }
}
