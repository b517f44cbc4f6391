import DuneEvents

/// The engine's shared stage: for every day with a sample, its
/// ``DailyMetrics`` (what the readiness and trends models read) and its
/// ``WeeklyDay`` (what the weekly-stats model reads), computed from the one
/// sample store. None of the models reads the samples or another model.
///
/// A snapshot stores the stage (`SnapshotFile`), so that the first state
/// after an open computes the models from it without reading a sample.
struct DailyStage: Sendable, Equatable {
    /// The metrics of every day with a sample, ascending.
    private(set) var metrics: [DailyMetrics]
    /// The weekly values of the same days.
    private(set) var weekly: [WeeklyDay]

    /// The stage of every day of `samples`.
    /// - Complexity: O(n log n) for n samples.
    init(samples: SampleStore) {
        let all = samples.modelDailyValues()
        metrics = all.map(DailyMetrics.init)
        weekly = all.map(WeeklyDay.init)
    }

    /// The stage as a snapshot stored it (`metrics` and `weekly` of the same days).
    init(metrics: [DailyMetrics], weekly: [WeeklyDay]) {
        self.metrics = metrics
        self.weekly = weekly
    }

    /// Recomputes the days from `firstChanged` on.
    /// - Complexity: O(k log k) for the k samples of those days, plus O(d) for d days.
    mutating func recompute(from firstChanged: DayKey, samples: SampleStore) {
        let daily = samples.modelDailyValues(from: firstChanged)
        metrics.removeSubrange((metrics.firstIndex { $0.date >= firstChanged } ?? metrics.count)...)
        metrics += daily.map(DailyMetrics.init)
        weekly.removeSubrange((weekly.firstIndex { $0.date >= firstChanged } ?? weekly.count)...)
        weekly += daily.map(WeeklyDay.init)
    }
}
