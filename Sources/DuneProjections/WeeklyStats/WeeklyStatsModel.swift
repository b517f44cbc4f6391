import DuneEvents

/// The weekly-stats read model: every ISO week from the first to the last day
/// with any sample, weeks without data included.
public struct WeeklyStatsModel: Sendable, Equatable, ReadModel {
    /// The `seq` of the last event the model reflects; 0 for an empty log.
    public let throughSeq: Int
    /// Ascending.
    public let weeks: [WeekStats]

    package init(throughSeq: Int, weeks: [WeekStats]) {
        self.throughSeq = throughSeq
        self.weeks = weeks
    }

    /// The model of `daily` (every day with a sample, ascending).
    /// - Complexity: O(d + w) for d days and w weeks, after the daily values.
    package init(throughSeq: Int, daily: [DailyValues]) {
        var weeks: [WeekStats] = []
        if let first = daily.first?.date.isoWeek, let last = daily.last?.date.isoWeek {
            var index = 0
            var week = first
            var previous: WeekTotals?
            while week <= last {
                let end = week.monday.adding(days: 7)
                var days: [DailyValues] = []
                while index < daily.count, daily[index].date < end {
                    days.append(daily[index])
                    index += 1
                }
                let stats = WeekStats(week: week, days: days, previous: previous)
                weeks.append(stats)
                previous = stats.totals
                week = week.next
            }
        }
        self.init(throughSeq: throughSeq, weeks: weeks)
    }

    /// The stats of `week`, or `nil` when it is outside the model.
    public func week(_ week: WeekKey) -> WeekStats? {
        weeks.first { $0.week == week }
    }
}
