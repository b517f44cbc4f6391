import Testing
import DuneEvents
@testable import DuneProjections

/// `DuneStore.samples(of:in:)`: the current samples of a kind in a range of days, in time order.
@Suite struct SampleQueryTests {
    @Test func aQueryReturnsTheCurrentSamplesOfAKindInTimeOrder() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let store = try await DuneStore.open(at: directory + "/events.jsonl")
            _ = try await store.append([
                DuneStoreTests.hrv("late", "2026-03-03T22:00:00Z", 41),
                DuneStoreTests.hrv("early", "2026-03-03T05:00:00Z", 42),
                DuneStoreTests.hrv("before", "2026-03-01T06:00:00Z", 43),   // outside the range
                DuneStoreTests.hrv("after", "2026-03-06T06:00:00Z", 44),    // outside the range
                DuneStoreTests.hrv("moved", "2026-03-02T06:00:00Z", 45),
                DuneStoreTests.hrv("deleted", "2026-03-04T06:00:00Z", 46),
                .sample(SampleInput(id: "rhr", start: DuneStoreTests.time("2026-03-03T06:00:00Z"), end: DuneStoreTests.time("2026-03-03T06:00:00Z"),
                                    source: "Apple Watch", reading: .restingHeartRate(50, .beatsPerMinute))),
                DuneStoreTests.hrv("moved", "2026-03-05T07:00:00+02:00", 47),   // a correction moves it a few days on
                .sampleDeletion(SampleDeletion(sampleID: "deleted", at: DuneStoreTests.time("2026-03-05T08:00:00Z"))),
            ])
            let days = DayKey(year: 2026, month: 3, day: 2)...DayKey(year: 2026, month: 3, day: 5)
            let result = await store.samples(of: .hrv, in: days)
            #expect(result.throughSeq == 9)
            #expect(result.throughSeq == (await store.state).throughSeq)
            #expect(result.samples.map(\.id) == ["early", "late", "moved"])
            #expect(result.samples.map { $0.quantity?.value } == [42, 41, 47])
            #expect(await store.samples(of: .restingHeartRate, in: days).samples.map(\.id) == ["rhr"])
            #expect(await store.samples(of: .stepCount, in: days).samples.isEmpty)
            // A range far wider than the days with samples, and one day.
            let wide = DayKey(year: 1900, month: 1, day: 1)...DayKey(year: 2099, month: 12, day: 31)
            #expect(await store.samples(of: .hrv, in: wide).samples.map(\.id) == ["before", "early", "late", "moved", "after"])
            let one = DayKey(year: 2026, month: 3, day: 3)
            #expect(await store.samples(of: .hrv, in: one...one).samples.map(\.id) == ["early", "late"])
            await store.close()
        }
    }
}

/// The query on a decade of data: the last 90 days of HRV equal what a plain
/// fold of the log says is current there (corrections move samples between
/// days, deletions remove them), in time order. Its cost is measured, not
/// asserted: `Benchmarks/query.sh` runs it on a year (100k events) and a decade (1M).
@Suite struct DecadeQueryTests {
    @Test func ninetyDaysOfHRVOnADecadeEqualAPlainFoldOfTheLog() throws {
        let events = try SyntheticLog.make(days: 3650)
        let engine = ReadModelEngine(replaying: events)
        // The oracle: each sample's latest version by id, minus the deleted ones.
        var current: [String: (sample: Sample, seq: Int)] = [:]
        for recorded in events {
            switch recorded.event.payload {
            case .sampleIngested(let sample): current[sample.id] = (sample, recorded.seq)
            case .sampleDeleted(let deletion): current[deletion.sampleID] = nil
            default: break
            }
        }
        let last = try #require(current.values.map(\.sample.day).max())
        let days = last.adding(days: -89)...last
        let expected = current.values.filter { $0.sample.kind == .hrv && days.contains($0.sample.day) }
            .sorted { $0.sample.start != $1.sample.start ? $0.sample.start < $1.sample.start : $0.seq < $1.seq }
        #expect(expected.count >= 90, "a sample or more a day")
        let found = engine.samples.samples(of: .hrv, in: days)
        #expect(found.map(\.sample.id) == expected.map(\.sample.id))
        #expect(found.map(\.sample) == expected.map(\.sample))
    }
}
