@testable import DuneHealthKit
import DuneProjections
import Testing

/// A reconcile's HealthKit query must answer every sample whose day (§2) lies
/// in the range, at every offset a timestamp can have (−12 h … +14 h): a
/// sample it missed would be deleted.
struct ReconcileWindowTests {
    private static let days = DayKey(year: 2026, month: 3, day: 28)...DayKey(year: 2026, month: 3, day: 30)
    /// Every quarter-hour offset from −12:00 to +14:00.
    private static let offsets = stride(from: -12 * 3600, through: 14 * 3600, by: 900).map(Int32.init)

    /// The instant of local time `seconds` after midnight of `day`, written in `offset`.
    private static func local(_ day: DayKey, _ seconds: Int64, offset: Int32) -> Timestamp {
        Timestamp(epochSeconds: Int64(day.ordinal) * 86_400 + seconds - Int64(offset), offsetSeconds: offset)
    }

    @Test(arguments: [SampleKind.hrv, .stepCount, .workout])
    func coversEverySampleStartingOnTheDaysAtEveryOffset(kind: SampleKind) {
        let window = ReconcileWindow(kind: kind, days: Self.days)
        for offset in Self.offsets {
            for day in [Self.days.lowerBound, Self.days.upperBound] {
                for seconds: Int64 in [0, 86_399] {
                    let start = Self.local(day, seconds, offset: offset)
                    #expect(Self.days.contains(start.localDate))
                    #expect(window.covers(start: start, end: start.adding(seconds: 600)), "start \(start)")
                }
            }
        }
        // The margins are 14 h, not more: an instant 15 h before the first day's UTC midnight is outside.
        let before = Timestamp(epochSeconds: Int64(Self.days.lowerBound.ordinal) * 86_400 - 15 * 3600, offsetSeconds: 0)
        #expect(!window.covers(start: before, end: before))
    }

    @Test func coversEveryNightEndingOnTheDaysAtEveryOffset() {
        let window = ReconcileWindow(kind: .sleep, days: Self.days)
        for offset in Self.offsets {
            for day in [Self.days.lowerBound, Self.days.upperBound] {
                // A night belongs to the local date of end + 6 h: ends from 18:00 the day before to 17:59:59.
                for seconds: Int64 in [-6 * 3600, 18 * 3600 - 1] {
                    let end = Self.local(day, seconds, offset: offset)
                    #expect(Self.days.contains(end.adding(seconds: 6 * 3600).localDate))
                    #expect(window.covers(start: end.adding(seconds: -8 * 3600), end: end), "end \(end)")
                }
            }
        }
    }
}
