import DuneEvents

/// The weekly-stats read model: every ISO week from the first to the last day
/// with any sample, weeks without data included.
public struct WeeklyStatsModel: Sendable, Equatable, ReadModel {
    /// The `seq` of the last event the model reflects; 0 for an empty log.
    public package(set) var throughSeq: Int
    /// Ascending.
    public let weeks: [WeekStats]

    /// The version of the weekly-stats model's output (see ``TrendsModel/foldVersion``).
    package static let foldVersion: UInt32 = 1
    /// CRC-32 of `weekly-stats.json` rebuilt from the shipped sample log at ``foldVersion``.
    package static let foldVersionOutputCRC: UInt32 = 0xcf0192f4

    package init(throughSeq: Int, weeks: [WeekStats]) {
        self.throughSeq = throughSeq
        self.weeks = weeks
    }

    /// The model of `days` (every day with a sample, ascending).
    /// - Complexity: O(d + w) for d days and w weeks.
    init(throughSeq: Int, days: [WeeklyDay]) {
        var weeks: [WeekStats] = []
        if let first = days.first?.date.isoWeek, let last = days.last?.date.isoWeek {
            weeks.reserveCapacity((last.monday.ordinal - first.monday.ordinal) / 7 + 1)
            Self.appendWeeks(from: first, through: last, days: days[...], to: &weeks)
        }
        self.init(throughSeq: throughSeq, weeks: weeks)
    }

    /// The model of `days` (every day with a sample, ascending), where the
    /// days before `firstChanged` have the same values as in `previous`:
    /// the weeks before `firstChanged`'s are taken from it (a week reads only
    /// its own days and the week before), the others computed. The same
    /// model as ``init(throughSeq:days:)`` gives.
    /// - Complexity: O(w) for w weeks, plus computing the weeks from `firstChanged`'s on.
    init(throughSeq: Int, days: [WeeklyDay], keeping previous: WeeklyStatsModel, before firstChanged: DayKey) {
        guard let first = days.first?.date.isoWeek, let last = days.last?.date.isoWeek else {
            self.init(throughSeq: throughSeq, weeks: [])
            return
        }
        let changedWeek = firstChanged.isoWeek
        var weeks = Array(previous.weeks.prefix { $0.week < changedWeek && $0.week <= last })
        // The kept weeks hold only while the model still starts where they do.
        if weeks.first?.week != first { weeks = [] }
        let start = weeks.last?.week.next ?? first
        if start <= last {
            let from = days.firstIndex { $0.date >= start.monday } ?? days.endIndex
            Self.appendWeeks(from: start, through: last, days: days[from...], to: &weeks)
        }
        self.init(throughSeq: throughSeq, weeks: weeks)
    }

    /// Appends the weeks `first…last` to `weeks` (which ends with the week before
    /// `first`, if any), from `days`: the days with a sample from `first` on, ascending.
    private static func appendWeeks(from first: WeekKey, through last: WeekKey, days: ArraySlice<WeeklyDay>,
                                    to weeks: inout [WeekStats]) {
        var index = days.startIndex
        var week = first
        var previous = weeks.last?.totals
        while week <= last {
            let end = week.monday.adding(days: 7)
            let weekStart = index
            while index < days.endIndex, days[index].date < end { index += 1 }
            let stats = WeekStats(week: week, days: days[weekStart..<index], previous: previous)
            weeks.append(stats)
            previous = stats.totals
            week = week.next
        }
    }

    /// The stats of `week`, or `nil` when it is outside the model.
    public func week(_ week: WeekKey) -> WeekStats? {
        weeks.first { $0.week == week }
    }
}
