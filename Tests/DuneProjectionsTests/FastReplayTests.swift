import Foundation
import Testing
import DuneEvents
import DuneFixtures
import DuneOracles
@testable import DuneProjections
import DuneTools

/// The fast replay path — chunks decoded in parallel into `EventBatch`es that
/// the projections fold from their compact rows — gives byte for byte the
/// files of the reference path (every line through `EventCodec.decode`, every
/// event folded in full), and the same projection states.
@Suite struct FastReplayTests {
    /// A log of 50 generated days (with rare forms added), written through `EventLog`.
    static func withLog<T>(_ body: (String, [RecordedEvent]) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fast-replay-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        let extra = [
            #"{"type":"sample","kind":"stepCount","id":"steps-text-id","start":"2026-01-20T10:00:00+01:00","end":"2026-01-20T10:05:00+01:00","value":300,"unit":"count","source":"iPhone"}"#,
            #"{"type":"sample","kind":"stepCount","id":"8264D208-F9AE-4BCC-AC75-D0A4FCC88740","start":"2026-01-20T10:00:00+00:00","end":"2026-01-20T10:05:00Z","value":1200,"unit":"count","source":"Apple Watch","eventID":"x-1"}"#,
            #"{"type":"sample","kind":"stepCount","id":"8264D208-F9AE-4BCC-AC75-D0A4FCC88740","start":"2026-01-21T10:00:00Z","end":"2026-01-21T10:05:00Z","value":1300,"unit":"count","source":"Apple Watch"}"#,
            #"{"type":"sample","kind":"hrv","id":"hrv-text","start":"2026-01-21T06:00:00.250+01:00","end":"2026-01-21T06:01:00+01:00","value":51.5,"unit":"ms","source":"Polar \"H10\""}"#,
            #"{"type":"sampleDeleted","id":"steps-text-id","at":"2026-01-22T08:00:00Z"}"#,
        ]
        let lines = SyntheticHealthData(days: 50, seed: 3, density: 3).lines() + extra
        let log = try EventLog(path: path)
        var commands = lines.compactMap { try? InputParser.parse($0) }
        while !commands.isEmpty {
            _ = try await log.ingest(Array(commands.prefix(1000)))
            commands.removeFirst(min(1000, commands.count))
        }
        await log.close()
        return try await body(path, try LogReader(path: path).events())
    }

    /// How a test replays: `Replayer.replay` (the fast path), or the reference
    /// replay it is checked against (DuneOracles' ``ReferenceReplay``).
    enum Decoding: CaseIterable { case fast, reference }

    static func replay(_ path: String, _ range: LogReader.Range = LogReader.Range(), into engine: inout ReadModelEngine,
                       decoding: Decoding) async throws {
        switch decoding {
        case .fast: try await Replayer.replay(try LogReader(path: path), range: range, into: &engine)
        case .reference: try await ReferenceReplay.replay(path: path, range: range, into: &engine)
        }
    }

    static func files(_ path: String, _ range: LogReader.Range = LogReader.Range(), decoding: Decoding) async throws -> [ReadModelFile] {
        var engine = ReadModelEngine()
        try await replay(path, range, into: &engine, decoding: decoding)
        return await engine.state().files()
    }

    @Test func fastReplayWritesTheReferenceBytes() async throws {
        try await Self.withLog { path, events in
            #expect(events.count > 10_000)
            let fast = try await Self.files(path, decoding: .fast)
            let reference = try await Self.files(path, decoding: .reference)
            #expect(fast == reference)
            let cut = events[events.count / 2].recordedAt
            for range in [LogReader.Range(throughSeq: 7777), LogReader.Range(after: 3000, throughSeq: 9000), LogReader.Range(asOf: cut)] {
                let fastRange = try await Self.files(path, range, decoding: .fast)
                let referenceRange = try await Self.files(path, range, decoding: .reference)
                #expect(fastRange == referenceRange, "\(range)")
            }
        }
    }

    @Test func foldingBatchesEqualsFoldingEvents() async throws {
        try await Self.withLog { path, events in
            var engine = ReadModelEngine()
            // Uneven batches, one repeated, one overlapping the one before.
            var start = 0
            var size = 1
            while start < events.count {
                let end = min(events.count, start + size)
                for batch in [EventBatch(events[start..<end]), EventBatch(events[max(0, start - 3)..<end])] {
                    engine.apply(batch)
                }
                start = end
                size = size * 3 + 1
            }
            let scratch = ReadModelEngine(replaying: events)
            #expect(engine.samples == scratch.samples && engine.readiness == scratch.readiness)
            #expect(engine.syncStatus == scratch.syncStatus)
            #expect(engine.state() == ReadModelEngine.models(events))
        }
    }

    @Test func foldingSlicesOfOneBatchEqualsFoldingEvents() async throws {
        // Slices share the whole batch's `others`: each must fold only its own.
        try await Self.withLog { path, events in
            let batch = EventBatch(events)
            var readiness = ReadinessProjection()
            var sync = SyncStatusProjection()
            var start = 0
            var size = 1
            while start < events.count {
                let end = min(events.count, start + size)
                readiness.apply(batch.slice(start..<end))
                sync.apply(batch.slice(start..<end))
                start = end
                size = size * 2 + 1
            }
            #expect(readiness == ReadModelEngine(replaying: events).readiness)
            #expect(sync == SyncStatusProjection(replaying: events))
            // A later slice alone folds nothing before it.
            var tail = SyncStatusProjection()
            tail.apply(batch.slice((events.count / 2)..<events.count))
            var expected = SyncStatusProjection()
            expected.apply(contentsOf: events[(events.count / 2)...])
            #expect(tail == expected)
        }
    }

    @Test func explainReadsTheSameSamplesFromEitherPath() async throws {
        try await Self.withLog { path, events in
            var fast = ReadModelEngine()
            try await Replayer.replay(try LogReader(path: path), into: &fast)
            let reference = ReadModelEngine(replaying: events)
            #expect(fast.samples.days == reference.samples.days)
            for day in fast.samples.days {
                #expect(fast.samples.samples(on: day) == reference.samples.samples(on: day))
                #expect(fast.dailyValues(on: day) == reference.dailyValues(on: day))
            }
            let day = try #require(fast.samples.days.last)
            #expect(fast.day(day) == reference.day(day))
            #expect(fast.samples.sample(id: "8264D208-F9AE-4BCC-AC75-D0A4FCC88740") == reference.samples.sample(id: "8264D208-F9AE-4BCC-AC75-D0A4FCC88740"))
        }
    }
}
