import DuneEvents
import DuneProjections
import DuneTools
import Testing

/// Weekly stats golden values (SPEC §6, §6.2).
struct WeeklyStatsTests {
    /// An ISO week 2026-W09 with three workouts, a week with steps only, an empty
    /// week, and a week with one ride.
    private func fourWeeks() throws -> LogBuilder {
        var log = LogBuilder()
        // 2026-W09, Monday 02-23 … Sunday 03-01.
        try log.workout(id: "run1", "running", from: "2026-02-23T07:00:00+01:00", to: "2026-02-23T07:30:00+01:00",
                        energyKcal: 300, distanceMeters: 5000)
        try log.quantity(.stepCount, id: "st1", start: "2026-02-23T12:00:00+01:00", value: 8000)
        try log.workout(id: "lift", "traditionalStrengthTraining", from: "2026-02-25T18:00:00+01:00",
                        to: "2026-02-25T18:45:00+01:00", energyKcal: 200, volumeKg: 5000)
        try log.workout(id: "run2", "running", from: "2026-02-25T07:00:00+01:00", to: "2026-02-25T08:00:00+01:00",
                        energyKcal: 600, distanceMeters: 10000)
        try log.quantity(.stepCount, id: "st2", start: "2026-02-25T12:00:00+01:00", value: 4000)
        // 2026-W10: steps only.
        try log.quantity(.stepCount, id: "st3", start: "2026-03-03T12:00:00+01:00", value: 10000)
        // 2026-W11: nothing. 2026-W12: one ride on Thursday 03-19.
        try log.workout(id: "ride", "cycling", from: "2026-03-19T18:00:00+01:00", to: "2026-03-19T18:40:00+01:00",
                        energyKcal: 350, distanceMeters: 12000)
        return log
    }

    private func emptyDay(_ date: String) -> String {
        #"{"activeEnergyKcal":0,"date":"\#(date)","distanceKm":0,"durationMinutes":0,"steps":null,"strengthVolumeKg":0,"workouts":0}"#
    }

