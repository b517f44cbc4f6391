import DuneEvents

/// The readiness projection (docs/read-models.md): per-sample state and the sleep target,
/// folded from `sample.*` and `profile.updated` events.
///
/// ```swift
/// var readiness = ReadinessProjection()
/// for event in events { readiness.apply(event) }
/// let today = readiness.readModel().day(DayKey("2026-02-28")!)
/// ```
package struct ReadinessProjection: Projection, Equatable {
    package static var name: ProjectionName { .readiness }

    /// The version of this fold's output: bump it whenever a change makes the
    /// fold produce other bytes for the same log, so that snapshots taken by
    /// the older code are not used (see `ProjectionSnapshot`).
    package static let foldVersion: UInt32 = 2
    /// CRC-32 of `readiness.json` rebuilt from the shipped sample log (`Logs/events.jsonl`)
    /// at ``foldVersion``: `FoldVersionTests` fails when the output changes and
    /// these two constants do not.
    package static let foldVersionOutputCRC: UInt32 = 0x08255b7b

    package private(set) var throughSeq = 0
    /// The current samples: content of hrv, resting HR and sleep; other kinds by day only.
    package private(set) var samples = SampleStore(retaining: [.hrv, .restingHeartRate, .sleep])
    /// The latest `profile.updated` sleep target, or `nil` when the log has none.
    package private(set) var profileSleepTargetMinutes: Double?
    /// The `seq` of that `profile.updated` event.
    package private(set) var profileSeq: Int?
    /// The days' metrics at a seq, kept by a snapshot: ``readModel()`` uses
    /// them while ``throughSeq`` is still that seq instead of reading every sample.
    private var restoredMetrics = DailyMetricsCache()

    package init() {}

    /// A projection that folds the sleep target but no sample: its read
    /// model is built from another projection's day metrics
    /// (`ProjectionSet(forFiles:)`), never from ``readModel()``.
    package init(ignoringSamples: Bool) {
        samples = SampleStore(retaining: samples.retainedKinds, ignoringSamples: ignoringSamples)
    }

    /// Folds one event; skips events with `seq ≤ throughSeq`.
    package mutating func apply(_ event: RecordedEvent) {
        guard event.seq > throughSeq else { return }
        throughSeq = event.seq
        switch event.payload {
        case .sampleIngested, .sampleDeleted:
            samples.apply(event)
        case .profileUpdated(let update):
            guard !event.isOutsideTimestampWindow else { break }
            profileSleepTargetMinutes = update.sleepTargetMinutes
            profileSeq = event.seq
        case .refreshRequested, .task, .redacted, .dataForgotten, .syncAnchored:
            break
        }
    }

    /// Folds a decoded batch; skips events with `seq ≤ throughSeq`.
    package mutating func apply(_ batch: EventBatch) {
        guard let last = batch.lastSeq, last > throughSeq else { return }
        samples.apply(batch, after: throughSeq)
        // In place: the payload's case is checked before anything is copied, so
        // a refresh or task event costs a tag check, not a copy of its strings.
        // Array's subscript reads the element in place, so the match borrows it.
        let events = batch.others
        for index in batch.otherIndices {
            guard case .profileUpdated(let update) = events[index].event.payload, events[index].seq > throughSeq,
                  TimestampWindow.contains(update.at)
            else { continue }
            profileSleepTargetMinutes = update.sleepTargetMinutes
            profileSeq = events[index].seq
        }
        throughSeq = last
    }

    /// The sleep target applied to every day: the latest `profile.updated`, else 480.
    package var sleepTargetMinutes: Double {
        profileSleepTargetMinutes ?? ReadinessFormula.defaultSleepTargetMinutes
    }

    /// The read model: every day with a sample.
    /// - Complexity: O(n log n) for n samples.
    package func readModel() -> ReadinessModel {
        if let cached = restoredMetrics.days(at: throughSeq) {
            return ReadinessModel(throughSeq: throughSeq, sleepTargetMinutes: sleepTargetMinutes,
                                  inputs: cached.map(ReadinessDay.Inputs.init(metrics:)))
        }
        return ReadinessModel(throughSeq: throughSeq, sleepTargetMinutes: sleepTargetMinutes, daily: samples.modelDailyValues())
    }

    /// The read model from `days`, the ``DailyMetrics`` of every day with a
    /// sample at ``throughSeq`` (another projection's, fed the same events):
    /// the same model as ``readModel()``, as a snapshot's metrics give it.
    package func readModel(metrics days: [DailyMetrics]) -> ReadinessModel {
        ReadinessModel(throughSeq: throughSeq, sleepTargetMinutes: sleepTargetMinutes,
                       inputs: days.map(ReadinessDay.Inputs.init(metrics:)))
    }

    /// Whether ``readModel()`` would compute from a snapshot's day metrics instead of the samples.
    var readsModelFromSnapshotMetrics: Bool { restoredMetrics.days(at: throughSeq) != nil }
}

extension ReadinessProjection {
    /// Sets the latest sleep target as a snapshot recorded it.
    package mutating func restoreProfile(sleepTargetMinutes: Double?, seq: Int?) {
        profileSleepTargetMinutes = sleepTargetMinutes
        profileSeq = seq
    }

    /// Keeps a snapshot's ``DailyMetrics`` of every day, taken when
    /// ``throughSeq`` was `seq`, for ``readModel()``.
    mutating func restoreModelMetrics(_ days: [DailyMetrics], throughSeq seq: Int) {
        restoredMetrics = DailyMetricsCache(throughSeq: seq, days: days)
    }
}

extension ReadinessProjection: SnapshotRestorable {
    mutating func restore(samples block: SampleBlock, index: SampleIndex, throughSeq seq: Int) {
        samples = SampleStore(restoring: block, index: index, retaining: samples.retainedKinds)
        throughSeq = seq
    }
}

extension ReadinessProjection: SampleReserving {
    package mutating func reserveCapacity(samples count: Int) {
        samples.reserveCapacity(count)
    }
}
