import DuneEvents

/// The trends projection (docs/read-models.md): per-sample state folded from `sample.*` events.
package struct TrendsProjection: Projection, Equatable {
    package static var name: ProjectionName { .trends }

    /// The version of this fold's output: bump it whenever a change makes the
    /// fold produce other bytes for the same log, so that snapshots taken by
    /// the older code are not used (see `ProjectionSnapshot`).
    package static let foldVersion: UInt32 = 1
    /// CRC-32 of `trends.json` rebuilt from the shipped sample log (`Logs/events.jsonl`)
    /// at ``foldVersion``: `FoldVersionTests` fails when the output changes and
    /// these two constants do not.
    package static let foldVersionOutputCRC: UInt32 = 0x0714ef41

    package private(set) var throughSeq = 0
    /// The current samples, every kind.
    package private(set) var samples = SampleStore()
    /// The days' metrics at a seq, kept by a snapshot (see `ReadinessProjection`).
    private var restoredMetrics = DailyMetricsCache()

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
    package func readModel() -> TrendsModel {
        if let cached = restoredMetrics.days(at: throughSeq) { return TrendsModel(throughSeq: throughSeq, metrics: cached) }
        return TrendsModel(throughSeq: throughSeq, daily: samples.modelDailyValues())
    }

    /// Whether ``readModel()`` would compute from a snapshot's day metrics instead of the samples.
    package var readsModelFromSnapshotMetrics: Bool { restoredMetrics.days(at: throughSeq) != nil }

    /// Keeps a snapshot's ``DailyMetrics`` of every day, taken when
    /// ``throughSeq`` was `seq`, for ``readModel()``.
    mutating func restoreModelMetrics(_ days: [DailyMetrics], throughSeq seq: Int) {
        restoredMetrics = DailyMetricsCache(throughSeq: seq, days: days)
    }

    /// The daily values of `date` with their contributing samples, or `nil`.
    package func dailyValues(on date: DayKey) -> DailyValues? {
        samples.dailyValues(on: date)
    }
}

extension TrendsProjection: SnapshotRestorable {
    mutating func restore(samples block: SampleBlock, index: SampleIndex, throughSeq seq: Int) {
        samples = SampleStore(restoring: block, index: index, retaining: samples.retainedKinds)
        throughSeq = seq
    }
}

extension TrendsProjection: SampleReserving {
    package mutating func reserveCapacity(samples count: Int) {
        samples.reserveCapacity(count)
    }
}