    @Test func weeksByActivityDailyAndVsPreviousWeek() throws {
        let model = ReadModelEngine.models(try fourWeeks().events).weeklyStats
        #expect(model.weeks.map(\.week.description) == ["2026-W09", "2026-W10", "2026-W11", "2026-W12"])

        // W09: 3 workouts; 30 + 45 + 60 = 135 min; 300 + 200 + 600 = 1100 kcal; 5 + 10 = 15 km;
        // 5000 kg; active on Monday and Wednesday; steps 8000 + 4000 = 12 000.
        // running: 2 workouts, 90 min, 900 kcal, 15 km; strength: 1, 45 min, 200 kcal, 0 km.
        // Wednesday: 45 + 60 = 105 min, 800 kcal. First week: no comparison.
        let week9 = #"{"activeDays":2,"activeEnergyKcal":1100,"byActivity":{"running":{"activeEnergyKcal":900,"distanceKm":15,"durationMinutes":90,"workouts":2},"traditionalStrengthTraining":{"activeEnergyKcal":200,"distanceKm":0,"durationMinutes":45,"workouts":1}},"daily":["#
            + #"{"activeEnergyKcal":300,"date":"2026-02-23","distanceKm":5,"durationMinutes":30,"steps":8000,"strengthVolumeKg":0,"workouts":1},"#
            + emptyDay("2026-02-24") + ","
            + #"{"activeEnergyKcal":800,"date":"2026-02-25","distanceKm":10,"durationMinutes":105,"steps":4000,"strengthVolumeKg":5000,"workouts":2},"#
            + ["2026-02-26", "2026-02-27", "2026-02-28", "2026-03-01"].map(emptyDay).joined(separator: ",")
            + #"],"distanceKm":15,"durationMinutes":135,"steps":12000,"strengthVolumeKg":5000,"vsPreviousWeek":null,"week":"2026-W09","workouts":3}"#
        #expect(json(model.weeks[0].jsonValue) == week9)
        #expect(model.weeks[0].workouts.map(\.sample) == [SampleReference(id: "run1", seq: 1), SampleReference(id: "lift", seq: 3),
                                                          SampleReference(id: "run2", seq: 4)])

        // W10 vs W09: every workout field falls by 100 %; steps 10 000 − 12 000 = −2000, −2000/12 000 = −16.667 %.
        #expect(json(try #require(model.weeks[1].vsPreviousWeek).jsonValue) == #"{"activeDays":{"changePercent":-100,"delta":-2},"activeEnergyKcal":{"changePercent":-100,"delta":-1100},"distanceKm":{"changePercent":-100,"delta":-15},"durationMinutes":{"changePercent":-100,"delta":-135},"steps":{"changePercent":-16.667,"delta":-2000},"strengthVolumeKg":{"changePercent":-100,"delta":-5000},"workouts":{"changePercent":-100,"delta":-3}}"#)

        // W11 (empty) vs W10: steps −10 000 (−100 %); the rest 0 − 0 with a null change (previous is 0).
        #expect(json(try #require(model.weeks[2].vsPreviousWeek).jsonValue) == #"{"activeDays":{"changePercent":null,"delta":0},"activeEnergyKcal":{"changePercent":null,"delta":0},"distanceKm":{"changePercent":null,"delta":0},"durationMinutes":{"changePercent":null,"delta":0},"steps":{"changePercent":-100,"delta":-10000},"strengthVolumeKg":{"changePercent":null,"delta":0},"workouts":{"changePercent":null,"delta":0}}"#)

        // W12 vs the empty W11: every change is null because every previous value is 0.
        let week12 = #"{"activeDays":1,"activeEnergyKcal":350,"byActivity":{"cycling":{"activeEnergyKcal":350,"distanceKm":12,"durationMinutes":40,"workouts":1}},"daily":["#
            + ["2026-03-16", "2026-03-17", "2026-03-18"].map(emptyDay).joined(separator: ",") + ","
            + #"{"activeEnergyKcal":350,"date":"2026-03-19","distanceKm":12,"durationMinutes":40,"steps":null,"strengthVolumeKg":0,"workouts":1},"#
            + ["2026-03-20", "2026-03-21", "2026-03-22"].map(emptyDay).joined(separator: ",")
            + #"],"distanceKm":12,"durationMinutes":40,"steps":0,"strengthVolumeKg":0,"vsPreviousWeek":{"activeDays":{"changePercent":null,"delta":1},"activeEnergyKcal":{"changePercent":null,"delta":350},"distanceKm":{"changePercent":null,"delta":12},"durationMinutes":{"changePercent":null,"delta":40},"steps":{"changePercent":null,"delta":0},"strengthVolumeKg":{"changePercent":null,"delta":0},"workouts":{"changePercent":null,"delta":1}},"week":"2026-W12","workouts":1}"#
        #expect(json(model.weeks[3].jsonValue) == week12)
    }

    @Test func weeklyStepsAreTheSumOfDailyMaxPerSourceValues() throws {
        var log = LogBuilder()
        // Monday: Watch 3000, iPhone 5000 → 5000. Tuesday: Watch 7000 → 7000. Week: 12 000.
        try log.quantity(.stepCount, id: "a", start: "2026-03-02T09:00:00+01:00", value: 3000)
        try log.quantity(.stepCount, id: "b", start: "2026-03-02T09:00:00+01:00", value: 5000, source: "iPhone")
        try log.quantity(.stepCount, id: "c", start: "2026-03-03T09:00:00+01:00", value: 7000)
        let week = try #require(ReadModelEngine.models(log.events).weeklyStats.weeks.first)
        #expect(week.totals.steps == 12000)
        #expect(week.daily.map(\.steps) == [5000, 7000, nil, nil, nil, nil, nil])
    }

    @Test func workoutAcrossTheDSTChangeCountsItsRealMinutes() throws {
        var log = LogBuilder()
        // 01:30 (+01:00) → 03:30 (+02:00) on 2026-03-29 is 00:30Z → 01:30Z: 60 minutes, not 120.
        try log.workout(id: "night-run", "running", from: "2026-03-29T01:30:00+01:00", to: "2026-03-29T03:30:00+02:00")
        let week = try #require(ReadModelEngine.models(log.events).weeklyStats.weeks.first)
        #expect(week.week.description == "2026-W13")
        #expect(week.totals.durationMinutes == 60)
        #expect(week.daily.last?.durationMinutes == 60)
    }

    @Test func weeksSpanTheYearBoundary() throws {
        var log = LogBuilder()
        try log.quantity(.stepCount, id: "a", start: "2025-12-24T09:00:00+01:00", value: 1)
        try log.quantity(.stepCount, id: "b", start: "2026-01-07T09:00:00+01:00", value: 1)
        let weeks = ReadModelEngine.models(log.events).weeklyStats.weeks
        // 2025-12-29 (Monday) starts 2026-W01.
        #expect(weeks.map(\.week.description) == ["2025-W52", "2026-W01", "2026-W02"])
        #expect(weeks[1].daily.map(\.date.description).first == "2025-12-29")
    }

    @Test func emptyLogHasNoWeeks() {
        #expect(text(ReadModelEngine.file(.weeklyStats, []).bytes) == #"{"throughSeq":0,"weeks":[]}"# + "\n")
    }
}
