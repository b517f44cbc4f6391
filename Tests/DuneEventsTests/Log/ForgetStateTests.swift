import Foundation
import Testing
@testable import DuneEvents

/// `EventLog.forget` derives the deciders' state of the rewritten log from the
/// state it held (``IngestState/erase(_:)``) instead of replaying the new log.
/// The replay stays here, as the oracle: after every forget, and after later
/// appends, the derived state must equal the state replayed from the file —
/// as a value, in its checkpoint bytes, and in its index of many corrections.
@Suite struct ForgetStateTests {
    /// The selections compared, one log each.
    enum Case: String, CaseIterable, Sendable {
        case byID, byKind, bySource, byTimeRange, deleted, kindAndSource

        var selection: ForgetSelection {
            var selection = ForgetSelection()
            switch self {
            case .byID: selection.sampleIDs = ["S3", "S8", "S13", "S25"]
            case .byKind: selection.kinds = [.bodyMass]
            case .bySource: selection.sources = ["Scale", "Ring"]
            case .byTimeRange:
                selection.from = DayKey("2026-02-03")
                selection.to = DayKey("2026-02-05")
            case .deleted: selection.deleted = true
            case .kindAndSource:
                selection.kinds = [.hrv, .workout]
                selection.sources = ["Watch"]
            }
            return selection
        }
    }

    static func day(_ number: Int) -> String { String(format: "2026-02-%02d", number) }

