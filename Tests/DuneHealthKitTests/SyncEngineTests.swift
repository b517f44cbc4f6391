import Testing
@testable import DuneEvents
@testable import DuneProjections
@testable import DuneHealthKit
import DuneTools

/// The sync engine against the in-memory source: pages and anchors, resume,
/// re-delivery, rejections, deletions, reconcile, joining, progress.
@Suite struct SyncEngineTests {
    @Test func backfillStoresEachPageWithItsAnchorAndResumesFromTheStoredAnchor() async throws {
        try await withDirectory { dir in
            let path = dir + "/events.jsonl"
            let source = InMemoryHealthSource()
            await source.add(hrvSamples(0..<25), of: .hrv)
            let store = try await openStore(path)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 10, now: fixedNow))
            let first = try await engine.sync(.hrv, budget: .pages(2))
            #expect(first.outcome == .budgetExhausted)
            #expect(first.pages == 2 && first.appended == 20)
            #expect(first.anchor == SyncAnchor("hrv:20"))
            await store.close()

            // A new process: the anchor comes from the log.
            let reopened = try await openStore(path)
            #expect(await reopened.syncStatus.sampleType(.hrv)?.anchor == "hrv:20")
            let second = try await HealthSyncEngine(store: reopened, source: source, options: HealthSyncOptions(pageSize: 10, now: fixedNow))
                .sync(.hrv)
            #expect(second.outcome == .completed)
            #expect(second.appended == 5 && second.alreadyAppended == 0 && second.pages == 1)
            let events = try storedEvents(path)
            // Each page: its samples, then its anchor, in one batch.
            let types = events.map(\.type)
            #expect(types.filter { $0 == .sampleIngested }.count == 25)
            #expect(types.filter { $0 == .syncAnchored }.count == 3)
            let anchors = events.compactMap { event -> String? in
                if case .syncAnchored(let record) = event.payload { record.anchor } else { nil }
            }
            #expect(anchors == ["hrv:10", "hrv:20", "hrv:25"])
            let status = try #require(await reopened.syncStatus.sampleType(.hrv))
            #expect(status.pages == 3 && status.samples == 25 && status.phase == .loaded)
            #expect(status.earliestStart == time("2026-01-01T07:00:00+01:00"))
            let feature = try #require(await reopened.syncStatus.features.first { $0.feature == "sync.hrv" })
            #expect(feature.counts.started == 2 && feature.counts.completed == 1 && feature.counts.cancelled == 1)
            await reopened.close()
        }
    }

    @Test func redeliveredSamplesAreAlreadyAppendedAndDeletionsAreApplied() async throws {
        try await withDirectory { dir in
            let path = dir + "/events.jsonl"
            let source = InMemoryHealthSource()
            await source.add(hrvSamples(0..<6), of: .hrv)
            let store = try await openStore(path)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 4, now: fixedNow))
            _ = try await engine.sync(.hrv)
            await source.redeliver(["hrv-1", "hrv-2"])
            await source.delete(["hrv-3"], of: .hrv)
            await source.setOverlap(1)
            let again = try await engine.sync(.hrv)
            #expect(again.appended == 0)
            #expect(again.alreadyAppended == 3)  // two re-deliveries and the overlap's repeat
            #expect(again.deleted == 1)
            let ids = await store.liveSampleIDs(of: .hrv, on: DayKey("2025-12-01")!...DayKey("2026-12-31")!)
            #expect(ids == ["hrv-0", "hrv-1", "hrv-2", "hrv-4", "hrv-5"])
            await store.close()
        }
    }

    @Test func aRejectedSampleAndAnUnknownSleepValueStillAdvanceTheAnchorAndAreCountedByReason() async throws {
        try await withDirectory { dir in
            let path = dir + "/events.jsonl"
            let source = InMemoryHealthSource()
            let bad = SampleInput(id: "sleep-bad", start: time("2026-01-02T06:00:00+01:00"), end: time("2026-01-01T06:00:00+01:00"),
                                  source: "Apple Watch", reading: .sleep(.asleepDeep))  // ends before it starts (§3)
            await source.add([sleepSample("sleep-1", day: 1), bad], of: .sleep)
            await source.addUnmapped(UnmappedSample(id: "sleep-new", reason: .unknownCategoryValue("HKCategoryValueSleepAnalysis 9")), of: .sleep)
            await source.add([sleepSample("sleep-2", day: 2)], of: .sleep)
            let store = try await openStore(path)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 10, now: fixedNow))
            let result = try await engine.sync(.sleep)
            #expect(result.outcome == .completed)
            #expect(result.appended == 2)
            #expect(result.rejected == ["endBeforeStart": 1, "unknownCategoryValue": 1])
            #expect(result.anchor == SyncAnchor("sleep:4"))
            let status = try #require(await store.syncStatus.sampleType(.sleep))
            #expect(status.anchor == "sleep:4")
            #expect(status.samples == 4)
            #expect(status.rejected == [.init(reason: "endBeforeStart", count: 1), .init(reason: "unknownCategoryValue", count: 1)])
            // The rejected samples are not in the log.
            let ids = try storedEvents(path).compactMap(\.sampleID)
            #expect(ids == ["sleep-1", "sleep-2"])
            await store.close()
        }
    }

    @Test func reconcileDeletesWhatTheSourceNoLongerHoldsOnThoseDaysOnly() async throws {
        try await withDirectory { dir in
            let path = dir + "/events.jsonl"
            let source = InMemoryHealthSource()
            await source.add(hrvSamples(0..<10), of: .hrv)
            await source.add([sleepSample("night-5", day: 5)], of: .sleep)
            let store = try await openStore(path)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 100, now: fixedNow))
            _ = try await engine.sync(.hrv)
            _ = try await engine.sync(.sleep)
            // Deleted while the app was away, and the deleted-object records purged before it came back.
            await source.delete(["hrv-2", "hrv-8"], of: .hrv)
            await source.expireDeletions(of: .hrv)
            let missed = try await engine.sync(.hrv)
            #expect(missed.deleted == 0)
            let days = DayKey("2026-01-01")!...DayKey("2026-01-05")!
            let result = try await engine.reconcile(.hrv, days: days)
            #expect(result.deletedIDs == ["hrv-2"])  // hrv-8 lies outside the range
            let again = try await engine.reconcile(.hrv, days: days)
            #expect(again.deletedIDs.isEmpty)
            // Sleep's day is the morning the night ends.
            await source.delete(["night-5"], of: .sleep)
            await source.expireDeletions(of: .sleep)
            #expect(try await engine.reconcile(.sleep, days: DayKey("2026-01-05")!...DayKey("2026-01-05")!).deletedIDs.isEmpty)
            #expect(try await engine.reconcile(.sleep, days: DayKey("2026-01-06")!...DayKey("2026-01-06")!).deletedIDs == ["night-5"])
            await store.close()
        }
    }

    @Test func aSyncRequestedWhileOneIsInFlightJoinsIt() async throws {
        try await withDirectory { dir in
            let path = dir + "/events.jsonl"
            let source = InMemoryHealthSource()
            await source.add(hrvSamples(0..<3), of: .hrv)
            await source.hangNext(.hrv)
            let store = try await openStore(path)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 10, now: fixedNow))
            let first = Task { try await engine.sync(.hrv) }
            while await source.hungQueryCount == 0 { await Task.yield() }
            #expect(await engine.isSyncing(.hrv))
            let second = Task { try await engine.sync(.hrv) }
            await Task.yield()
            await source.releaseHungQueries()
            let a = try await first.value, b = try await second.value
            #expect(a == b)
            #expect(a.appended == 3)
            let started = try storedEvents(path).filter { $0.type == .taskStarted }
            #expect(started.count == 1)
            await store.close()
        }
    }

    @Test func progressReportsPagesSamplesAndHowFarBack() async throws {
        try await withDirectory { dir in
            let path = dir + "/events.jsonl"
            let source = InMemoryHealthSource()
            await source.add(hrvSamples(0..<9), of: .hrv)
            let store = try await openStore(path)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 4, now: fixedNow))
            let progress = engine.progress
            _ = try await engine.sync(.hrv)
            var seen: [SyncProgress] = []
            for await value in progress {
                seen.append(value)
                if value.isFinished { break }
            }
            #expect(seen.map(\.pages) == [1, 2, 3, 3])
            #expect(seen.map(\.samples) == [4, 8, 9, 9])
            #expect(seen.last?.earliestStart == time("2026-01-01T07:00:00+01:00"))
            await store.close()
        }
    }

    @Test func refreshPathsGoThroughTheCoordinatorAndSync() async throws {
        try await withDirectory { dir in
            let path = dir + "/events.jsonl"
            let source = InMemoryHealthSource()
            await source.add(hrvSamples(0..<2), of: .hrv)
            let store = try await openStore(path)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 10, now: fixedNow))
            let pull = try await engine.refresh(.pullToRefresh, types: [.hrv])
            #expect(pull.outcome == .performed)
            #expect(pull.results.map(\.appended) == [2])
            let foreground = try await engine.refresh(.foreground, types: [.hrv])
            #expect(foreground.outcome == .throttled)  // same instant: within the coordinator's 60 s
            await store.close()
        }
    }
}

extension InMemoryHealthSource {
    func setOverlap(_ count: Int) { redeliveredOverlap = count }
}
