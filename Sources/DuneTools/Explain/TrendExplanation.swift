import DuneEvents
import DuneProjections

/// Why a metric's trend point on a day is what it is: the value and the
/// samples it came from, the avg7 / avg28 windows, and for the last day L the
/// change against the L−34…L−7 baseline, the direction, the HRV normal range
/// and (for workout minutes) the training load.
///
/// Built from the ``ReadModelEngine`` that replayed the log and its read
/// model; every number is the fold's own.
package struct TrendExplanation: Sendable, Equatable {
    package let metric: TrendMetric
    package let date: DayKey
    /// L, the last day with any sample.
    package let lastDay: DayKey?
    /// The metric's point on ``date``; `nil` when the day has no value for it.
    package let point: TrendPoint?
    /// The values avg7 averages (D−6…D).
    package let avg7Window: DailyWindow
    /// The values avg28 averages (D−27…D).
    package let avg28Window: DailyWindow
    /// The metric's trend (change%, direction, recent and baseline windows for L).
    package let trend: MetricTrend
    /// For ``TrendMetric/hrv`` on L: the normal range.
    package let hrvNormalRange: HRVNormalRange?
    /// For ``TrendMetric/workoutMinutes``: the training-load day and the day before.
    package let trainingLoad: [TrainingLoadDay]
    /// The day's values, with the samples behind each.
    package let values: DailyValues?
    /// Every sample of the metric's kinds that ever counted for the day.
    package let samples: [SampleTrail]

    /// The sample kinds `metric` is computed from.
    package static func sampleKinds(_ metric: TrendMetric) -> Set<SampleKind> {
        switch metric {
        case .hrv: [.hrv]
        case .restingHeartRate: [.restingHeartRate]
        case .sleepMinutes: [.sleep]
        case .steps: [.stepCount]
        case .bodyMass: [.bodyMass]
        case .bodyFatPercentage: [.bodyFatPercentage]
        case .bodyMassIndex: [.bodyMassIndex]
        case .workoutMinutes: [.workout]
        }
    }

    /// The explanation of `metric` on `date`, or `nil` when the model has no such metric.
    /// - Parameters:
    ///   - projection: a projection that folded the log.
    ///   - model: its read model.
    ///   - sampleIDs: ids of the metric's samples with a version on `date` (``DaySampleIDs``).
    ///   - history: the events of those ids.
    package init?(metric: TrendMetric, date: DayKey, projection: ReadModelEngine, model: TrendsModel,
                 sampleIDs: [String], history: SampleHistory) {
        guard let trend = model.trend(metric) else { return nil }
        self.metric = metric
        self.date = date
        self.trend = trend
        lastDay = model.lastDay
        point = trend.daily.first { $0.date == date }
        // The same windows TrendFormula.avg7 / avg28 average.
        avg7Window = trend.series.window(from: date.adding(days: -6), through: date)
        avg28Window = trend.series.window(from: date.adding(days: -27), through: date)
        hrvNormalRange = metric == .hrv && date == model.lastDay ? model.hrvNormalRange : nil
        if metric == .workoutMinutes, let index = model.trainingLoad.firstIndex(where: { $0.date == date }) {
            trainingLoad = Array(model.trainingLoad[max(0, index - 1)...index])
        } else {
            trainingLoad = []
        }
        let values = projection.dailyValues(on: date)
        self.values = values
        var roles: [SampleReference: String] = [:]
        var reason: (Sample) -> String = { _ in "not used by this metric" }
        switch metric {
        case .hrv:
            let measure = trend.measure
            for reference in measure.flatMap({ values?.hrv($0) })?.samples ?? [] { roles[reference] = "daily mean" }
            reason = { sample in
                sample.hrvMeasure == measure ? "not used by this metric" : "\(sample.hrvMeasure?.rawValue ?? "no measure"), not the trend's HRV measure"
            }
        case .restingHeartRate: for reference in values?.restingHeartRate?.samples ?? [] { roles[reference] = "daily mean" }
        case .sleepMinutes:
            for reference in values?.sleep?.samples ?? [] { roles[reference] = "sleep union" }
            let basis = values?.sleep?.basis
            reason = { sample in
                sample.sleepStage == .awake ? "awake is not sleep"
                    : basis == .asleep ? "inBed is used only on a night with no asleep sample" : "not used"
            }
        case .steps:
            let steps = values?.steps
            for reference in steps?.samples ?? [] { roles[reference] = "sum of \(steps?.source ?? "")" }
            reason = { sample in "steps of \(sample.source): not the source with the largest sum (\(steps?.source ?? "none"))" }
        case .bodyMass, .bodyFatPercentage, .bodyMassIndex:
            let latest = metric == .bodyMass ? values?.bodyMass : metric == .bodyFatPercentage ? values?.bodyFatPercentage : values?.bodyMassIndex
            if let latest { roles[latest.sample] = "latest by start" }
            reason = { _ in "not the day's latest sample by start (ties: higher seq)" }
        case .workoutMinutes:
            for workout in values?.workouts ?? [] { roles[workout.sample] = "workout minutes" }
        }
        samples = SampleTrail.trails(ids: sampleIDs, history: history, inScope: { $0.day == date },
                                     role: { roles[$0] }, reasonNotCounted: reason)
    }

    /// Whether ``date`` is L, the day change% and direction are computed for.
    package var isLastDay: Bool { lastDay == date }
}
