import DuneEvents
import DuneFixtures
import DuneProjections
import DuneTools
import Testing

/// The same log gives the same bytes however it is fed (SPEC §7).
struct DeterminismTests {
    /// The four files from a synchronous fold of every event: the reference.
    private func referenceFiles(_ events: [RecordedEvent]) -> [ReadModelFile] {
        [
            ReadModelEngine.file(.readiness, events),
            ReadModelEngine.file(.trends, events),
            ReadModelEngine.file(.weeklyStats, events),
            SyncStatusProjection(replaying: events).file(),
        ]
    }

    @Test(arguments: [1, 7, 1000, Int.max])
    func batchesOfAnySizeGiveByteIdenticalFiles(batchSize: Int) async throws {
        let events = try SyntheticLog.make()
        var engine = ReadModelEngine()
        var start = 0
        while start < events.count {
            let end = start + min(batchSize, events.count - start)
            engine.apply(Array(events[start..<end]))
            start = end
        }
        let files = await engine.state().files()
        #expect(files.map(\.fileName) == ["readiness.json", "trends.json", "weekly-stats.json", "sync-status.json"])
        #expect(files == referenceFiles(events))
        #expect(engine.throughSeq == events.count)
    }

    @Test func syntheticLogExercisesEveryPath() throws {
        let events = try SyntheticLog.make()
        let readiness = ReadModelEngine.models(events).readiness
        #expect(Set(readiness.days.map(\.status)) == Set(ReadinessStatus.allCases))
        #expect(readiness.days.contains { $0.hrvComponent != nil && $0.rhrComponent != nil && $0.sleepComponent != nil })
        let trends = ReadModelEngine.models(events).trends
        #expect(trends.hrvNormalRange != nil)
        #expect(trends.metrics.allSatisfy { !$0.daily.isEmpty })
        #expect(!trends.trainingLoad.isEmpty)
        let weekly = ReadModelEngine.models(events).weeklyStats
        #expect(Set(weekly.weeks.flatMap { $0.byActivity.map(\.activityType) }).count == 4)
        let sync = SyncStatusProjection(replaying: events).readModel()
        #expect(sync.features.map(\.feature) == ["readiness", "trends", "weeklyStats"])
        #expect(sync.features.allSatisfy { $0.counts.staleIgnored > 0 && $0.counts.failed > 0 && $0.counts.cancelled > 0 })
        #expect(events.contains { if case .sampleDeleted = $0.payload { true } else { false } })
    }

    @Test func overlappingAndRepeatedBatchesAreSkipped() async throws {
        let events = try SyntheticLog.make(days: 40)
        var engine = ReadModelEngine()
        // Each batch repeats the last 50 events of the one before; the whole log comes twice.
        var start = 0
        while start < events.count {
            let end = min(start + 300, events.count)
            engine.apply(Array(events[max(0, start - 50)..<end]))
            start = end
        }
        engine.apply(events)
        #expect(await engine.state().files() == referenceFiles(events))
    }

    @Test func readModelsDependOnlyOnEventsNotOnRecordedAt() throws {
        let events = try SyntheticLog.make(days: 30)
        let moved = events.map { event in
            RecordedEvent(seq: event.seq, id: event.id,
                          recordedAt: Timestamp(epochSeconds: Int64(event.seq) * 977, offsetSeconds: 3600), event: event.event)
        }
        #expect(referenceFiles(moved) == referenceFiles(events))
    }

    @Test func filesAreOneCanonicalLineEach() throws {
        for file in referenceFiles(try SyntheticLog.make(days: 20)) {
            #expect(file.bytes.last == UInt8(ascii: "\n"))
            #expect(file.bytes.filter { $0 == UInt8(ascii: "\n") }.count == 1)
        }
    }
}
