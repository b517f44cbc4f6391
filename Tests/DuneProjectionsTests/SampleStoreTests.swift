import DuneEvents
@testable import DuneProjections
import Testing

/// Per-sample state: corrections replace, deletions remove, kept in `seq` order.
struct SampleStoreTests {
    private func store(_ log: LogBuilder) -> SampleStore {
        var store = SampleStore()
        for event in log.events { store.apply(event) }
        return store
    }

    @Test func correctionIsAppendedWithItsNewSeqAndKeepsTheDayInSeqOrder() throws {
        var log = LogBuilder()
        try log.quantity(.hrv, id: "a", start: "2026-03-02T07:00:00Z", value: 40)
        try log.quantity(.hrv, id: "b", start: "2026-03-02T08:00:00Z", value: 50)
        try log.quantity(.hrv, id: "c", start: "2026-03-02T09:00:00Z", value: 60)
        try log.quantity(.hrv, id: "a", start: "2026-03-02T07:00:00Z", value: 45)
        let store = store(log)
        #expect(store.samples(on: try day("2026-03-02")).map(\.reference)
            == [SampleReference(id: "b", seq: 2), SampleReference(id: "c", seq: 3), SampleReference(id: "a", seq: 4)])
        #expect(store.sample(id: "a")?.sample.quantity?.value == 45)
        #expect(store.count == 3)
    }

    @Test func deletionsAndCorrectionsMoveOrRemoveDays() throws {
        var log = LogBuilder()
        try log.quantity(.stepCount, id: "s1", start: "2026-03-02T12:00:00Z", value: 100)
        try log.quantity(.stepCount, id: "s2", start: "2026-03-03T12:00:00Z", value: 100)
        try log.quantity(.hrv, id: "h1", start: "2026-03-03T07:00:00Z", value: 50)
        var store = store(log)
        #expect(store.days == [try day("2026-03-02"), try day("2026-03-03")])
        #expect(store.sample(id: "s1")?.sample.quantity?.value == 100)

        try log.delete(id: "s1")
        try log.quantity(.stepCount, id: "s2", start: "2026-03-04T12:00:00Z", value: 100)  // moves s2
        store = self.store(log)
        #expect(store.days == [try day("2026-03-03"), try day("2026-03-04")])
        #expect(store.count == 2)  // s2 and h1
    }

    @Test func deletingTheLastSampleOfADayRemovesTheDay() throws {
        var log = LogBuilder()
        try log.quantity(.hrv, id: "h1", start: "2026-03-02T07:00:00Z", value: 50)
        try log.quantity(.hrv, id: "h2", start: "2026-03-03T07:00:00Z", value: 50)
        try log.delete(id: "h1")
        try log.delete(id: "h1")  // again: nothing left to delete
        let store = store(log)
        #expect(store.days == [try day("2026-03-03")])
        #expect(store.dailyValues(on: try day("2026-03-02")) == nil)
    }

    @Test func deletedSampleCanComeBack() throws {
        var log = LogBuilder()
        try log.quantity(.hrv, id: "h1", start: "2026-03-02T07:00:00Z", value: 50)
        try log.delete(id: "h1")
        try log.quantity(.hrv, id: "h1", start: "2026-03-02T07:00:00Z", value: 55)
        #expect(store(log).dailyValues(on: try day("2026-03-02"))?.hrv
            == DailyMean(value: 55, samples: [SampleReference(id: "h1", seq: 3)]))
    }

    @Test func countsBySourceEqualCountingEverySample() throws {
        var log = LogBuilder()
        try log.quantity(.hrv, id: "a", start: "2026-03-01T06:00:00Z", value: 40, source: "Watch")
        try log.quantity(.hrv, id: "b", start: "2026-03-01T07:00:00Z", value: 41, source: "Ring")
        try log.quantity(.hrv, id: "a", start: "2026-03-02T06:00:00Z", value: 42, source: "Ring")  // a correction moves a's source
        try log.quantity(.stepCount, id: "c", start: "2026-03-02T08:00:00Z", value: 100, source: "Phone")
        _ = try log.delete(id: "b")
        try log.workout(id: "w", "running", from: "2026-03-02T17:00:00Z", to: "2026-03-02T17:45:00Z", energyKcal: 400,
                        distanceMeters: 8000, volumeKg: nil)
        var counted: [String: Int] = [:]
        let store = store(log)
        for day in store.days {
            for stored in store.samples(on: day) { counted[stored.sample.source, default: 0] += 1 }
        }
        #expect(store.sampleCountsBySource() == counted)
        #expect(!counted.isEmpty)
        var batched = SampleStore()
        batched.apply(EventBatch(log.events), after: 0)
        #expect(batched.sampleCountsBySource() == counted)
    }
}
