import DuneEvents

/// The engine's shared stage: the daily values of every day with a sample,
/// and their ``DailyMetrics``, computed once per state from the one sample
/// store. The readiness and trends models read the metrics, the weekly-stats
/// model the daily values; none of them reads the samples or another model.
struct DailyStage: Sendable {
    /// The metrics of every day with a sample, ascending.
    private(set) var metrics: [DailyMetrics]
    /// Daily values from `dailyFrom` on, ascending (the weekly model reads
    /// whole weeks); held only while a state is computed (see ``released()``).
    private(set) var daily: [DailyValues]
    /// The first day ``daily`` holds; `nil` when it holds none.
    private var dailyFrom: DayKey?

    /// The stage of every day of `samples`.
    /// - Complexity: O(n log n) for n samples.
    init(samples: SampleStore) {
        let all = samples.modelDailyValues()
        daily = all
        dailyFrom = all.first?.date
        metrics = all.map(DailyMetrics.init)
    }

    /// Recomputes the days from `firstChanged` on (and the daily values from its Monday).
    /// - Complexity: O(k log k) for the k samples of those days, plus O(d) for d days.
    mutating func recompute(from firstChanged: DayKey, samples: SampleStore) {
        let monday = firstChanged.isoWeek.monday
        daily = samples.modelDailyValues(from: monday)
        dailyFrom = monday
        metrics.removeSubrange((metrics.firstIndex { $0.date >= firstChanged } ?? metrics.count)...)
        metrics += daily.drop { $0.date < firstChanged }.map(DailyMetrics.init)
    }

    /// The daily values from `from` on: the stage's when it holds them, else computed from `samples`.
    func daily(from: DayKey, samples: SampleStore) -> [DailyValues] {
        guard let dailyFrom, from >= dailyFrom else { return samples.modelDailyValues(from: from) }
        return Array(daily.drop { $0.date < from })
    }

    /// The stage without its daily values (the metrics are what the next state starts from).
    func released() -> DailyStage {
        var stage = self
        stage.daily = []
        stage.dailyFrom = nil
        return stage
    }
}
