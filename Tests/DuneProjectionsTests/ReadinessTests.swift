import DuneEvents
@testable import DuneProjections
import DuneTools
import Testing

/// Readiness golden values, worked out by hand from SPEC §6.
struct ReadinessTests {
    /// D = 2026-03-15; the baseline days are D−14…D−1 unless a test says otherwise.
    private let dayD = DayKey(year: 2026, month: 3, day: 15)

    /// HRV and resting HR on `offsets` (days before D): 60 on even offsets, 50 on odd ones.
    /// For offsets −14…−1 that is 7 × 60 and 7 × 50 of each.
    private func alternatingBaseline(_ log: inout LogBuilder, offsets: ClosedRange<Int>, rhr: Bool = true) throws {
        for offset in offsets {
            let value: Double = offset % 2 == 0 ? 60 : 50
            try log.quantity(.hrv, id: "hrv\(offset)", start: time(dayD, plus: offset), value: value)
            if rhr {
                try log.quantity(.restingHeartRate, id: "rhr\(offset)", start: time(dayD, plus: offset), value: value)
            }
        }
    }

    /// A 420-minute night ending on D (23:30 → 06:30).
    private func sleep420(_ log: inout LogBuilder) throws {
        try log.sleep(id: "night", .asleepCore, from: time(dayD, plus: -1, "23:30:00"), to: time(dayD, "06:30:00"))
    }

    private func readinessDay(_ log: LogBuilder) throws -> ReadinessDay {
        try #require(ReadModelEngine.models(log.events).readiness.day(dayD))
    }

    @Test func dayWithAllThreeComponents() throws {
        var log = LogBuilder()
        try alternatingBaseline(&log, offsets: -14 ... -1)
        try log.quantity(.hrv, id: "hrvD", start: time(dayD), value: 60)
        try log.quantity(.restingHeartRate, id: "rhrD", start: time(dayD), value: 50)
        try sleep420(&log)

        // HRV: baseline ln values 7 × ln 60 (4.094345) and 7 × ln 50 (3.912023).
        //   μ = (ln 50 + ln 60)/2 = 4.003184; every deviation is d = ln(1.2)/2 = 0.091161,
        //   σ = √(14·d²/13) = d·√(14/13) = 0.094602.
        //   z = (ln 60 − μ)/σ = d/(d·√(14/13)) = √(13/14) = 0.963624
        //   hrvScore = 50 + 25·0.963624 = 74.0906
        // RHR: baseline 7 × 60, 7 × 50: μ = 55, σ = 5·√(14/13) = 5.188745,
        //   z = (50 − 55)/5.188745 = −0.963624, rhrScore = 50 + 25·0.963624 = 74.0906
        // Sleep: 100·420/480 = 87.5
        // score = 0.5·74.0906 + 0.25·74.0906 + 0.25·87.5 = 55.5680 + 21.875 = 77.4430 → ready
        let day = try readinessDay(log)
        #expect(json(day.jsonValue) == #"{"date":"2026-03-15","hrv":60,"hrvBaseline":{"mean":4.003,"n":14,"sd":0.095},"hrvMeasure":"sdnn","hrvScore":74.1,"rhr":50,"rhrBaseline":{"mean":55,"n":14,"sd":5.189},"rhrScore":74.1,"score":77.4,"sleepMinutes":420,"sleepScore":87.5,"status":"ready"}"#)
        // The intermediate numbers explain reads:
        #expect(abs(try #require(day.hrvComponent?.z) - 0.963_624_111_659_4) < 1e-12)
        #expect(abs(try #require(day.rhrComponent?.z) + 0.963_624_111_659_4) < 1e-12)
        #expect(day.hrvComponent?.weight == 0.5)
        #expect(day.rhrComponent?.weight == 0.25)
        #expect(day.sleepComponent == ReadinessComponent(input: 420, z: nil, score: 87.5, weight: 0.25))
        #expect(day.totalWeight == 1)
        #expect(day.hrvWindow.days == (-14 ... -1).map { dayD.adding(days: $0) })
    }

    @Test func missingComponentRebalancesTheWeights() throws {
        var log = LogBuilder()
        try alternatingBaseline(&log, offsets: -14 ... -1)
        try log.quantity(.hrv, id: "hrvD", start: time(dayD), value: 60)
        try sleep420(&log)

        // No resting HR on D (its baseline is still reported): Σw = 0.5 + 0.25 = 0.75,
        // score = (0.5·74.0906 + 0.25·87.5)/0.75 = (37.0453 + 21.875)/0.75 = 78.5604 → ready
        let day = try readinessDay(log)
        #expect(json(day.jsonValue) == #"{"date":"2026-03-15","hrv":60,"hrvBaseline":{"mean":4.003,"n":14,"sd":0.095},"hrvMeasure":"sdnn","hrvScore":74.1,"rhr":null,"rhrBaseline":{"mean":55,"n":14,"sd":5.189},"rhrScore":null,"score":78.6,"sleepMinutes":420,"sleepScore":87.5,"status":"ready"}"#)
        #expect(day.totalWeight == 0.75)
    }

