import DuneEvents

/// A week's totals; workout sums run in `seq` order, steps in date order.
public struct WeekTotals: Sendable, Equatable {
    /// Workouts that started in the week.
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
    package init(workouts: [DailyWorkout], steps: [Double]) {
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
