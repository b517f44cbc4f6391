import DuneEvents
import DuneProjections

/// Every log event that names one of a set of sample ids, in `seq` order:
/// the history `explain` shows for each sample behind a value.
///
/// A pure fold, like the projections: feed it the log's events in order.
///
/// ```swift
/// var history = SampleHistory(ids: ["H1", "H2"])
/// for event in events { history.apply(event) }
/// history.entries(for: "H1")   // its ingests, corrections and deletion
/// ```
package struct SampleHistory: Sendable, Equatable {
    /// The ids whose events are kept.
    package private(set) var ids: Set<String>
    private var entriesByID: [String: [SampleHistoryEntry]] = [:]

    /// A history of `ids`, before any event.
    package init(ids: some Sequence<String>) {
        self.ids = Set(ids)
    }

    /// Keeps the events of `id` from now on (the events before are not recovered).
    package mutating func track(_ id: String) {
        ids.insert(id)
    }

    /// Keeps `event` when it ingests, corrects or deletes one of ``ids``.
    /// Events outside ``TimestampWindow`` are left out, as every projection skips them.
    package mutating func apply(_ event: RecordedEvent) {
        guard !event.isOutsideTimestampWindow else { return }
        switch event.payload {
        case .sampleIngested(let sample) where ids.contains(sample.id):
            entriesByID[sample.id, default: []].append(SampleHistoryEntry(seq: event.seq, change: .ingested(sample)))
        case .sampleDeleted(let deletion) where ids.contains(deletion.sampleID):
            entriesByID[deletion.sampleID, default: []].append(SampleHistoryEntry(seq: event.seq, change: .deleted(at: deletion.at)))
        default:
            break
        }
    }

    /// The events that named `id`, in `seq` order (empty when none).
    package func entries(for id: String) -> [SampleHistoryEntry] {
        entriesByID[id] ?? []
    }
}

/// One event in a sample's history.
package struct SampleHistoryEntry: Sendable, Equatable {
    /// The event's `seq`.
    package let seq: Int
    package let change: SampleChange
}

/// What an event did to a sample id.
package enum SampleChange: Sendable, Equatable {
    /// `sample.ingested`: a first version, or a correction of an earlier one.
    case ingested(Sample)
    /// `sample.deleted`, with the deletion's `at`.
    case deleted(at: Timestamp)

    /// The version's content, or `nil` for a deletion.
    package var sample: Sample? {
        if case .ingested(let sample) = self { return sample }
        return nil
    }
}
