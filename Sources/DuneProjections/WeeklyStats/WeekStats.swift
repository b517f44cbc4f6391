import DuneEvents

/// One ISO week of stats.
public struct WeekStats: Sendable, Equatable {
    /// The ISO week.
    public let week: WeekKey
    /// The week's totals.
    public let totals: WeekTotals
    /// One entry per activity type present, types in UTF-8 order.
    public let byActivity: [ActivityStats]
    /// Monday … Sunday.
    public let daily: [WeekDayStats]
    /// `nil` for the first week of the model.
    public let vsPreviousWeek: WeekComparison?
    /// The week's workouts in `seq` order: what the workout totals sum.
    package let workouts: [DailyWorkout]
}

extension WeekStats {
    /// The week `week` from its seven days' values (absent days have no sample).
    /// - Parameters:
    ///   - days: the values of the week's days that have a sample, ascending.
    ///   - previous: the totals of the week before, or `nil` for the first week.
    init(week: WeekKey, days: ArraySlice<WeeklyDay>, previous: WeekTotals?) {
        let monday = week.monday
        let workouts = days.flatMap(\.workouts).sorted { $0.sample < $1.sample }
        var stepValues: [Double] = []
        for day in days {
            if let steps = day.steps { stepValues.append(steps) }
        }
        let totals = WeekTotals(workouts: workouts, steps: stepValues)
        // Workouts grouped by type in one pass (each group keeps `seq` order), then
        // the types sorted: O(w log w) however many types a week has. A week's
        // few types are found by a scan; past 8 a dictionary, only looked up,
        // takes over. The output order comes from the sort.
        var groupOfType: [String: Int] = [:]
        var groups: [(type: String, workouts: [DailyWorkout])] = []
        for workout in workouts {
            let type = workout.activityType
            let found = groups.count <= 8 ? groups.firstIndex { $0.type == type } : groupOfType[type]
            if let index = found {
                groups[index].workouts.append(workout)
            } else {
                groups.append((type, [workout]))
                if groups.count == 9 {
                    for (index, group) in groups.enumerated() { groupOfType[group.type] = index }
                } else if groups.count > 9 {
                    groupOfType[type] = groups.count - 1
                }
            }
        }
        groups.sort { $0.type.utf8.lexicographicallyPrecedes($1.type.utf8) }
        let byActivity = groups.map { ActivityStats(activityType: $0.type, workouts: $0.workouts) }
        let daily = (0..<7).map { offset in
            let date = monday.adding(days: offset)
            return WeekDayStats(date: date, day: days.first { $0.date == date })
        }
        self.init(week: week, totals: totals, byActivity: byActivity, daily: daily,
                  vsPreviousWeek: previous.map { WeekComparison(current: totals, previous: $0) }, workouts: workouts)
    }
}
