import DuneEvents
import DuneFixtures
import DuneProjections
import DuneTools
import Testing

/// Explanations are read from the folds: their numbers are the projections' own,
/// and every event that named a sample is accounted for with its fate.
struct ExplainTests {
    private let dayD = DayKey(year: 2026, month: 3, day: 15)

    /// Two passes over `events`, as `dune-replay explain` does: the projection and the ids, then their history.
    private func readiness(_ events: [RecordedEvent], on date: DayKey) throws -> ReadinessExplanation {
        var projection = ReadModelEngine()
        var finder = DaySampleIDs(days: date...date, kinds: ReadinessExplanation.sampleKinds)
        for event in events {
            projection.apply([event])
            finder.apply(event)
        }
        var history = SampleHistory(ids: finder.ids)
        for event in events { history.apply(event) }
        return try #require(ReadinessExplanation(projection: projection, date: date, sampleIDs: finder.ids, history: history))
    }

    /// `explain`'s one-pass fold finds the same ids and history as the two passes, and asks for the
    /// second pass exactly when an id was named before it counted for the day.
    @Test func oneFusedPassFindsWhatTheTwoPassesFind() throws {
        var log = LogBuilder()
        _ = try log.quantity(.hrv, id: "H1", start: time(dayD), value: 40)
        _ = try log.quantity(.hrv, id: "H1", start: time(dayD), value: 45)
        _ = try log.quantity(.hrv, id: "H2", start: time(dayD, "08:00:00"), value: 90)
        _ = try log.delete(id: "H2")
        _ = try log.quantity(.hrv, id: "H4", start: time(dayD, plus: 1), value: 50)
        _ = try log.sleep(id: "S1", .asleepCore, from: time(dayD, plus: -1, "23:00:00"), to: time(dayD, "06:00:00"))
        let direct = log.events
        // H3 first counts for the day before, then is moved onto the day: its first version is missed by one pass.
        _ = try log.quantity(.hrv, id: "H3", start: time(dayD, plus: -1, "09:00:00"), value: 70)
        _ = try log.quantity(.hrv, id: "H3", start: time(dayD, "09:00:00"), value: 71)
        _ = try log.quantity(.hrv, id: "H1", start: time(dayD), value: 46)

        for (events, needsSecondPass) in [(direct, false), (log.events, true)] {
            var fused = DaySampleHistory(days: dayD...dayD, kinds: ReadinessExplanation.sampleKinds)
            var finder = DaySampleIDs(days: dayD...dayD, kinds: ReadinessExplanation.sampleKinds)
            for event in events {
                fused.apply(event)
                finder.apply(event)
            }
            var history = SampleHistory(ids: finder.ids)
            for event in events { history.apply(event) }
            #expect(fused.ids == finder.ids)
            #expect(fused.needsSecondPass == needsSecondPass)
            for id in finder.ids where !needsSecondPass || id != "H3" {
                #expect(fused.history.entries(for: id) == history.entries(for: id), "\(id)")
            }
            if needsSecondPass {
                #expect(fused.history.entries(for: "H3").count == 1 && history.entries(for: "H3").count == 2)
            }
        }
    }

