import DuneEvents

/// The weekly-stats projection (docs/read-models.md): per-sample state folded from `sample.*` events.
package struct WeeklyStatsProjection: Projection, Equatable {
    package static var name: ProjectionName { .weeklyStats }

    /// The version of this fold's output: bump it whenever a change makes the
    /// fold produce other bytes for the same log, so that snapshots taken by
    /// the older code are not used (see `ProjectionSnapshot`).
    package static let foldVersion: UInt32 = 1
    /// CRC-32 of `weekly-stats.json` rebuilt from the shipped sample log (`Logs/events.jsonl`)
    /// at ``foldVersion``: `FoldVersionTests` fails when the output changes and
    /// these two constants do not.
    package static let foldVersionOutputCRC: UInt32 = 0xcf0192f4

    package private(set) var throughSeq = 0
    /// The current samples: content of steps and workouts; other kinds by day only.
    package private(set) var samples = SampleStore(retaining: [.stepCount, .workout])

    package init() {}

    /// Folds one event; skips events with `seq ≤ throughSeq`.
    package mutating func apply(_ event: RecordedEvent) {
        guard event.seq > throughSeq else { return }
        throughSeq = event.seq
        samples.apply(event)
    }

    /// Folds a decoded batch; skips events with `seq ≤ throughSeq`.
    package mutating func apply(_ batch: EventBatch) {
        guard let last = batch.lastSeq, last > throughSeq else { return }
        samples.apply(batch, after: throughSeq)
        throughSeq = last
    }

    /// The read model.
    /// - Complexity: O(n log n) for n samples.
    package func readModel() -> WeeklyStatsModel {
        WeeklyStatsModel(throughSeq: throughSeq, daily: samples.modelDailyValues())
    }

    /// The daily values of `date` with their contributing samples, or `nil`.
    package func dailyValues(on date: DayKey) -> DailyValues? {
        samples.dailyValues(on: date)
    }
}

extension WeeklyStatsProjection: SnapshotRestorable {
    mutating func restore(samples block: SampleBlock, index: SampleIndex, throughSeq seq: Int) {
        samples = SampleStore(restoring: block, index: index, retaining: samples.retainedKinds)
        throughSeq = seq
    }
}

extension WeeklyStatsProjection: SampleReserving {
    package mutating func reserveCapacity(samples count: Int) {
        samples.reserveCapacity(count)
    }
}
