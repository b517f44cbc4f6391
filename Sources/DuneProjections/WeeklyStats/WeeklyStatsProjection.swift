import DuneEvents

/// The weekly-stats projection (SPEC §6): per-sample state folded from `sample.*` events.
public struct WeeklyStatsProjection: Projection, Equatable {
    public static var name: ProjectionName { .weeklyStats }

    public private(set) var throughSeq = 0
    /// The current samples: content of steps and workouts; other kinds by day only.
    public private(set) var samples = SampleStore(retaining: [.stepCount, .workout])

    public init() {}

    /// Folds one event; skips events with `seq ≤ throughSeq`.
    public mutating func apply(_ event: RecordedEvent) {
        guard event.seq > throughSeq else { return }
        throughSeq = event.seq
        samples.apply(event)
    }

    /// The read model.
    /// - Complexity: O(n log n) for n samples.
    public func readModel() -> WeeklyStatsModel {
        WeeklyStatsModel(throughSeq: throughSeq, daily: samples.allDailyValues())
    }

    /// The daily values of `date` with their contributing samples, or `nil`.
    public func dailyValues(on date: DayKey) -> DailyValues? {
        samples.dailyValues(on: date)
    }
}
