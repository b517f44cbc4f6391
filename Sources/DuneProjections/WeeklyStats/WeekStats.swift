import DuneEvents

/// One ISO week of stats.
public struct WeekStats: Sendable, Equatable {
    public let week: WeekKey
    public let totals: WeekTotals
    /// One entry per activity type present, types in UTF-8 order.
    public let byActivity: [ActivityStats]
    /// Monday … Sunday.
    public let daily: [WeekDayStats]
    /// `nil` for the first week of the model.
    public let vsPreviousWeek: WeekComparison?

    public init(week: WeekKey, totals: WeekTotals, byActivity: [ActivityStats], daily: [WeekDayStats],
                vsPreviousWeek: WeekComparison?) {
        self.week = week
        self.totals = totals
        self.byActivity = byActivity
        self.daily = daily
        self.vsPreviousWeek = vsPreviousWeek
    }

    /// The week `week` from its seven days' values (absent days have no sample).
    /// - Parameters:
    ///   - days: the values of the week's days that have a sample, ascending.
    ///   - previous: the totals of the week before, or `nil` for the first week.
    public init(week: WeekKey, days: [DailyValues], previous: WeekTotals?) {
        let monday = week.monday
        let workouts = days.flatMap(\.workouts).sorted { $0.sample < $1.sample }
        var stepValues: [Double] = []
        for day in days {
            if let steps = day.steps?.value { stepValues.append(steps) }
        }
        let totals = WeekTotals(workouts: workouts, steps: stepValues)
        var types: [String] = []
        for workout in workouts where !types.contains(workout.activityType) {
            types.append(workout.activityType)
        }
        types.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let byActivity = types.map { type in
            ActivityStats(activityType: type, workouts: workouts.filter { $0.activityType == type })
        }
        let daily = (0..<7).map { offset in
            let date = monday.adding(days: offset)
            return WeekDayStats(date: date, values: days.first { $0.date == date })
        }
        self.init(week: week, totals: totals, byActivity: byActivity, daily: daily,
                  vsPreviousWeek: previous.map { WeekComparison(current: totals, previous: $0) })
    }
}

/// A week's totals; workout sums run in `seq` order, steps in date order.
public struct WeekTotals: Sendable, Equatable {
    public let workouts: Int
    /// Σ workout minutes.
    public let durationMinutes: Double
    /// Σ workout energy (kcal); workouts without energy add 0.
    public let activeEnergyKcal: Double
    /// Σ workout distance in km; workouts without distance add 0.
    public let distanceKm: Double
    /// Σ workout strength volume (kg); workouts without volume add 0.
    public let strengthVolumeKg: Double
    /// Days with at least one workout.
    public let activeDays: Int
    /// Σ of the daily step values (days without steps add 0).
    public let steps: Double

    /// Totals of `workouts` (in `seq` order) and the daily step values (in date order).
    public init(workouts: [DailyWorkout], steps: [Double]) {
        var minutes = 0.0
        var energy = 0.0
        var meters = 0.0
        var volume = 0.0
        var activeDays: [DayKey] = []
        for workout in workouts {
            minutes += workout.minutes
            energy += workout.energyKcal ?? 0
            meters += workout.distanceMeters ?? 0
            volume += workout.volumeKg ?? 0
            let day = workout.start.localDate
            if !activeDays.contains(day) { activeDays.append(day) }
        }
        var stepTotal = 0.0
        for value in steps { stepTotal += value }
        self.workouts = workouts.count
        durationMinutes = minutes
        activeEnergyKcal = energy
        distanceKm = meters / 1000
        strengthVolumeKg = volume
        self.activeDays = activeDays.count
        self.steps = stepTotal
    }

    /// The value of `field`.
    public subscript(field: WeeklyField) -> Double {
        switch field {
        case .workouts: Double(workouts)
        case .durationMinutes: durationMinutes
        case .activeEnergyKcal: activeEnergyKcal
        case .distanceKm: distanceKm
        case .strengthVolumeKg: strengthVolumeKg
        case .activeDays: Double(activeDays)
        case .steps: steps
        }
    }
}

/// One activity type's share of a week.
public struct ActivityStats: Sendable, Equatable {
    public let activityType: String
    public let workouts: Int
    public let durationMinutes: Double
    public let activeEnergyKcal: Double
    public let distanceKm: Double

    /// Totals of `workouts` (all of `activityType`, in `seq` order).
    public init(activityType: String, workouts: [DailyWorkout]) {
        let totals = WeekTotals(workouts: workouts, steps: [])
        self.activityType = activityType
        self.workouts = totals.workouts
        durationMinutes = totals.durationMinutes
        activeEnergyKcal = totals.activeEnergyKcal
        distanceKm = totals.distanceKm
    }
}

/// One day of a week.
public struct WeekDayStats: Sendable, Equatable {
    public let date: DayKey
    public let workouts: Int
    public let durationMinutes: Double
    public let activeEnergyKcal: Double
    public let distanceKm: Double
    public let strengthVolumeKg: Double
    /// The day's step value, `nil` when it has no step sample.
    public let steps: Double?

    /// The day `date` from its values, or an empty day when it has no sample.
    public init(date: DayKey, values: DailyValues?) {
        let totals = WeekTotals(workouts: values?.workouts ?? [], steps: [])
        self.date = date
        workouts = totals.workouts
        durationMinutes = totals.durationMinutes
        activeEnergyKcal = totals.activeEnergyKcal
        distanceKm = totals.distanceKm
        strengthVolumeKg = totals.strengthVolumeKg
        steps = values?.steps?.value
    }
}

/// A week against the one before, field by field.
public struct WeekComparison: Sendable, Equatable {
    /// One entry per ``WeeklyField``, in its order.
    public let changes: [WeeklyChange]

    public init(current: WeekTotals, previous: WeekTotals) {
        changes = WeeklyField.allCases.map { WeeklyChange(field: $0, current: current[$0], previous: previous[$0]) }
    }

    /// The change of `field`.
    public subscript(field: WeeklyField) -> WeeklyChange? {
        changes.first { $0.field == field }
    }
}

/// One field's change against the previous week.
public struct WeeklyChange: Sendable, Equatable {
    public let field: WeeklyField
    /// current − previous.
    public let delta: Double
    /// delta / previous · 100; `nil` when the previous week's value is 0.
    public let changePercent: Double?

    public init(field: WeeklyField, current: Double, previous: Double) {
        self.field = field
        delta = current - previous
        changePercent = previous == 0 ? nil : (current - previous) / previous * 100
    }
}
