import DuneEvents
import DuneProjections

/// ``DaySampleIDs`` and ``SampleHistory`` in one pass over the log: the ids of
/// the samples that ever counted for a range of days, and every event that
/// named them.
///
/// An id is found at its first version on one of the days; its history is
/// kept from that event on. Events that named it earlier (a version on
/// another day, later corrected onto these days) are not kept then, so the
/// fold remembers a 64-bit hash of every id a sample event named: when a found
/// id was named before, ``needsSecondPass`` is set and the history must be
/// read again with a ``SampleHistory`` of ``ids`` (a hash collision only costs
/// that second pass, never a wrong history).
///
/// ```swift
/// var trail = DaySampleHistory(days: day...day, kinds: ReadinessExplanation.sampleKinds)
/// for event in events { trail.apply(event) }
/// if !trail.needsSecondPass { use(trail.ids, trail.history) }
/// ```
package struct DaySampleHistory: Sendable {
    private var finder: DaySampleIDs
    /// The events of the ids found so far, each from the event that found it.
    package private(set) var history = SampleHistory(ids: [String]())
    /// Hashes of the ids named by a sample event before they were found.
    private var named: Set<UInt64> = []
    /// Whether a found id was named before it was found: ``history`` misses those events.
    package private(set) var needsSecondPass = false

    package init(days: ClosedRange<DayKey>, kinds: Set<SampleKind>) {
        finder = DaySampleIDs(days: days, kinds: kinds)
    }

    /// The ids found, in the order of their first version on one of the days.
    package var ids: [String] { finder.ids }

    /// Folds one event (events outside ``TimestampWindow`` are skipped, as by both folds it joins).
    package mutating func apply(_ event: RecordedEvent) {
        let found = finder.ids.count
        finder.apply(event)
        if finder.ids.count > found, let id = finder.ids.last {
            if named.contains(Self.hash(id)) { needsSecondPass = true }
            history.track(id)
        }
        history.apply(event)
        guard !event.isOutsideTimestampWindow else { return }
        switch event.payload {
        case .sampleIngested(let sample) where !history.ids.contains(sample.id):
            named.insert(Self.hash(sample.id))
        case .sampleDeleted(let deletion) where !history.ids.contains(deletion.sampleID):
            named.insert(Self.hash(deletion.sampleID))
        default:
            break
        }
    }

    /// The id's 64-bit sample-key hash, the same in every process.
    private static func hash(_ id: String) -> UInt64 { SampleKey(id).hash64 }
}
