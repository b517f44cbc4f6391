import DuneEvents
@testable import DuneProjections
import DuneTools
import Testing

/// SDNN (Apple Watch) and RMSSD (Oura, WHOOP) are never mixed in one baseline
/// (docs/read-models.md, "Which HRV"): a user who moves from a watch to a ring
/// gets no HRV sub-score until 14 days of the new measure exist, then one
/// against that measure's own baseline.
struct HRVMeasureReadinessTests {
    /// The first day on the ring.
    private let switchDay = DayKey(year: 2026, month: 4, day: 1)

    /// 30 days of Apple Watch HRV (SDNN, 40 and 50 alternating) before the
    /// switch, then `ringDays` days of Oura HRV (RMSSD, 70 and 90 alternating);
    /// resting HR 55 and a 420-minute night every day.
    private func watchThenRing(ringDays: Int) throws -> LogBuilder {
        var log = LogBuilder()
        for offset in -30..<ringDays {
            let date = switchDay.adding(days: offset)
            if offset < 0 {
                try log.quantity(.hrv, id: "watch\(offset)", start: time(date), value: offset % 2 == 0 ? 40 : 50, source: "Apple Watch")
            } else {
                try log.quantity(.hrv, id: "ring\(offset)", start: time(date), value: offset % 2 == 0 ? 70 : 90, source: "Oura Ring")
            }
            try log.quantity(.restingHeartRate, id: "rhr\(offset)", start: time(date), value: 55)
            try log.sleep(id: "night\(offset)", .asleepCore, from: time(date, plus: -1, "23:30:00"), to: time(date, "06:30:00"))
        }
        return log
    }

    @Test func afterTheSwitchHRVWaits14DaysThenUsesTheNewMeasuresOwnBaseline() throws {
        let log = try watchThenRing(ringDays: 20)
        let model = ReadModelEngine.models(log.events).readiness
        // The last watch day: an SDNN baseline of 29 days, and a score from all three components.
        let lastWatchDay = try #require(model.day(switchDay.adding(days: -1)))
        #expect(lastWatchDay.hrvMeasure == .sdnn)
        #expect(lastWatchDay.hrvBaseline?.n == 29)
        #expect(lastWatchDay.hrvScore != nil)
        // The first 14 ring days: RMSSD, its baseline still short, no HRV sub-score;
        // the score rests on resting HR and sleep (Σw = 0.5).
        for offset in 0..<14 {
            let day = try #require(model.day(switchDay.adding(days: offset)))
            #expect(day.hrvMeasure == .rmssd, "day \(offset)")
            #expect(day.hrvWindowStatistics.n == offset, "day \(offset): only RMSSD days count")
            #expect(day.hrvScore == nil, "day \(offset)")
            #expect(day.totalWeight == 0.5, "day \(offset)")
            #expect(day.score != nil, "day \(offset)")
        }
        // Day 15 on the ring: a baseline of the 14 RMSSD days alone (7 × ln 70, 7 × ln 90).
        let day15 = try #require(model.day(switchDay.adding(days: 14)))
        let baseline = try #require(day15.hrvBaseline)
        #expect(baseline.n == 14)
        let expectedMean = (DeterministicMath.log(70) + DeterministicMath.log(90)) / 2
        #expect(abs(try #require(baseline.mean) - expectedMean) < 1e-12)
        // Day 14 is an even offset: 70, below the RMSSD mean, so below 50, however high it is next to SDNN.
        #expect(try #require(day15.hrvScore) < 50)
        #expect(json(day15.jsonValue).contains(#""hrvMeasure":"rmssd""#))
    }

    @Test func aDayWithoutHRVTakesTheMeasureOfTheLatestEarlierDayWithHRV() throws {
        var log = try watchThenRing(ringDays: 20)
        let later = switchDay.adding(days: 25)
        try log.quantity(.restingHeartRate, id: "rhr-later", start: time(later), value: 55)
        let model = ReadModelEngine.models(log.events).readiness
        let day = try #require(model.day(later))
        #expect(day.hrv == nil)
        #expect(day.hrvMeasure == .rmssd)
        #expect(day.hrvBaseline?.n == 20)
        // Before the first HRV day there is no measure.
        var early = LogBuilder()
        try early.quantity(.restingHeartRate, id: "rhr", start: time(switchDay), value: 55)
        let alone = try #require(ReadModelEngine.models(early.events).readiness.day(switchDay))
        #expect(alone.hrvMeasure == nil)
        #expect(json(alone.jsonValue).contains(#""hrvMeasure":null"#))
    }

    @Test func aDayWithBothMeasuresTakesTheMeasureOfItsLatestSample() throws {
        var log = LogBuilder()
        try log.quantity(.hrv, id: "ring", start: time(switchDay, "06:00:00"), value: 80, source: "WHOOP")
        try log.quantity(.hrv, id: "watch-1", start: time(switchDay, "09:00:00"), value: 40, source: "Apple Watch")
        try log.quantity(.hrv, id: "watch-2", start: time(switchDay, "08:00:00"), value: 50, source: "Apple Watch")
        let day = try #require(ReadModelEngine.models(log.events).readiness.day(switchDay))
        #expect(day.hrvMeasure == .sdnn)
        #expect(day.hrv == 45)   // the mean of the two SDNN samples; the RMSSD one is left out
        // The ring's sample is later by start: the day is RMSSD.
        try log.quantity(.hrv, id: "ring", start: time(switchDay, "10:00:00"), value: 80, source: "WHOOP")
        let corrected = try #require(ReadModelEngine.models(log.events).readiness.day(switchDay))
        #expect(corrected.hrvMeasure == .rmssd)
        #expect(corrected.hrv == 80)
    }

    @Test func trendsUseOnlyTheMeasureOfTheLastDayWithHRV() throws {
        let log = try watchThenRing(ringDays: 20)
        let trends = ReadModelEngine.models(log.events).trends
        let hrv = try #require(trends.trend(.hrv))
        #expect(hrv.measure == .rmssd)
        #expect(hrv.daily.count == 20)
        #expect(hrv.daily.first?.date == switchDay)
        #expect(json(hrv.jsonValue).contains(#""measure":"rmssd""#))
        // Other metrics name no measure.
        #expect(!json(try #require(trends.trend(.restingHeartRate)).jsonValue).contains("measure"))
    }

    /// The store's incremental state follows the switch like a state computed from scratch.
    @Test func theStoreStateAcrossTheSwitchEqualsTheStateComputedFromScratch() throws {
        let events = try watchThenRing(ringDays: 20).events
        var fold = ReadModelEngine()
        for start in stride(from: 0, to: events.count, by: 7) {
            fold.apply(Array(events[start..<min(events.count, start + 7)]))
            let incremental = fold.state()
            let same = incremental == ReadModelEngineTests.fromScratch(events[..<min(events.count, start + 7)])
            #expect(same, "after \(start + 7) events")
        }
    }
}