    @Test func restingHeartRateAndSleepAloneReachTheMinimumWeight() throws {
        var log = LogBuilder()
        try alternatingBaseline(&log, offsets: -14 ... -1)
        try log.quantity(.restingHeartRate, id: "rhrD", start: time(dayD), value: 50)
        try sleep420(&log)

        // Σw = 0.25 + 0.25 = 0.5 ≥ 0.5: score = (74.0906 + 87.5)/2 = 80.7953 → ready
        #expect(json(try readinessDay(log).jsonValue) == #"{"date":"2026-03-15","hrv":null,"hrvBaseline":{"mean":4.003,"n":14,"sd":0.095},"hrvMeasure":"sdnn","hrvScore":null,"rhr":50,"rhrBaseline":{"mean":55,"n":14,"sd":5.189},"rhrScore":74.1,"score":80.8,"sleepMinutes":420,"sleepScore":87.5,"status":"ready"}"#)
    }

    @Test func fewerThan14BaselineDaysIsInsufficientData() throws {
        var log = LogBuilder()
        try alternatingBaseline(&log, offsets: -13 ... -1)
        try log.quantity(.hrv, id: "hrvD", start: time(dayD), value: 60)
        try log.quantity(.restingHeartRate, id: "rhrD", start: time(dayD), value: 50)
        try sleep420(&log)

        // n = 13 < 14: no hrv or rhr score, baselines null; sleep alone weighs 0.25 < 0.5.
        // The day's values are still reported.
        let day = try readinessDay(log)
        #expect(json(day.jsonValue) == #"{"date":"2026-03-15","hrv":60,"hrvBaseline":null,"hrvMeasure":"sdnn","hrvScore":null,"rhr":50,"rhrBaseline":null,"rhrScore":null,"score":null,"sleepMinutes":420,"sleepScore":87.5,"status":"insufficientData"}"#)
        #expect(day.hrvWindowStatistics.n == 13)
        #expect(day.totalWeight == 0.25)
    }

    @Test func baselineWindowIsDMinus60ThroughDMinus1AndZeroSigmaGivesZ0() throws {
        var log = LogBuilder()
        // D−61 is outside the window; if it were counted, n would be 15 and σ > 0.
        try log.quantity(.hrv, id: "outside", start: time(dayD, plus: -61), value: 90)
        for offset in -60 ... -47 {
            try log.quantity(.hrv, id: "hrv\(offset)", start: time(dayD, plus: offset), value: 50)
        }
        try log.quantity(.hrv, id: "hrvD", start: time(dayD), value: 60)

        // 14 × ln 50: μ = ln 50 = 3.912023, σ = 0 → z = 0 → hrvScore 50; Σw = 0.5 → score 50 → moderate.
        let day = try readinessDay(log)
        #expect(json(day.jsonValue) == #"{"date":"2026-03-15","hrv":60,"hrvBaseline":{"mean":3.912,"n":14,"sd":0},"hrvMeasure":"sdnn","hrvScore":50,"rhr":null,"rhrBaseline":null,"rhrScore":null,"score":50,"sleepMinutes":null,"sleepScore":null,"status":"moderate"}"#)
        #expect(day.hrvWindow.first == dayD.adding(days: -60))
        #expect(day.hrvWindow.last == dayD.adding(days: -1))
        #expect(day.hrvComponent?.z == 0)
    }

    @Test func statusComesFromTheUnroundedScore() throws {
        var log = LogBuilder()
        for offset in -14 ... -1 {
            try log.quantity(.restingHeartRate, id: "rhr\(offset)", start: time(dayD, plus: offset), value: 55)
        }
        try log.quantity(.restingHeartRate, id: "rhrD", start: time(dayD), value: 55)
        // 24 168.96 s = 402.816 min of sleep.
        try log.sleep(id: "night", .asleepCore, from: time(dayD, "00:00:00"), to: time(dayD, "06:42:48.960"))

        // rhr σ = 0 → rhrScore 50; sleepScore = 100·402.816/480 = 83.92;
        // score = (50 + 83.92)/2 = 66.96, written 67.0 but below 67 → moderate.
        #expect(json(try readinessDay(log).jsonValue) == #"{"date":"2026-03-15","hrv":null,"hrvBaseline":null,"hrvMeasure":null,"hrvScore":null,"rhr":55,"rhrBaseline":{"mean":55,"n":14,"sd":0},"rhrScore":50,"score":67,"sleepMinutes":402.816,"sleepScore":83.9,"status":"moderate"}"#)
    }