    static func sample(_ id: String, _ number: Int, value: Double, eventID: String? = nil, extra: String = "") -> String {
        let (kind, unit) = [("hrv", "ms"), ("bodyMass", "kg"), ("restingHeartRate", "count/min")][number % 3]
        let source = ["Watch", "Scale", "Phone", "Ring"][number % 4]
        let start = "\(day(1 + number % 10))T07:\(String(format: "%02d", number % 60)):00+01:00"
        var line = #"{"type":"sample","kind":"\#(kind)","id":"\#(id)","start":"\#(start)","end":"\#(start)","value":\#(value),"unit":"\#(unit)","source":"\#(source)""#
        if let eventID { line += #","eventID":"\#(eventID)""# }
        return line + extra + "}"
    }

    static func deletion(_ id: String, day number: Int, eventID: String? = nil) -> String {
        #"{"type":"sampleDeleted","id":"\#(id)","at":"\#(day(number))T09:00:00+01:00""# + (eventID.map { #","eventID":"\#($0)""# } ?? "") + "}"
    }

    /// Samples with eventIDs, extra fields, corrections (two samples past the
    /// indexed-corrections threshold), deletions and a revival, a workout, with
    /// profile, refresh and task lines between them.
    static var lines: [String] {
        var lines = [#"{"type":"profile","sleepTargetMinutes":450,"at":"2026-02-01T08:00:00+01:00"}"#]
        for number in 0..<30 {
            lines.append(sample("S\(number)", number, value: 40 + Double(number), eventID: number % 5 == 0 ? "ev-S\(number)" : nil,
                                extra: number == 9 ? #","device":"v2""# : ""))
            if number % 7 == 3 {
                lines.append(#"{"type":"refresh","source":"foreground","at":"\#(day(1 + number % 10))T10:00:00+01:00"}"#)
            }
            if number == 11 {
                lines.append(#"{"type":"task","task":"t1","feature":"readiness","phase":"started","at":"2026-02-02T07:00:01+01:00","eventID":"task-t1"}"#)
                lines.append(#"{"type":"sample","kind":"workout","id":"W1","start":"2026-02-04T18:00:00+01:00","end":"2026-02-04T18:40:00+01:00","activityType":"running","energy":400,"energyUnit":"kcal","source":"Watch","eventID":"ev-W1"}"#)
                lines.append(#"{"type":"task","task":"t2","feature":"readiness","phase":"started","at":"2026-02-02T07:00:05+01:00"}"#)
            }
        }
        for step in 1...10 { lines.append(sample("S3", 3, value: 60 + Double(step), eventID: step % 3 == 0 ? "ev-S3-\(step)" : nil)) }
        lines.append(sample("S4", 4, value: 70))
        lines.append(sample("S4", 4, value: 71))
        for step in 1...9 { lines.append(sample("S13", 13, value: 80 + Double(step))) }
        lines.append(sample("S14", 14, value: 90))
        lines.append(deletion("S6", day: 7, eventID: "del-S6"))
        lines.append(deletion("S7", day: 8))
        lines.append(deletion("S8", day: 9))
        lines.append(#"{"type":"refresh","source":"healthKitObserver","kind":"hrv","at":"2026-02-09T10:00:30+01:00"}"#)
        lines.append(sample("S8", 8, value: 99))
        for step in 1...3 { lines.append(sample("S25", 25, value: 50 + Double(step))) }
        lines.append(#"{"type":"task","task":"t2","feature":"readiness","phase":"completed","at":"2026-02-02T07:00:09+01:00"}"#)
        lines.append(deletion("W1", day: 5))
        return lines
    }

    /// Lines after the forget: old lines again (forgotten ones must stay out),
    /// a new sample reusing a dropped eventID, a correction, a deletion, more tasks.
    static var laterLines: [String] {
        lines.suffix(12) + [
            sample("S40", 0, value: 41, eventID: "ev-S0"),
            sample("S41", 1, value: 42, eventID: "ev-S3-3"),
            sample("S2", 2, value: 43),
            deletion("S5", day: 10),
            #"{"type":"task","task":"t3","feature":"readiness","phase":"started","at":"2026-02-10T07:00:05+01:00","eventID":"task-t3"}"#,
        ]
    }

    /// The state a replay of the log at `path` gives, by both readers (they must agree).
    func replayed(_ path: String) throws -> IngestState {
        var batched = IngestState()
        try LogReader(path: path).forEachEventBatch { batched.evolve($0) }
        var reference = IngestState()
        for event in try LogReader(path: path).events() { reference.evolve(with: event) }
        #expect(batched == reference)
        return batched
    }

    func checkpointBytes(_ state: IngestState) -> [UInt8] {
        var writer = BinaryWriter()
        state.write(to: &writer)
        return writer.bytes
    }

    /// The whole comparison: value, checkpoint encoding, and the derived index of many corrections.
    func expectDerivedEqualsReplay(_ log: EventLog, _ path: String, _ context: String,
                                   sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let derived = await log.ingestState
        let oracle = try replayed(path)
        #expect(derived == oracle, "\(context)", sourceLocation: sourceLocation)
        #expect(checkpointBytes(derived) == checkpointBytes(oracle), "\(context)", sourceLocation: sourceLocation)
        #expect(Set(derived.manyCorrections.keys) == Set(oracle.manyCorrections.keys), "\(context)", sourceLocation: sourceLocation)
    }

    @Test(arguments: Case.allCases, [false, true])
    func theDerivedStateEqualsTheReplayedOne(_ selection: Case, stateFromCheckpoint: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let options = EventLog.Options(checkpointBytes: 1)
            var log = try EventLog(path: path, options: options)
            _ = try await log.ingest(try LogFixture.commands(Self.lines))
            if stateFromCheckpoint {
                // The state held before the forget then comes from the checkpoint (its index of many corrections rebuilt).
                await log.close()
                #expect(LogCheckpoint.load(logPath: path) != nil)
                log = try EventLog(path: path, options: options)
            }
            let before = await log.ingestState
            let first = try await log.forget(selection.selection, dryRun: false)
            #expect(first.samples > 0 && first.redactedEvents >= first.samples, "\(selection)")
            #expect(await log.ingestState.forgottenSamples.count == first.samples)
            #expect(await log.ingestState != before)
            try await expectDerivedEqualsReplay(log, path, "\(selection) after the forget")

            let later = try await log.ingest(try LogFixture.commands(Self.laterLines))
            #expect(later.results.contains { IngestState.isForgottenReason($0.reason) }, "\(selection)")
            try await expectDerivedEqualsReplay(log, path, "\(selection) after appends")

            // A second forget of an early sample: its redacted lines come before the first forget's.
            var early = ForgetSelection()
            early.sampleIDs = ["S1", "S2", "S40"]
            let second = try await log.forget(early, dryRun: false)
            #expect(second.samples > 0)
            try await expectDerivedEqualsReplay(log, path, "\(selection) after a second forget")

            // The checkpoint `close` writes from the derived state matches the new log and holds the same state.
            await log.close()
            let checkpoint = try #require(LogCheckpoint.load(logPath: path))
            let file = try LogFile.openForReading(path: path)
            #expect(checkpoint.matches(file, size: try file.size))
            try file.close()
            #expect(checkpoint.state == (try replayed(path)))
        }
    }

    /// A failure after the rename (here the journal cannot be removed: a directory
    /// took its place) leaves the new log at the path. The writer that ran the
    /// forget must not append through its descriptor of the replaced file: the
    /// events would be acknowledged and lost. It refuses instead, and the next
    /// writer finishes the job and appends to the new log.
    @Test func aFailureAfterTheRenameStopsTheWriterInsteadOfAppendingToTheReplacedFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path)
            _ = try await log.ingest(try LogFixture.commands(Self.lines))
            let journal = LogEraser.journalPath(forLog: path)
            let blockJournal: @Sendable (LogEraser.Step) -> Void = { step in
                guard step == .renamed else { return }
                try? FileManager.default.removeItem(atPath: journal)
                try? FileManager.default.createDirectory(atPath: journal + "/blocked", withIntermediateDirectories: true)
            }
            var selection = ForgetSelection()
            selection.kinds = [.bodyMass]
            await #expect(throws: DuneEventsError.self) {
                try await log.forget(selection, dryRun: false, step: blockJournal)
            }
            let late = [Self.sample("S90", 1, value: 45)]
            await #expect(throws: DuneEventsError.self) {
                try await log.ingest(try LogFixture.commands(late))
            }
            await log.close()

            try FileManager.default.removeItem(atPath: journal)
            let next = try EventLog(path: path)
            let appended = try await next.ingest(try LogFixture.commands(late))
            #expect(appended.appended.count == 1)
            await next.close()
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains(#""id":"S90""#))
            #expect(text.contains("data.forgotten"))
        }
    }
}