    @Test func correctionsDeletionsMovesAndUnusedStagesAreAccountedFor() throws {
        var log = LogBuilder()
        for offset in -20 ... -1 {
            try log.quantity(.hrv, id: "base\(offset)", start: time(dayD, plus: offset), value: offset % 2 == 0 ? 60 : 50)
        }
        let first = try log.quantity(.hrv, id: "H1", start: time(dayD), value: 40)
        let deletedVersion = try log.quantity(.hrv, id: "H2", start: time(dayD, "08:00:00"), value: 90)
        let moved = try log.quantity(.hrv, id: "H3", start: time(dayD, "09:00:00"), value: 70)
        let correction = try log.quantity(.hrv, id: "H1", start: time(dayD), value: 45)
        let deletion = try log.delete(id: "H2")
        let movedAway = try log.quantity(.hrv, id: "H3", start: time(dayD, plus: 1, "09:00:00"), value: 70)
        let asleep = try log.sleep(id: "S1", .asleepCore, from: time(dayD, plus: -1, "23:00:00"), to: time(dayD, "06:00:00"))
        let awake = try log.sleep(id: "S2", .awake, from: time(dayD, "06:00:00"), to: time(dayD, "06:10:00"))
        let inBed = try log.sleep(id: "S3", .inBed, from: time(dayD, plus: -1, "22:30:00"), to: time(dayD, "06:20:00"))

        let explanation = try readiness(log.events, on: dayD)
        // The numbers are the projection's, the same as its read model's day.
        #expect(explanation.day == ReadModelEngine.models(log.events).readiness.day(dayD))
        #expect(explanation.day.hrv == 45)
        #expect(explanation.values.hrv?.samples == [SampleReference(id: "H1", seq: correction)])
        #expect(explanation.hrvBaselineDays.count == 20)
        #expect(explanation.hrvBaselineDays.map(\.value) == explanation.day.hrvWindow.values)

        func fates(_ id: String) -> [SampleVersionFate] {
            explanation.samples.first { $0.id == id }?.versions.map(\.fate) ?? []
        }
        #expect(explanation.samples.map(\.id) == ["H1", "H2", "H3", "S1", "S2", "S3"])
        #expect(fates("H1") == [.supersededBy(seq: correction), .counted(role: "hrv mean")])
        #expect(fates("H2") == [.deletedBy(seq: deletion), .deletion])
        #expect(fates("H3") == [.supersededBy(seq: movedAway), .countsForAnotherDay(dayD.adding(days: 1))])
        #expect(fates("S1") == [.counted(role: "sleep union, asleep")])
        #expect(fates("S2") == [.notCounted(reason: "awake is not sleep")])
        #expect(fates("S3") == [.notCounted(reason: "inBed is used only on a night with no asleep sample")])
        #expect(explanation.samples.flatMap { $0.versions.map(\.seq) }.sorted()
                == [first, deletedVersion, moved, correction, deletion, movedAway, asleep, awake, inBed])
    }

    @Test func readinessExplanationJSONCarriesTheFileEntryAndTheUnroundedFormula() throws {
        var log = LogBuilder()
        for offset in -14 ... -1 {
            try log.quantity(.hrv, id: "h\(offset)", start: time(dayD, plus: offset), value: offset % 2 == 0 ? 60 : 50)
        }
        try log.quantity(.hrv, id: "hD", start: time(dayD), value: 60)
        let explanation = try readiness(log.events, on: dayD)
        let object = try #require(explanation.jsonValue.objectValue)
        #expect(object["value"] == explanation.day.jsonValue)
        let hrv = try #require(object["formula"]?.objectValue?["hrv"]?.objectValue)
        #expect(hrv["z"]?.numberValue == explanation.day.hrvComponent?.z)
        #expect(hrv["n"]?.numberValue == 14)
        #expect(hrv["mean"]?.numberValue == explanation.day.hrvWindowStatistics.mean)
    }

    @Test func featureTraceEndsInTheSyncProjectionsState() throws {
        let events = try SyntheticLog.make(days: 60)
        let sync = SyncStatusProjection(replaying: events)
        #expect(!sync.features.isEmpty)
        for feature in sync.features {
            var trace = FeatureLoadTrace(feature: feature.feature)
            for event in events { trace.apply(event) }
            #expect(trace.state == feature)
            #expect(trace.steps.count == feature.counts.started + feature.counts.completed + feature.counts.failed
                    + feature.counts.cancelled + feature.counts.staleIgnored)
        }
    }

    @Test func unfinishedTasksAreTheStartsWithNoLaterEnd() throws {
        var log = LogBuilder()
        let started = try log.task("t1", "readiness", .started)
        try log.task("t0", "readiness", .completed)  // stale: not current
        let later = try log.task("t2", "trends", .started)
        try log.task("t2", "trends", .completed)
        var trace = FeatureLoadTrace(feature: "readiness")
        for event in log.events { trace.apply(event) }
        #expect(trace.unfinishedTasks.map(\.seq) == [started])
        #expect(trace.steps.map(\.effect) == [.started, .staleIgnored])
        #expect(later > started)
    }

    @Test func refreshTraceRecomputesEveryStoredDecision() throws {
        var log = LogBuilder()
        let performed = try log.refresh(.foreground, at: "2026-03-02T08:00:00Z", outcome: .performed, signal: 1)
        let observer = try log.refresh(.healthKitObserver, kind: .hrv, at: "2026-03-02T08:00:20Z", outcome: .throttled,
                                       reason: .coordinatorThrottle, signal: 1)
        let typeThrottled = try log.refresh(.healthKitObserver, kind: .hrv, at: "2026-03-02T08:00:50Z", outcome: .throttled,
                                            reason: .typeThrottle, signal: 1)
        let pull = try log.refresh(.pullToRefresh, at: "2026-03-02T08:00:55Z", outcome: .performed, signal: 2)
        for seq in [performed, observer, typeThrottled, pull] {
            var trace = RefreshTrace(seq: seq)
            for event in log.events { trace.apply(event) }
            let explanation = try #require(trace.explanation)
            #expect(explanation.decisionMatches, "seq \(seq)")
        }
        var trace = RefreshTrace(seq: typeThrottled)
        for event in log.events { trace.apply(event) }
        let explanation = try #require(trace.explanation)
        #expect(explanation.lastPerformedSeq == performed)
        #expect(explanation.lastObserverSeq == observer)
        #expect(explanation.secondsSinceLastObserver == 30)
        #expect(explanation.secondsSinceLastPerformed == 50)
        var notRefresh = RefreshTrace(seq: 99)
        for event in log.events { notRefresh.apply(event) }
        #expect(notRefresh.explanation == nil && notRefresh.eventType == nil)
    }
}
