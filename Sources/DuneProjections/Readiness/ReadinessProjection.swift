import DuneEvents

/// The readiness fold (docs/read-models.md): the sleep target, folded from
/// `profile.updated` events. The readiness model is computed from it and the
/// engine's daily stage (``ReadModelEngine``): the days' samples live once, in
/// the engine's sample store.
///
/// ```swift
/// var readiness = ReadinessProjection()
/// for event in events { readiness.apply(event) }
/// let target = readiness.sleepTargetMinutes
/// ```
package struct ReadinessProjection: Sendable, Equatable {
    /// The version of the readiness model's output: bump it whenever a change makes the
    /// engine produce other bytes for the same log, so that snapshots taken by
    /// the older code are not used (see `ProjectionSnapshot`).
    package static let foldVersion: UInt32 = 2
    /// CRC-32 of `readiness.json` rebuilt from the shipped sample log (`Logs/events.jsonl`)
    /// at ``foldVersion``: `FoldVersionTests` fails when the output changes and
    /// these two constants do not.
    package static let foldVersionOutputCRC: UInt32 = 0x08255b7b

    package private(set) var throughSeq = 0
    /// The latest `profile.updated` sleep target, or `nil` when the log has none.
    package private(set) var profileSleepTargetMinutes: Double?
    /// The `seq` of that `profile.updated` event.
    package private(set) var profileSeq: Int?

    package init() {}

    /// Folds one event; skips it when `event.seq ≤ throughSeq`.
    package mutating func apply(_ event: RecordedEvent) {
        guard event.seq > throughSeq else { return }
        throughSeq = event.seq
        guard case .profileUpdated(let update) = event.payload, !event.isOutsideTimestampWindow else { return }
        profileSleepTargetMinutes = update.sleepTargetMinutes
        profileSeq = event.seq
    }

    /// Folds a decoded batch; skips events with `seq ≤ throughSeq`.
    package mutating func apply(_ batch: EventBatch) {
        guard let last = batch.lastSeq, last > throughSeq else { return }
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

    /// Sets the latest sleep target as a snapshot recorded it.
    package mutating func restoreProfile(sleepTargetMinutes: Double?, seq: Int?, throughSeq seq2: Int) {
        profileSleepTargetMinutes = sleepTargetMinutes
        profileSeq = seq
        throughSeq = seq2
    }
}
