import DuneEvents

/// A projection whose whole state is its samples (trends, weekly stats): one
/// fold, parameterised by the read model it makes and the kinds it retains.
///
/// ```swift
/// var trends = TrendsProjection()   // SampleProjection<TrendsModel>
/// for event in events { trends.apply(event) }
/// let model = trends.readModel()
/// ```
package struct SampleProjection<Model: SampleDailyModel>: Projection, Equatable {
    package static var name: ProjectionName { Model.projectionName }

    /// The version of this fold's output (``SampleDailyModel/foldVersion``).
    package static var foldVersion: UInt32 { Model.foldVersion }
    /// CRC-32 of the model's file rebuilt from the shipped sample log at ``foldVersion``.
    package static var foldVersionOutputCRC: UInt32 { Model.foldVersionOutputCRC }

    package private(set) var throughSeq = 0
    /// The current samples: content of ``SampleDailyModel/retainedKinds``; other kinds by day only.
    package private(set) var samples = SampleStore(retaining: Model.retainedKinds)
    /// The days' metrics at a seq, kept by a snapshot (see `ReadinessProjection`).
    private var restoredMetrics = DailyMetricsCache()

    package init() {}

    /// A projection that folds no sample (only ``throughSeq`` advances): its
    /// read model is built from another projection's daily values
    /// (`ProjectionSet(forFiles:)`), never from ``readModel()``.
    package init(ignoringSamples: Bool) {
        samples = SampleStore(retaining: Model.retainedKinds, ignoringSamples: ignoringSamples)
    }

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
    package func readModel() -> Model {
        if let cached = restoredMetrics.days(at: throughSeq), let model = Model(throughSeq: throughSeq, metrics: cached) {
            return model
        }
        return Model(throughSeq: throughSeq, daily: samples.modelDailyValues())
    }

    /// The ``DailyMetrics`` of every day with a sample, ascending: a
    /// snapshot's when they are current, else computed from the samples
    /// (what the readiness model is also built from, see
    /// `ProjectionSet.files()`).
    /// - Complexity: O(n log n) for n samples.
    package func modelMetrics() -> [DailyMetrics] {
        restoredMetrics.days(at: throughSeq) ?? samples.modelDailyValues().map(DailyMetrics.init)
    }

    /// The daily values of every day with a sample (from `firstDay` on, when
    /// given), ascending (what ``readModel()`` computes its model from).
    /// - Complexity: O(n log n) for n samples.
    package func modelDailyValues(from firstDay: DayKey? = nil) -> [DailyValues] {
        samples.modelDailyValues(from: firstDay)
    }

    /// The earliest day whose samples changed since the last call, and starts over; `nil` when none did.
    package mutating func takeEarliestChangedDay() -> DayKey? {
        samples.takeEarliestChangedDay()
    }

    /// Whether ``readModel()`` would compute from a snapshot's day metrics instead of the samples.
    var readsModelFromSnapshotMetrics: Bool { restoredMetrics.days(at: throughSeq) != nil }

    /// Keeps a snapshot's ``DailyMetrics`` of every day, taken when
    /// ``throughSeq`` was `seq`, for ``readModel()``.
    mutating func restoreModelMetrics(_ days: [DailyMetrics], throughSeq seq: Int) {
        restoredMetrics = DailyMetricsCache(throughSeq: seq, days: days)
    }
}

extension SampleProjection: SnapshotRestorable {
    mutating func restore(samples block: SampleBlock, index: SampleIndex, throughSeq seq: Int) {
        samples = SampleStore(restoring: block, index: index, retaining: samples.retainedKinds)
        throughSeq = seq
    }
}

extension SampleProjection: SampleReserving {
    package mutating func reserveCapacity(samples count: Int) {
        samples.reserveCapacity(count)
    }
}
