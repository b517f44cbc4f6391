import Testing
@testable import DuneEvents

@Suite struct TimestampTests {
    @Test func parsesOffsetAndKeepsTheText() throws {
        let timestamp = try Timestamp(parsing: "2026-02-28T07:12:00+09:00")
        #expect(timestamp.epochSeconds == 1_772_230_320)
        #expect(timestamp.offsetSeconds == 9 * 3600)
        #expect(timestamp.nanoseconds == 0)
        #expect(timestamp.text == "2026-02-28T07:12:00+09:00")
        #expect(timestamp.localDate == DayKey(year: 2026, month: 2, day: 28))
    }

    @Test func parsesZuluAndFractions() throws {
        let timestamp = try Timestamp(parsing: "2026-02-27T22:12:00.250Z")
        #expect(timestamp.epochSeconds == 1_772_230_320)
        #expect(timestamp.nanoseconds == 250_000_000)
        #expect(timestamp.offsetSeconds == 0)
    }

    @Test func localDateUsesTheWrittenOffset() throws {
        // The same instant is the 28th in Tokyo and the 27th in New York.
        #expect(try Timestamp(parsing: "2026-02-28T07:12:00+09:00").localDate.description == "2026-02-28")
        #expect(try Timestamp(parsing: "2026-02-27T17:12:00-05:00").localDate.description == "2026-02-27")
    }

    @Test(arguments: [
        ("2026-02-28T07:12:00", "timestamp \"2026-02-28T07:12:00\" has no UTC offset; add 'Z' or '±HH:MM' (e.g. 2026-02-28T07:12:00Z)"),
        ("2026-02-28 07:12:00+01:00", "timestamp \"2026-02-28 07:12:00+01:00\" has no time part; expected YYYY-MM-DDTHH:MM:SS±HH:MM"),
        ("2026-02-30T07:12:00Z", "timestamp \"2026-02-30T07:12:00Z\" has day 30, which 2026-02 does not have"),
        ("2026-13-01T07:12:00Z", "timestamp \"2026-13-01T07:12:00Z\" has month 13, outside 1–12"),
        ("2026-02-28T07:12Z", "timestamp \"2026-02-28T07:12Z\" has no seconds; expected HH:MM:SS"),
        ("2026-02-28T24:00:00Z", "timestamp \"2026-02-28T24:00:00Z\" has a time outside 00:00:00–23:59:59"),
        ("2026-02-28T07:12:00+0900", "timestamp \"2026-02-28T07:12:00+0900\" has an invalid UTC offset; expected ±HH:MM"),
        ("yesterday", "timestamp \"yesterday\" is not an RFC 3339 date-time (expected YYYY-MM-DDTHH:MM:SS±HH:MM)"),
    ])
    func rejectsWithAReason(text: String, reason: String) {
        #expect(throws: Timestamp.ParseError(reason: reason)) { try Timestamp(parsing: text) }
    }

    @Test func formatsBackToRFC3339() {
        let timestamp = Timestamp(epochSeconds: 1_772_230_320, offsetSeconds: -5 * 3600 - 30 * 60)
        #expect(timestamp.text == "2026-02-27T16:42:00-05:30")
        #expect(Timestamp(epochSeconds: 0, nanoseconds: 120_000_000, offsetSeconds: 0).text == "1970-01-01T00:00:00.120Z")
    }

    @Test(arguments: [
        ("2026-01-01", "2026-W01", 4), ("2027-01-01", "2026-W53", 5), ("2024-12-30", "2025-W01", 1),
        ("2026-02-23", "2026-W09", 1), ("2026-03-01", "2026-W09", 7), ("2021-01-03", "2020-W53", 7),
    ])
    func isoWeeks(date: String, week: String, weekday: Int) throws {
        let day = try #require(DayKey(date))
        #expect(day.isoWeek.description == week)
        #expect(day.isoWeekday == weekday)
        #expect(WeekKey(week)?.monday.isoWeek.description == week)
    }

    @Test func dayKeyRoundTripsOverFourCenturies() {
        for ordinal in stride(from: -200_000, to: 200_000, by: 97) {
            let day = DayKey(ordinal: ordinal)
            let (year, month, dayOfMonth) = day.components
            #expect(DayKey(year: year, month: month, day: dayOfMonth) == day)
            #expect(DayKey(day.description) == day || year < 0)
        }
    }

    @Test func sleepCountsForTheMorningItEnds() throws {
        func sleep(end: String) throws -> Sample {
            Sample(id: "s", kind: .sleep, start: try Timestamp(parsing: "2026-03-01T12:00:00+01:00"), end: try Timestamp(parsing: end),
                   source: "Apple Watch", reading: .sleep(.asleepCore))
        }
        // Ends 17:59 → counts for that day; ends 18:00 → the next day (18:00 + 6 h = midnight).
        #expect(try sleep(end: "2026-03-01T17:59:00+01:00").day.description == "2026-03-01")
        #expect(try sleep(end: "2026-03-01T18:00:00+01:00").day.description == "2026-03-02")
        #expect(try sleep(end: "2026-03-02T06:30:00+01:00").day.description == "2026-03-02")
    }
}
