import Testing
@testable import DuneEvents
@testable import DuneProjections
@testable import DuneHealthKit
import DuneTools

/// The background-delivery contract (SPEC §12): the completion handler is
/// called exactly once, after what the sync appended is durable, on every
/// path. Each test checks the count, that no write was unsynced when the
/// handler ran, and that the log on disk holds what the sync reported.
@Suite struct BackgroundDeliveryTests {
    /// Runs `body` with a store on a fault-injecting file system and a probe.
    func withDelivery(_ body: (String, DuneStore, InMemoryHealthSource, CompletionProbe, FaultInjectingFileSystem) async throws -> Void)
        async throws {
        try await withDirectory { dir in
            let path = dir + "/events.jsonl"
            let fileSystem = FaultInjectingFileSystem()
            let store = try await openStore(path, fileSystem: fileSystem.witness)
            let source = InMemoryHealthSource()
            try await body(path, store, source, CompletionProbe(fileSystem: fileSystem), fileSystem)
            await store.close()
        }
    }

    /// The anchor the log on disk holds for `type`.
    func anchorOnDisk(_ path: String, _ type: SampleKind) throws -> String? {
        try storedEvents(path).reversed().lazy.compactMap { event -> String? in
            if case .syncAnchored(let record) = event.payload, record.sampleType == type { record.anchor } else { nil }
        }.first
    }

    @Test func success() async throws {
        try await withDelivery { path, store, source, probe, _ in
            await source.add(hrvSamples(0..<10), of: .hrv)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 4, now: fixedNow))
            let result = await engine.handle(probe.wake(.hrv), budget: .unlimited)
            #expect(result.outcome == .completed)
            #expect(probe.count == 1)
            #expect(probe.unsyncedAtCompletion == [0])
            let anchor = try anchorOnDisk(path, .hrv)
            let samples = try storedEvents(path).filter { $0.type == .sampleIngested }.count
            #expect(anchor == "hrv:10")
            #expect(samples == 10)
        }
    }

    @Test func sourceErrorWhileTheDeviceIsLocked() async throws {
        try await withDelivery { path, store, source, probe, _ in
            await source.add(hrvSamples(0..<10), of: .hrv)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 4, now: fixedNow))
            _ = try await engine.sync(.hrv, budget: .pages(1))
            await source.failNext(.hrv, with: .databaseInaccessible)
            let result = await engine.handle(probe.wake(.hrv), budget: .unlimited)
            #expect(result.outcome == .failed("databaseInaccessible"))
            #expect(probe.count == 1)
            #expect(probe.unsyncedAtCompletion == [0])
            #expect(try anchorOnDisk(path, .hrv) == "hrv:4")  // the anchor stays
            let status = try #require(await store.syncStatus.sampleType(.hrv))
            #expect(status.phase == .failed && status.lastError == "databaseInaccessible")
            // The next wake resumes from the stored anchor.
            let next = await engine.handle(probe.wake(.hrv), budget: .unlimited)
            #expect(next.outcome == .completed && next.appended == 6)
            #expect(probe.count == 2)
        }
    }

    @Test func ioErrorFromThePlatformLayer() async throws {
        try await withDelivery { path, store, source, probe, fileSystem in
            await source.add(hrvSamples(0..<10), of: .hrv)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 4, now: fixedNow))
            _ = try await engine.sync(.hrv, budget: .pages(1))
            fileSystem.failWrites()
            let result = await engine.handle(probe.wake(.hrv), budget: .unlimited)
            guard case .failed(let code) = result.outcome else {
                Issue.record("expected a failure, got \(result.outcome)")
                return
            }
            #expect(code == "io" || code == "closed")
            #expect(probe.count == 1)
            // Nothing of the failed batch reached the log; what was stored before is intact.
            #expect(try anchorOnDisk(path, .hrv) == "hrv:4")
            #expect(try storedEvents(path).filter { $0.type == .sampleIngested }.count == 4)
        }
    }

    @Test func cancellation() async throws {
        try await withDelivery { path, store, source, probe, _ in
            await source.add(hrvSamples(0..<10), of: .hrv)
            await source.hangNext(.hrv)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 4, now: fixedNow))
            let wake = probe.wake(.hrv)
            let delivery = Task { await engine.handle(wake, budget: .unlimited) }
            while await source.hungQueryCount == 0 { await Task.yield() }
            delivery.cancel()
            let result = await delivery.value
            #expect(result.outcome == .cancelled)
            #expect(probe.count == 1)
            #expect(probe.unsyncedAtCompletion == [0])
            #expect(try anchorOnDisk(path, .hrv) == nil)
            let cancelled = try storedEvents(path).filter { $0.type == .taskCancelled }
            #expect(cancelled.count == 1)
            await source.releaseHungQueries()
        }
    }

    @Test func budgetExhaustedMidBackfill() async throws {
        try await withDelivery { path, store, source, probe, _ in
            await source.add(hrvSamples(0..<40), of: .hrv)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 4, now: fixedNow))
            let result = await engine.handle(probe.wake(.hrv), budget: .pages(3))
            #expect(result.outcome == .budgetExhausted)
            #expect(result.pages == 3)
            #expect(probe.count == 1)
            #expect(probe.unsyncedAtCompletion == [0])
            let anchor = try anchorOnDisk(path, .hrv)
            #expect(anchor == "hrv:12")
            #expect(await store.syncStatus.sampleType(.hrv)?.phase == .notStarted)  // a stop is a cancellation, not a failure
        }
    }

    @Test func aQueryThatNeverAnswersEndsWhenTheTimeBudgetIsSpent() async throws {
        try await withDelivery { path, store, source, probe, _ in
            await source.add(hrvSamples(0..<10), of: .hrv)
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 4, now: fixedNow))
            _ = try await engine.sync(.hrv, budget: .pages(1))
            await source.hangNext(.hrv)
            let result = await engine.handle(probe.wake(.hrv), budget: .time(.milliseconds(200)))
            #expect(result.outcome == .budgetExhausted)
            #expect(probe.count == 1)
            #expect(probe.unsyncedAtCompletion == [0])
            #expect(try anchorOnDisk(path, .hrv) == "hrv:4")
            // The hung query (when the budget let the sync reach it) is still waiting: the engine did not wait for it.
            await source.releaseHungQueries()
        }
    }

    @Test func observerNotificationsAreAnsweredThroughTheEngine() async throws {
        try await withDelivery { path, store, source, _, _ in
            let engine = HealthSyncEngine(store: store, source: source, options: HealthSyncOptions(pageSize: 4, now: fixedNow))
            // No time budget here (a busy machine may spend 20 s on three pages); budgets have their own tests.
            try await engine.startObserving([.hrv], budget: .unlimited)
            let progress = engine.progress
            await source.add(hrvSamples(0..<10), of: .hrv)
            let wake = try #require(await source.notifyObservers(of: .hrv))
            for await value in progress where value.isFinished { break }
            while await source.completions == 0 { await Task.yield() }
            #expect(wake.isCompleted)
            #expect(await source.completions == 1)
            #expect(try anchorOnDisk(path, .hrv) == "hrv:10")
        }
    }
}
