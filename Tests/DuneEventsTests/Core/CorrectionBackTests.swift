import Foundation
import Testing
@testable import DuneEvents
@testable import DuneTools

/// Issue 35, item 6: a line with an `eventID` the log has not seen,
/// whose content equals an older version of a live sample but not its current
/// one, is a correction back to that version (48 → 50 → 48). Without a new
/// `eventID` an old version stays `alreadyAppended`, so re-ingesting an old
/// file never undoes a correction.
@Suite struct CorrectionBackTests {
    static func hrv(_ value: Double, eventID: String? = nil) -> String {
        let key = eventID.map { #""eventID":"\#($0)","# } ?? ""
        return #"{\#(key)"type":"sample","kind":"hrv","id":"W1","start":"2026-02-02T06:00:00+01:00","end":"2026-02-02T06:01:00+01:00","value":\#(value),"unit":"ms","source":"Apple Watch"}"#
    }

    static func outcomes(_ log: EventLog, _ lines: [String]) async throws -> [IngestOutcome] {
        try await log.ingest(try lines.map { try InputParser.parse($0) }).results.map(\.outcome)
    }

    /// The value the last stored version of sample W1 holds.
    static func currentValue(_ path: String) throws -> Double? {
        var value: Double?
        for event in try LogReader(path: path).events() {
            if case .sampleIngested(let sample) = event.payload, sample.id == "W1", case .quantity(let quantity) = sample.reading {
                value = quantity.value
            }
        }
        return value
    }

    @Test func aNewEventIDRevertsAndAnOldFileUndoesNothing() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            let firstFile = [Self.hrv(48), Self.hrv(50)]
            #expect(try await Self.outcomes(log, firstFile) == [.appended, .appended])
            // Back to 48 without an eventID: an old version re-sent, not a correction.
            #expect(try await Self.outcomes(log, [Self.hrv(48)]) == [.alreadyAppended])
            #expect(try Self.currentValue(path) == 50)
            // With an eventID the log has not seen: a correction back.
            #expect(try await Self.outcomes(log, [Self.hrv(48, eventID: "revert-1")]) == [.appended])
            #expect(try Self.currentValue(path) == 48)
            // The same line again: its eventID is seen; the current content with a new eventID changes nothing.
            #expect(try await Self.outcomes(log, [Self.hrv(48, eventID: "revert-1"), Self.hrv(48, eventID: "again")])
                    == [.alreadyAppended, .alreadyAppended])
            await log.close()

            // A new process (state folded from the log): re-ingesting the first file undoes nothing.
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let reopened = try EventLog(path: path, options: EventLog.Options(checkpointBytes: nil))
            #expect(try await Self.outcomes(reopened, firstFile) == [.alreadyAppended, .alreadyAppended])
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            // It knows 48 is current: 50 with a new eventID corrects back again.
            #expect(try await Self.outcomes(reopened, [Self.hrv(50, eventID: "revert-2")]) == [.appended])
            #expect(try Self.currentValue(path) == 50)
            await reopened.close()
        }
    }

    @Test func aDeletedSampleIsNotRevivedByAnOlderVersion() async throws {
        try await withTemporaryDirectory { directory in
            let log = try EventLog(path: directory + "/events.jsonl")
            let deletion = #"{"type":"sampleDeleted","id":"W1","at":"2026-02-02T08:00:00Z"}"#
            #expect(try await Self.outcomes(log, [Self.hrv(48), Self.hrv(50), deletion, Self.hrv(48, eventID: "late")])
                    == [.appended, .appended, .appended, .alreadyAppended])
            await log.close()
        }
    }

    /// The current version survives a checkpoint (written and read back), and
    /// `ingest`'s fast byte path decides as the parsed path does.
    @Test func theCurrentVersionIsInTheCheckpointAndTheFastPathAgrees() async throws {
        var state = IngestState()
        for (seq, line) in [Self.hrv(48), Self.hrv(50), Self.hrv(48, eventID: "r")].enumerated() {
            let command = try InputParser.parse(line)
            let decision = state.decide(command)
            #expect(decision.outcome == .appended)
            for event in decision.events {
                state.evolve(with: RecordedEvent(seq: seq + 1, id: "e\(seq)", recordedAt: Timestamp(epochSeconds: 0, offsetSeconds: 0), event: event),
                             content: command.content)
            }
        }
        var writer = BinaryWriter()
        state.write(to: &writer)
        var reader = BinaryReader(writer.bytes, from: 0)
        let restored = try #require(IngestState(from: &reader))
        #expect(restored == state)
        #expect(restored.decide(try InputParser.parse(Self.hrv(50, eventID: "r2"))).outcome == .appended)
        #expect(restored.decide(try InputParser.parse(Self.hrv(48, eventID: "r3"))).outcome == .alreadyAppended)

        try await withTemporaryDirectory { directory in
            let input = directory + "/input.jsonl"
            let lines = [Self.hrv(48), Self.hrv(50), Self.hrv(48), Self.hrv(48, eventID: "fast-1"), Self.hrv(48, eventID: "fast-2")]
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))
            let log = try EventLog(path: directory + "/events.jsonl")
            var session = IngestSession(log: log, batchSize: 2)
            let reader = try InputLineReader(path: input)
            while let line = try reader.next() { try await session.submit(line: line, input: "input") }
            let summary = try await session.finish()
            await log.close()
            #expect(summary.appended == 3 && summary.alreadyAppended == 2)
            #expect(try Self.currentValue(directory + "/events.jsonl") == 48)
        }
    }
}
