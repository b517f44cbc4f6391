import DuneEvents
import DuneProjections

/// Why a week's stats are what they are: the fold's ``WeekStats`` with its
/// workouts, each day's steps per source (the largest sum counts), the week
/// before, and every workout and step sample that ever counted for the week.
package struct WeekExplanation: Sendable, Equatable {
    /// The kinds weekly stats read.
    package static let sampleKinds: Set<SampleKind> = [.workout, .stepCount]

    package let stats: WeekStats
    /// The week before's totals; `nil` for the model's first week.
    package let previous: WeekTotals?
    /// The values of the week's days that have a sample, ascending.
    package let days: [DailyValues]
    /// The source of each workout (by sample id), from the stored sample.
    package let workoutSources: [SampleReference: String]
    /// Every workout and step sample with a version in the week.
    package let samples: [SampleTrail]

    /// The days of `week`, Monday through Sunday.
    package static func days(of week: WeekKey) -> ClosedRange<DayKey> {
        week.monday...week.monday.adding(days: 6)
    }

    /// The explanation of `week`, or `nil` when the week is outside the model.
    package init?(week: WeekKey, projection: ReadModelEngine, model: WeeklyStatsModel,
                 sampleIDs: [String], history: SampleHistory) {
        guard let index = model.weeks.firstIndex(where: { $0.week == week }) else { return nil }
        stats = model.weeks[index]
        previous = index > 0 ? model.weeks[index - 1].totals : nil
        let range = Self.days(of: week)
        days = (0..<7).compactMap { projection.dailyValues(on: week.monday.adding(days: $0)) }
        var sources: [SampleReference: String] = [:]
        for workout in stats.workouts {
            sources[workout.sample] = projection.samples.sample(id: workout.sample.id)?.sample.source
        }
        workoutSources = sources
        var roles: [SampleReference: String] = [:]
        for workout in stats.workouts { roles[workout.sample] = "workout" }
        var winners: [DayKey: String] = [:]
        for day in days {
            guard let steps = day.steps else { continue }
            winners[day.date] = steps.source
            for reference in steps.samples { roles[reference] = "steps, \(steps.source)" }
        }
        samples = SampleTrail.trails(
            ids: sampleIDs, history: history, inScope: { range.contains($0.day) }, role: { roles[$0] },
            reasonNotCounted: { sample in
                "steps of \(sample.source): not the source with the largest sum on \(sample.day) (\(winners[sample.day] ?? "none"))"
            })
    }
}
