import DuneEvents
import DuneProjections
import DuneTools
import Testing

/// Trends golden values, worked out by hand from SPEC §6 and §6.2.
struct TrendsTests {
    /// L = 2026-03-31, the last day with a sample in these logs.
    private let lastDay = DayKey(year: 2026, month: 3, day: 31)

    @Test func changePercentDirectionAndInsufficientData() throws {
        var log = LogBuilder()
        // Baseline window L−34…L−7 = 02-25…03-24; 7 values on L−20…L−14 (03-11…03-17).
        for offset in -20 ... -14 {
            try log.quantity(.hrv, id: "h\(offset)", start: time(lastDay, plus: offset, offset: "Z"), value: 50)
            try log.quantity(.restingHeartRate, id: "r\(offset)", start: time(lastDay, plus: offset, offset: "Z"), value: 60)
            try log.sleep(id: "s\(offset)", .asleepCore, from: time(lastDay, plus: offset, "00:00:00", offset: "Z"),
                          to: time(lastDay, plus: offset, "06:40:00", offset: "Z"))  // 400 min
        }
        // 6 body-mass values in the baseline window: one short of 7.
        for offset in -20 ... -15 {
            try log.quantity(.bodyMass, id: "m\(offset)", start: time(lastDay, plus: offset, offset: "Z"), value: 80)
        }
        // Recent window L−6…L: 3 values on L−2…L.
        for offset in -2 ... 0 {
            try log.quantity(.hrv, id: "h\(offset)", start: time(lastDay, plus: offset, offset: "Z"), value: 55)
            try log.quantity(.restingHeartRate, id: "r\(offset)", start: time(lastDay, plus: offset, offset: "Z"), value: 54)
            try log.sleep(id: "s\(offset)", .asleepCore, from: time(lastDay, plus: offset, "00:00:00", offset: "Z"),
                          to: time(lastDay, plus: offset, "06:48:00", offset: "Z"))  // 408 min
            try log.quantity(.bodyMass, id: "m\(offset)", start: time(lastDay, plus: offset, offset: "Z"), value: 79)
        }
        // Only 2 recent step values.
        try log.quantity(.stepCount, id: "st1", start: time(lastDay, plus: -1, offset: "Z"), value: 9000)
        try log.quantity(.stepCount, id: "st2", start: time(lastDay, offset: "Z"), value: 11000)

        let model = ReadModelEngine.models(log.events).trends
        #expect(model.lastDay == lastDay)
        // hrv: avg7(L) = 55, baseline mean 50: (55 − 50)/50·100 = +10 → up.
        // Daily points: avg7 of 03-29 is 55 (no value in 03-23…03-28);
        //   avg28 of 03-29 (03-02…03-29) = (7·50 + 55)/8 = 50.625,
        //   of 03-30 = (350 + 110)/9 = 51.111, of 03-31 = (350 + 165)/10 = 51.5.
        #expect(json(try #require(model.trend(.hrv)).jsonValue) == #"{"changePercent":10,"daily":[{"avg28":50,"avg7":50,"date":"2026-03-11","value":50},{"avg28":50,"avg7":50,"date":"2026-03-12","value":50},{"avg28":50,"avg7":50,"date":"2026-03-13","value":50},{"avg28":50,"avg7":50,"date":"2026-03-14","value":50},{"avg28":50,"avg7":50,"date":"2026-03-15","value":50},{"avg28":50,"avg7":50,"date":"2026-03-16","value":50},{"avg28":50,"avg7":50,"date":"2026-03-17","value":50},{"avg28":50.625,"avg7":55,"date":"2026-03-29","value":55},{"avg28":51.111,"avg7":55,"date":"2026-03-30","value":55},{"avg28":51.5,"avg7":55,"date":"2026-03-31","value":55}],"direction":"up","measure":"sdnn"}"#)
        // restingHeartRate: (54 − 60)/60·100 = −10 → down.
        #expect(model.trend(.restingHeartRate)?.changePercent.map(Rounding.thousandths) == -10)
        #expect(model.trend(.restingHeartRate)?.direction == .down)
        // sleepMinutes: (408 − 400)/400·100 = +2 → stable.
        #expect(model.trend(.sleepMinutes)?.changePercent.map(Rounding.thousandths) == 2)
        #expect(model.trend(.sleepMinutes)?.direction == .stable)
        // steps: 2 recent values < 3; bodyMass: 6 baseline values < 7.
        #expect(model.trend(.steps)?.changePercent == nil)
        #expect(model.trend(.steps)?.direction == .insufficientData)
        #expect(model.trend(.bodyMass)?.direction == .insufficientData)
        // Metrics without any value are listed, empty.
        #expect(json(try #require(model.trend(.bodyMassIndex)).jsonValue)
            == #"{"changePercent":null,"daily":[],"direction":"insufficientData"}"#)
        #expect(model.metrics.map(\.metric) == TrendMetric.allCases)
    }

