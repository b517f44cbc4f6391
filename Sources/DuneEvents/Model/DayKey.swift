/// A calendar date (proleptic Gregorian), the key of every daily value.
///
/// Stored as a day ordinal (days since 1970-01-01) so that date arithmetic is
/// integer arithmetic and never consults a calendar or a time zone.
public struct DayKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Days since 1970-01-01.
    public let ordinal: Int

    /// The date `ordinal` days after 1970-01-01 (before it when negative).
    public init(ordinal: Int) {
        self.ordinal = ordinal
    }

    /// The date `year-month-day`; the components must form a valid date.
    public init(year: Int, month: Int, day: Int) {
        // Days from civil, after Howard Hinnant's public-domain algorithm.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        self.ordinal = era * 146_097 + dayOfEra - 719_468
    }

    /// Parses `YYYY-MM-DD`; `nil` when the text is not a valid date.
    public init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              (1...12).contains(month), (1...DayKey.daysIn(year: year, month: month)).contains(day)
        else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Year, month and day of this date.
    public var components: (year: Int, month: Int, day: Int) {
        let z = ordinal + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// ISO weekday, Monday = 1 … Sunday = 7.
    public var isoWeekday: Int {
        // 1970-01-01 was a Thursday (4).
        ((ordinal % 7 + 7) % 7 + 3) % 7 + 1
    }

    /// The ISO-8601 week this date belongs to.
    public var isoWeek: WeekKey {
        let thursday = DayKey(ordinal: ordinal - isoWeekday + 4)
        let year = thursday.components.year
        let firstThursdayOrdinal = DayKey(year: year, month: 1, day: 4).ordinal
        let firstMonday = firstThursdayOrdinal - DayKey(ordinal: firstThursdayOrdinal).isoWeekday + 1
        return WeekKey(year: year, week: (ordinal - firstMonday) / 7 + 1)
    }

    /// The date `days` later (earlier when negative).
    public func adding(days: Int) -> DayKey { DayKey(ordinal: ordinal + days) }

    /// The date as `YYYY-MM-DD`.
    public var description: String {
        let (year, month, day) = components
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText
            + (month < 10 ? "-0" : "-") + String(month) + (day < 10 ? "-0" : "-") + String(day)
    }

    /// Whether `lhs` is an earlier date than `rhs`.
    public static func < (lhs: DayKey, rhs: DayKey) -> Bool { lhs.ordinal < rhs.ordinal }

    /// Days in `month` of `year`.
    package static func daysIn(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// An ISO-8601 week (Monday first), written `2026-W09`.
public struct WeekKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The ISO week-numbering year, which differs from the calendar year for a few days around 1 January.
    public let year: Int
    /// The week of that year, 1–53.
    public let week: Int

    /// The week `week` of ISO year `year`; not checked (``init(_:)`` checks text).
    public init(year: Int, week: Int) {
        self.year = year
        self.week = week
    }

    /// Parses `YYYY-Www`; `nil` when the text is not such a week.
    public init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 2, parts[0].count == 4, let year = Int(parts[0]),
              parts[1].count == 3, parts[1].first == "W", let week = Int(parts[1].dropFirst()),
              (1...53).contains(week)
        else { return nil }
        let candidate = WeekKey(year: year, week: week)
        guard candidate.monday.isoWeek == candidate else { return nil }
        self = candidate
    }

    /// The Monday that starts this week.
    public var monday: DayKey {
        let january4 = DayKey(year: year, month: 1, day: 4)
        return DayKey(ordinal: january4.ordinal - january4.isoWeekday + 1 + (week - 1) * 7)
    }

    /// The week after this one.
    public var next: WeekKey { monday.adding(days: 7).isoWeek }

    /// The week as `YYYY-Www`, e.g. `2026-W09`.
    public var description: String {
        "\(year)-W\(week < 10 ? "0" : "")\(week)"
    }

    /// Whether `lhs` is an earlier week than `rhs`.
    public static func < (lhs: WeekKey, rhs: WeekKey) -> Bool {
        (lhs.year, lhs.week) < (rhs.year, rhs.week)
    }
}
