import DuneEvents
import DuneProjections

/// One sample id behind an explained value: every event that named it, each
/// with what became of that version.
package struct SampleTrail: Sendable, Equatable {
    package let id: String
    package let kind: SampleKind
    /// The id's events in `seq` order.
    package let versions: [SampleVersion]

    /// Whether the sample's current version counts in the explained value.
    package var isCounted: Bool {
        if case .counted = versions.last?.fate { return true }
        return false
    }

    /// The trails of `ids` from their `history`.
    ///
    /// A version followed by a deletion was deleted; followed by another version,
    /// superseded (a correction). The last version is `counted` when `role`
    /// names a role for it; otherwise, when it still counts for the explained
    /// days (`inScope`), `notCounted` with `reasonNotCounted`; else it now counts
    /// for another day.
    /// - Parameters:
    ///   - ids: the ids, in the order to list them.
    ///   - history: their events.
    ///   - inScope: whether a version's day is one of the explained days.
    ///   - role: what the value uses a current version for ("hrv mean"), or `nil` when unused.
    ///   - reasonNotCounted: why an unused current version in scope does not count.
    package static func trails(ids: [String], history: SampleHistory, inScope: (Sample) -> Bool,
                              role: (SampleReference) -> String?, reasonNotCounted: (Sample) -> String) -> [SampleTrail] {
        ids.compactMap { id in
            let entries = history.entries(for: id)
            guard let kind = entries.lazy.compactMap(\.change.sample).first?.kind else { return nil }
            var versions: [SampleVersion] = []
            for (index, entry) in entries.enumerated() {
                let fate: SampleVersionFate
                switch entry.change {
                case .deleted:
                    fate = .deletion
                case .ingested(let sample):
                    if index + 1 < entries.count {
                        let next = entries[index + 1]
                        fate = next.change.sample == nil ? .deletedBy(seq: next.seq) : .supersededBy(seq: next.seq)
                    } else if let role = role(SampleReference(id: id, seq: entry.seq)) {
                        fate = .counted(role: role)
                    } else if inScope(sample) {
                        fate = .notCounted(reason: reasonNotCounted(sample))
                    } else {
                        fate = .countsForAnotherDay(sample.day)
                    }
                }
                versions.append(SampleVersion(seq: entry.seq, change: entry.change, fate: fate))
            }
            return SampleTrail(id: id, kind: kind, versions: versions)
        }
    }
}

/// One event of a ``SampleTrail``.
package struct SampleVersion: Sendable, Equatable {
    package let seq: Int
    package let change: SampleChange
    package let fate: SampleVersionFate
}

/// What became of one version of a sample, for the explained value.
package enum SampleVersionFate: Sendable, Equatable {
    /// The current version, used by the value in `role` ("hrv mean", "sleep union").
    case counted(role: String)
    /// The current version counts for the explained day but the value does not use it.
    case notCounted(reason: String)
    /// Replaced by the correction at `seq`.
    case supersededBy(seq: Int)
    /// Removed by the `sample.deleted` at `seq`.
    case deletedBy(seq: Int)
    /// The current version was corrected to count for another day.
    case countsForAnotherDay(DayKey)
    /// The `sample.deleted` event itself.
    case deletion

    /// A short name: `counted`, `notCounted`, `superseded`, `deleted`, `movedToAnotherDay`, `deletion`.
    package var name: String {
        switch self {
        case .counted: "counted"
        case .notCounted: "notCounted"
        case .supersededBy: "superseded"
        case .deletedBy: "deleted"
        case .countsForAnotherDay: "movedToAnotherDay"
        case .deletion: "deletion"
        }
    }

    /// Why, in words: "superseded by seq 42 (a correction)".
    package var explanation: String {
        switch self {
        case .counted(let role): "counted (\(role))"
        case .notCounted(let reason): "not counted: \(reason)"
        case .supersededBy(let seq): "superseded by seq \(seq) (a correction: the later version wins)"
        case .deletedBy(let seq): "deleted by seq \(seq)"
        case .countsForAnotherDay(let day): "corrected: now counts for \(day)"
        case .deletion: "the deletion"
        }
    }
}