    @Test func baselineMeanOfZeroIsInsufficientData() throws {
        var log = LogBuilder()
        // Zero-length workouts on 7 baseline days (0 min each), 30-min workouts on 3 recent days.
        for offset in -14 ... -8 {
            try log.workout(id: "w\(offset)", "walking", from: time(lastDay, plus: offset), to: time(lastDay, plus: offset))
        }
        for offset in -2 ... 0 {
            try log.workout(id: "w\(offset)", "walking", from: time(lastDay, plus: offset, "07:00:00"),
                            to: time(lastDay, plus: offset, "07:30:00"))
        }
        let trend = try #require(ReadModelEngine.models(log.events).trends.trend(.workoutMinutes))
        #expect(trend.baseline?.values == [0, 0, 0, 0, 0, 0, 0])
        #expect(trend.recent?.values == [30, 30, 30])
        #expect(trend.changePercent == nil)
        #expect(trend.direction == .insufficientData)
    }

    @Test func directionThresholdsAreInclusive() {
        #expect(TrendFormula.direction(changePercent: 5) == .up)
        #expect(TrendFormula.direction(changePercent: 4.999) == .stable)
        #expect(TrendFormula.direction(changePercent: -5) == .down)
        #expect(TrendFormula.direction(changePercent: -4.999) == .stable)
        #expect(TrendFormula.direction(changePercent: nil) == .insufficientData)
    }

    @Test func hrvNormalRangeOverLnDailyHRVInTheLast60Days() throws {
        var log = LogBuilder()
        // L−19…L: 60 ms on even offsets, 50 ms on odd ones (10 each); L−60 is outside the window.
        try log.quantity(.hrv, id: "outside", start: time(lastDay, plus: -60), value: 200)
        for offset in -19 ... 0 {
            try log.quantity(.hrv, id: "h\(offset)", start: time(lastDay, plus: offset), value: offset % 2 == 0 ? 60 : 50)
        }
        // μ60 = (ln 60 + ln 50)/2 = 4.003184; deviations ±0.091161, σ60 = 0.091161·√(20/19) = 0.093529
        // low = μ − σ/2 = 3.956419, high = μ + σ/2 = 4.049948
        // avg7 = ln values on L−6…L: 4 × ln 60 + 3 × ln 50 = (16.377378 + 11.736069)/7 = 4.016207 → within
        let range = try #require(ReadModelEngine.models(log.events).trends.hrvNormalRange)
        #expect(json(range.jsonValue) == #"{"avg7":4.016,"high":4.05,"low":3.956,"mean":4.003,"n":20,"position":"within","sd":0.094}"#)
        #expect(range.window.days.first == lastDay.adding(days: -19))
    }

    @Test func hrvNormalRangeIsNullBelow14DaysAndPositionFollowsAvg7() throws {
        var log = LogBuilder()
        for offset in -12 ... 0 {
            try log.quantity(.hrv, id: "h\(offset)", start: time(lastDay, plus: offset), value: 50)
        }
        #expect(ReadModelEngine.models(log.events).trends.hrvNormalRange == nil)  // n = 13

        try log.quantity(.hrv, id: "h-13", start: time(lastDay, plus: -13), value: 80)
        // n = 14: 13 × ln 50 + ln 80; the high day is outside L−6…L, avg7 = ln 50 = 3.912.
        // μ = (13·3.912023 + 4.382027)/14 = 3.945595;
        // Σ(x−μ)² = 13·(−0.033572)² + 0.436432² = 0.014652 + 0.190473 = 0.205125, σ = √(0.205125/13) = 0.125614;
        // low = μ − σ/2 = 3.882788, high = 4.008402: avg7 3.912023 is within.
        let range = try #require(ReadModelEngine.models(log.events).trends.hrvNormalRange)
        #expect(range.position == .within)

        try log.quantity(.stepCount, id: "later", start: time(lastDay, plus: 10), value: 100)
        // L moves 10 days on: L−6…L has no HRV day, so avg7 and position are null.
        let moved = try #require(ReadModelEngine.models(log.events).trends.hrvNormalRange)
        #expect(moved.avg7 == nil)
        #expect(moved.position == nil)
    }