    @Test func statusThresholds() {
        #expect(ReadinessFormula.status(score: 67) == .ready)
        #expect(ReadinessFormula.status(score: 66.999) == .moderate)
        #expect(ReadinessFormula.status(score: 34) == .moderate)
        #expect(ReadinessFormula.status(score: 33.999) == .rest)
        #expect(ReadinessFormula.status(score: nil) == .insufficientData)
    }

    @Test func scoresAreClampedTo0Through100() {
        #expect(ReadinessFormula.hrvScore(z: 3) == 100)
        #expect(ReadinessFormula.hrvScore(z: -3) == 0)
        #expect(ReadinessFormula.rhrScore(z: -3) == 100)
        #expect(ReadinessFormula.sleepScore(minutes: 600, targetMinutes: 480) == 100)
        #expect(ReadinessFormula.sleepScore(minutes: 10, targetMinutes: 0) == nil)
    }

    @Test func latestProfileSetsTheSleepTargetForEveryDay() throws {
        var log = LogBuilder()
        try log.profile(sleepTargetMinutes: 400)
        try log.sleep(id: "n1", .asleepCore, from: "2026-03-01T23:00:00+01:00", to: "2026-03-02T06:00:00+01:00")
        try log.quantity(.stepCount, id: "st", start: "2026-03-03T12:00:00+01:00", value: 5000)
        try log.profile(sleepTargetMinutes: 420)

        // Both days use 420 (the latest profile), also the day before it was set:
        // 100·420/420 = 100. 2026-03-03 has only steps: every value null.
        let file = ReadModelEngine.file(.readiness, log.events)
        #expect(file.fileName == "readiness.json")
        #expect(text(file.bytes) == #"""
        {"days":[{"date":"2026-03-02","hrv":null,"hrvBaseline":null,"hrvMeasure":null,"hrvScore":null,"rhr":null,"rhrBaseline":null,"rhrScore":null,"score":null,"sleepMinutes":420,"sleepScore":100,"status":"insufficientData"},{"date":"2026-03-03","hrv":null,"hrvBaseline":null,"hrvMeasure":null,"hrvScore":null,"rhr":null,"rhrBaseline":null,"rhrScore":null,"score":null,"sleepMinutes":null,"sleepScore":null,"status":"insufficientData"}],"sleepTargetMinutes":420,"throughSeq":4}

        """#)
    }

    @Test func defaultSleepTargetIs480() throws {
        var log = LogBuilder()
        try sleep420(&log)
        let model = ReadModelEngine.models(log.events).readiness
        #expect(model.sleepTargetMinutes == 480)
        #expect(model.day(dayD)?.sleepScore == 87.5)
    }

    @Test func sleepAcrossTheDSTNightIsMeasuredFromInstants() throws {
        var log = LogBuilder()
        // Europe/Berlin, week 2026-W13: every night 23:00 → 07:00 local time. Clocks go
        // forward at 02:00 on 2026-03-29, so that night's end is written +02:00.
        for night in 0..<7 {
            let end = DayKey(year: 2026, month: 3, day: 23).adding(days: night)
            let endOffset = night == 6 ? "+02:00" : "+01:00"
            try log.sleep(id: "n\(night)", .asleepCore, from: time(end, plus: -1, "23:00:00"),
                          to: time(end, "07:00:00", offset: endOffset))
        }
        // And back at 03:00 on 2026-10-25: 23:00 (+02:00) → 07:00 (+01:00).
        try log.sleep(id: "autumn", .asleepCore, from: "2026-10-24T23:00:00+02:00", to: "2026-10-25T07:00:00+01:00")

        // 8 h of wall clock on a normal night = 480 min; 22:00Z → 05:00Z = 420 min on
        // the spring night; 21:00Z → 06:00Z = 540 min on the autumn night.
        let days = ReadModelEngine.models(log.events).readiness.days
        #expect(days.map(\.date.description) == ["2026-03-23", "2026-03-24", "2026-03-25", "2026-03-26",
                                                 "2026-03-27", "2026-03-28", "2026-03-29", "2026-10-25"])
        #expect(days.map(\.sleepMinutes) == [480, 480, 480, 480, 480, 480, 420, 540])
        #expect(days.map(\.sleepScore) == [100, 100, 100, 100, 100, 100, 87.5, 100])
    }

    @Test func singleDayComputationMatchesTheFullModel() throws {
        var log = LogBuilder()
        try alternatingBaseline(&log, offsets: -70 ... -1)
        try log.quantity(.hrv, id: "hrvD", start: time(dayD), value: 57)
        try log.quantity(.restingHeartRate, id: "rhrD", start: time(dayD), value: 52)
        try sleep420(&log)
        var projection = ReadModelEngine(replaying: log.events)
        let model = projection.state().readiness
        for date in projection.samples.days {
            #expect(projection.day(date) == model.day(date))
        }
        #expect(projection.day(dayD.adding(days: 1)) == nil)
    }
}
