import DuneEvents
@testable import DuneProjections
import DuneTools
import Foundation
import Testing

/// Rounding, statistics, the pure-Swift ln/exp and projection names.
struct SupportTests {
    @Test func roundingIsHalfAwayFromZeroAndNeverNegativeZero() {
        #expect(Rounding.thousandths(1.23456) == 1.235)
        #expect(Rounding.thousandths(-1.2345) == -1.235)  // −1234.5 (exact in binary) → −1235
        #expect(Rounding.thousandths(-0.0004) == 0)
        #expect(Rounding.thousandths(-0.0004).sign == .plus)
        #expect(Rounding.tenths(77.44295) == 77.4)
        #expect(Rounding.tenths(66.96) == 67)
        #expect(JSONWriter.formatNumber(Rounding.thousandths(16.6666666)) == "16.667")
    }

    @Test func sampleStatisticsUseTheSampleStandardDeviation() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, Σ(x−5)² = 32, sd = √(32/7) = 2.138090
        let statistics = SampleStatistics([2, 4, 4, 4, 5, 5, 7, 9])
        #expect(statistics.n == 8)
        #expect(statistics.mean == 5)
        #expect(statistics.sd == (32.0 / 7).squareRoot())
        #expect(SampleStatistics([Double]()) == SampleStatistics([Double]()))
        #expect(SampleStatistics([Double]()).mean == nil)
        #expect(SampleStatistics([3]).sd == nil)
        // Equal values: σ exactly 0 and μ exactly the value, whatever the rounding of the sum.
        let constant = SampleStatistics(Array(repeating: 0.1, count: 14))
        #expect(constant.mean == 0.1)
        #expect(constant.sd == 0)
    }

    @Test func seriesStatisticsEqualTheWindowsStatistics() {
        // The read models' fast path (no window arrays) against the window's own statistics.
        var state: UInt64 = 7
        func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        var days: [DayKey] = []
        var values: [Double] = []
        var ordinal = DayKey("2020-01-01")!.ordinal
        for _ in 0..<400 {
            ordinal += Int(next() % 4) + 1
            days.append(DayKey(ordinal: ordinal))
            // Runs of equal values too: their mean is the value itself.
            values.append(next() % 5 == 0 ? 0.1 : Double(next() % 10_000) / 7)
        }
        let series = DailySeries(days: days, values: values)
        for _ in 0..<2_000 {
            let first = DayKey(ordinal: days[0].ordinal - 10 + Int(next() % UInt64(days.count * 3)))
            let last = first.adding(days: Int(next() % 80) - 5)
            #expect(series.statistics(from: first, through: last) == series.window(from: first, through: last).statistics)
        }
    }

    @Test func pureSwiftLogAndExpMatchTheCLibrary() {
        var x = 1e-6
        while x < 1e6 {
            let expected = Foundation.log(x)
            #expect(abs(DeterministicMath.log(x) - expected) <= 4 * max(abs(expected), 1) * Double.ulpOfOne)
            x *= 1.37
        }
        for x in stride(from: -30.0, through: 30.0, by: 0.173) {
            let expected = Foundation.exp(x)
            #expect(abs(DeterministicMath.exp(x) - expected) <= 4 * expected * Double.ulpOfOne)
        }
        #expect(DeterministicMath.log(1) == 0)
        #expect(DeterministicMath.exp(0) == 1)
        #expect(DeterministicMath.log(0) == -.infinity)
        #expect(DeterministicMath.log(-1).isNaN)
    }

    @Test func projectionNamesOnTheCommandLineAndOnDisk() {
        #expect(ProjectionName.allCases.map(\.cliName) == ["readiness", "trends", "weekly", "sync"])
        #expect(ProjectionName.allCases.map(\.fileName)
            == ["readiness.json", "trends.json", "weekly-stats.json", "sync-status.json"])
        #expect(ProjectionName(cliName: "weekly") == .weeklyStats)
        #expect(ProjectionName(cliName: "sync") == .syncStatus)
        #expect(ProjectionName(cliName: "weeklyStats") == .weeklyStats)
        #expect(ProjectionName(cliName: "Weekly") == nil)
        #expect(ProjectionName.allCases.sorted() == ProjectionName.allCases)
    }

    @Test func projectionsSkipEventsAtOrBelowThroughSeq() throws {
        var log = LogBuilder()
        try log.quantity(.hrv, id: "a", start: "2026-03-02T07:00:00Z", value: 50)
        try log.quantity(.hrv, id: "a", start: "2026-03-02T07:00:00Z", value: 70)
        var projection = ReadModelEngine(replaying: log.events)
        // Replaying seq 1 again must not undo the correction at seq 2.
        projection.apply([log.events[0]])
        #expect(projection.throughSeq == 2)
        #expect(projection.dailyValues(on: try day("2026-03-02"))?.hrv?.value == 70)
    }
}
