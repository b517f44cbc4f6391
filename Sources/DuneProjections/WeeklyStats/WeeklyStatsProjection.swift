import DuneEvents

/// The weekly-stats projection (docs/read-models.md): per-sample state folded from `sample.*` events.
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

    /// Folds a decoded batch; skips events with `seq ≤ throughSeq`.
    public mutating func apply(_ batch: EventBatch) {
        guard let last = batch.lastSeq, last > throughSeq else { return }
        samples.apply(batch, after: throughSeq)
        throughSeq = last
    }

    /// The read model.
    /// - Complexity: O(n log n) for n samples.
    public func readModel() -> WeeklyStatsModel {
        WeeklyStatsModel(throughSeq: throughSeq, daily: samples.modelDailyValues())
    }

    /// The daily values of `date` with their contributing samples, or `nil`.
    public func dailyValues(on date: DayKey) -> DailyValues? {
        samples.dailyValues(on: date)
    }
}

extension WeeklyStatsProjection: SampleReserving {
    package mutating func reserveCapacity(samples count: Int) {
        samples.reserveCapacity(count)
    }
}
