// `Date` ↔ `Timestamp` and `Date` → `DayKey`, for an app holding Foundation's
// values, on every platform that has Foundation (Linux too). It lives here,
// not in DuneEvents, so that DuneEvents stays Foundation-free on Linux (see
// Package.swift); DuneProjections, which an app links, re-exports DuneEvents
// and brings these with it. FoundationEssentials is enough where it exists
// as its own module (Linux): `Date`, `TimeZone` and `Calendar` are there, and
// no ICU is linked for them. The arithmetic is in DuneEvents
// (`Timestamp.init(secondsSince1970:offsetSeconds:)`), one conversion for
// every route.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Timestamp {
    /// The instant `date`, written in the UTC offset `timeZone` has at that instant.
    ///
    /// This is how an app turns an `HKSample`'s dates into timestamps: the
    /// offset keeps the local date the user lived (a night in Tokyo stays on
    /// Tokyo's calendar after the phone moves to Paris). The instant is kept
    /// to the microsecond (the canonical precision,
    /// ``Timestamp/canonicalPrecisionNanoseconds``) and the offset to the
    /// minute — the same conversion as
    /// ``Timestamp/init(secondsSince1970:offsetSeconds:)`` with
    /// `date.timeIntervalSince1970`, so a sample built either way, or ingested
    /// as a line with the same instant, is the same content.
    ///
    /// ```swift
    /// let start = Timestamp(sample.startDate, in: .current)
    /// ```
    /// - Parameters:
    ///   - date: The instant.
    ///   - timeZone: The zone whose offset at `date` the timestamp is written in.
    public init(_ date: Date, in timeZone: TimeZone) {
        self.init(secondsSince1970: date.timeIntervalSince1970,
                  offsetSeconds: Int32(clamping: timeZone.secondsFromGMT(for: date)))
    }

    /// The instant as a `Date` (its written offset is not part of a `Date`).
    ///
    /// `Timestamp(timestamp.date, in: zone)` gives back the same instant at
    /// the canonical precision (a `Date` holds about 0.2 µs today).
    public var date: Date {
        Date(timeIntervalSince1970: Double(epochSeconds) + Double(nanoseconds) / 1e9)
    }
}

extension DayKey {
    /// The calendar date (proleptic Gregorian, as every ``DayKey``) of `date`
    /// in `timeZone`: the local date the user lived at that instant.
    ///
    /// ```swift
    /// let today = DayKey(Date(), in: .current)
    /// let day = state.readiness.days.first { $0.date == today }
    /// ```
    /// - Parameters:
    ///   - date: The instant.
    ///   - timeZone: The zone whose offset at `date` decides the date.
    public init(_ date: Date, in timeZone: TimeZone) {
        self = Timestamp(date, in: timeZone).localDate
    }

    /// The date of `date` in `calendar`'s time zone, as the read models key
    /// days: ISO-8601/Gregorian year, month and day, whatever the calendar's
    /// own era and months (a Japanese or Buddhist calendar names the same
    /// day differently; its time zone is what decides which day it is).
    ///
    /// - Parameters:
    ///   - date: The instant.
    ///   - calendar: The calendar whose time zone decides the date, e.g. `Calendar.current`.
    public init(_ date: Date, calendar: Calendar) {
        self.init(date, in: calendar.timeZone)
    }
}