    @Test func trainingLoadFromFirstWorkoutDayToTheLastDay() throws {
        var log = LogBuilder()
        try log.quantity(.stepCount, id: "before", start: "2026-03-01T12:00:00+01:00", value: 100)
        try log.workout(id: "w1", "running", from: "2026-03-02T07:00:00+01:00", to: "2026-03-02T08:00:00+01:00")
        try log.workout(id: "w2", "cycling", from: "2026-03-04T07:00:00+01:00", to: "2026-03-04T07:30:00+01:00")
        try log.quantity(.stepCount, id: "after", start: "2026-03-05T12:00:00+01:00", value: 100)

        // k42 = 1 − e^(−1/42) = 0.0235283, k7 = 1 − e^(−1/7) = 0.1331221; CTL, ATL start at 0.
        // 03-02 load 60: TSB = 0 − 0 = 0;            CTL = 60·k42 = 1.411699;  ATL = 60·k7 = 7.987326
        // 03-03 load 0:  TSB = 1.411699 − 7.987326 = −6.575627;
        //                CTL = 1.411699·(1 − k42) = 1.378484;  ATL = 7.987326·(1 − k7) = 6.924036
        // 03-04 load 30: TSB = 1.378484 − 6.924036 = −5.545552;
        //                CTL = 1.378484 + (30 − 1.378484)·k42 = 2.051900;  ATL = 6.924036 + (30 − 6.924036)·k7 = 9.995957
        // 03-05 load 0:  TSB = 2.051900 − 9.995957 = −7.944057;
        //                CTL = 2.051900·(1 − k42) = 2.003622;  ATL = 9.995957·(1 − k7) = 8.665274
        let model = ReadModelEngine.models(log.events).trends
        #expect(json(.array(model.trainingLoad.map(\.jsonValue))) == #"[{"atl":7.987,"ctl":1.412,"date":"2026-03-02","load":60,"tsb":0},{"atl":6.924,"ctl":1.378,"date":"2026-03-03","load":0,"tsb":-6.576},{"atl":9.996,"ctl":2.052,"date":"2026-03-04","load":30,"tsb":-5.546},{"atl":8.665,"ctl":2.004,"date":"2026-03-05","load":0,"tsb":-7.944}]"#)
    }

    @Test func emptyLogHasNoLastDayRangeOrLoad() {
        let file = ReadModelEngine.file(.trends, [])
        #expect(text(file.bytes) == #"{"hrvNormalRange":null,"lastDay":null,"metrics":{"bodyFatPercentage":{"changePercent":null,"daily":[],"direction":"insufficientData"},"bodyMass":{"changePercent":null,"daily":[],"direction":"insufficientData"},"bodyMassIndex":{"changePercent":null,"daily":[],"direction":"insufficientData"},"hrv":{"changePercent":null,"daily":[],"direction":"insufficientData","measure":null},"restingHeartRate":{"changePercent":null,"daily":[],"direction":"insufficientData"},"sleepMinutes":{"changePercent":null,"daily":[],"direction":"insufficientData"},"steps":{"changePercent":null,"daily":[],"direction":"insufficientData"},"workoutMinutes":{"changePercent":null,"daily":[],"direction":"insufficientData"}},"throughSeq":0,"trainingLoad":[]}"# + "\n")
        #expect(file.fileName == "trends.json")
    }
}

/// The daily points' 7- and 28-day means, found by moving windows, are the
/// formula's (``TrendFormula/avg7(_:on:)``, ``TrendFormula/avg28(_:on:)``) bit for bit.
struct TrendWindowTests {
    @Test func movingWindowsGiveTheFormulasMeans() {
        // Days with gaps of 1 to 40 days, values with many decimals, runs of equal values.
        var days: [DayKey] = []
        var values: [Double] = []
        var day = DayKey(year: 2020, month: 1, day: 1)
        for index in 0..<600 {
            days.append(day)
            values.append(index % 50 < 10 ? 42 : 40 + Double((index * 7919) % 1000) / 37)
            day = day.adding(days: [1, 1, 1, 2, 1, 3, 1, 1, 40, 1, 6, 27, 1, 28][index % 14])
        }
        let series = DailySeries(days: days, values: values)
        let trend = MetricTrend(metric: .steps, series: series, lastDay: days.last)
        #expect(trend.daily.count == days.count)
        for (point, day) in zip(trend.daily, days) {
            #expect(point.avg7.bitPattern == TrendFormula.avg7(series, on: day)?.bitPattern, "\(day)")
            #expect(point.avg28.bitPattern == TrendFormula.avg28(series, on: day)?.bitPattern, "\(day)")
        }
        // Keeping any prefix of the points and computing the rest gives the same points.
        for keptCount in [1, 9, 300, 599] {
            let resumed = MetricTrend(metric: .steps, series: series, lastDay: days.last, keeping: trend.daily.prefix(keptCount))
            #expect(resumed.daily == trend.daily, "kept \(keptCount)")
        }
    }
}
