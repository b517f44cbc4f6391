import Foundation
import Testing
import DuneEvents
@testable import DuneProjections
import DuneTools

/// Issue 35, item 2: one `Date` → `Timestamp` conversion on every platform,
/// at one canonical precision (the microsecond), so the same instant by any
/// route is the same content — also against a log an earlier conversion
/// wrote with nine-digit fractions (`Tests/Golden/nanosecond-dates/`).
@Suite struct DateConversionTests {
    static let oldLog = GoldenLogTests.repository + "/Tests/Golden/nanosecond-dates/events.jsonl"
    static let paris = TimeZone(secondsFromGMT: 3600)!

    @Test func everyRouteGivesTheSameTextAtTheMicrosecond() throws {
        let seconds = 1_772_431_960.123
        let byNumber = Timestamp(secondsSince1970: seconds, offsetSeconds: 3600)
        #expect(byNumber.text == "2026-03-02T07:12:40.123+01:00")
        let byDate = Timestamp(Date(timeIntervalSince1970: seconds), in: Self.paris)
        #expect(byDate == byNumber)
        let byReferenceDate = Timestamp(Date(timeIntervalSinceReferenceDate: seconds - 978_307_200), in: Self.paris)
        #expect(byReferenceDate.canonicalText == byNumber.canonicalText)
        let parsed = try Timestamp(parsing: "2026-03-02T07:12:40.123000+01:00")
        #expect(parsed.canonicalText == byNumber.canonicalText)
        // What the 0.1.0 conversion wrote for the same `Date`: the same instant at the microsecond.
        #expect(try Timestamp(parsing: "2026-03-02T07:12:40.122999907+01:00").canonicalText == "2026-03-02T07:12:40.123+01:00")
        // Sub-microsecond digits round half up, carrying into the second.
        #expect(try Timestamp(parsing: "2026-03-02T07:12:40.9999995Z").canonicalText == "2026-03-02T07:12:41Z")
        #expect(try Timestamp(parsing: "2026-03-02T07:12:40.000250Z").canonicalText == "2026-03-02T07:12:40.00025Z")
        // A number that is no instant is clamped, never a trap; the window rejects it.
        #expect(!TimestampWindow.contains(Timestamp(secondsSince1970: .nan, offsetSeconds: 0)))
        #expect(!TimestampWindow.contains(Timestamp(secondsSince1970: -.infinity, offsetSeconds: 0)))
        #expect(Timestamp(secondsSince1970: -0.25, offsetSeconds: 0).text == "1969-12-31T23:59:59.750Z")
    }

    @Test func aTimestampGivesBackItsDateAndDayKeysComeFromADateAndAZone() throws {
        let timestamp = try Timestamp(parsing: "2026-03-02T00:30:00.250+01:00")
        #expect(timestamp.date == Date(timeIntervalSince1970: 1_772_407_800.25))
        #expect(Timestamp(timestamp.date, in: Self.paris) == timestamp)
        // 23:30 UTC on 1 March is already 2 March in Paris.
        #expect(DayKey(timestamp.date, in: TimeZone(secondsFromGMT: 0)!) == DayKey("2026-03-01"))
        #expect(DayKey(timestamp.date, in: Self.paris) == DayKey("2026-03-02"))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: -5 * 3600)!
        #expect(DayKey(timestamp.date, calendar: calendar) == DayKey("2026-03-01"))
    }

    /// The log of `Tests/Golden/nanosecond-dates/` holds three samples as the
    /// 0.1.0 conversion stored them (`…40.122999907+01:00`). The same samples
    /// sent today, as a `Date`, as seconds or as a line, are `alreadyAppended`.
    @Test func samplesStoredByTheOldConversionAreTheSameContent() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            try FileManager.default.copyItem(atPath: Self.oldLog, toPath: path)
            func hrv(_ id: String, _ seconds: Double, _ value: Double, byDate: Bool) -> StoreInput {
                let start = byDate ? Timestamp(Date(timeIntervalSince1970: seconds), in: Self.paris)
                    : Timestamp(secondsSince1970: seconds, offsetSeconds: 3600)
                let end = byDate ? Timestamp(Date(timeIntervalSince1970: seconds + 60), in: Self.paris)
                    : Timestamp(secondsSince1970: seconds + 60, offsetSeconds: 3600)
                return .sample(SampleInput(id: id, start: start, end: end, source: "Apple Watch", reading: .hrv(value, .milliseconds)))
            }
            let store = try await DuneStore.open(at: path)
            let rhrStart = Timestamp(Date(timeIntervalSince1970: 1_772_518_300.2), in: Self.paris)
            let rhrEnd = Timestamp(Date(timeIntervalSince1970: 1_772_518_300.2 + 3600), in: Self.paris)
            let outcomes = try await store.append([
                hrv("hrv-date-1", 1_772_431_960.123, 48, byDate: true),
                hrv("hrv-date-1", 1_772_431_960.123, 48, byDate: false),
                hrv("hrv-date-2", 1_772_518_360.987654, 52.5, byDate: true),
                .sample(SampleInput(id: "rhr-date-1", start: rhrStart, end: rhrEnd, source: "Apple Watch",
                                    reading: .restingHeartRate(55, .countPerMinute))),
            ])
            #expect(outcomes == [.alreadyAppended, .alreadyAppended, .alreadyAppended, .alreadyAppended])
            // A different instant (a millisecond later) is a correction.
            #expect(try await store.append(hrv("hrv-date-1", 1_772_431_960.124, 48, byDate: true)) == .appended(seq: 4))
            await store.close()

            // The same sample as an `ingest` line, as a person would write it.
            let log = try EventLog(path: path)
            let line = #"{"type":"sample","kind":"hrv","id":"hrv-date-2","start":"2026-03-03T07:12:40.987654+01:00","end":"2026-03-03T07:13:40.987654+01:00","value":52.5,"unit":"ms","source":"Apple Watch"}"#
            #expect(try await log.ingest([try InputParser.parse(line)]).results.map(\.outcome) == [.alreadyAppended])
            await log.close()
        }
    }
}
