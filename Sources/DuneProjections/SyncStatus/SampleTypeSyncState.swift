import DuneEvents

/// The HealthKit sync of one sample type, folded from its `sync.anchored`
/// events (docs/sync-trace.md); its phase and last error are those of the feature
/// `sync.<type>` (``SyncStatusModel/features``), also given here.
public struct SampleTypeSyncState: Sendable, Equatable {
    /// The sample type (its kind name).
    public let sampleType: SampleKind
    /// The anchor of the type's latest `sync.anchored`: where the next sync resumes.
    public internal(set) var anchor: String
    /// Pages stored (one `sync.anchored` each).
    public internal(set) var pages = 0
    /// Added samples the stored pages delivered (appended, already stored and rejected).
    public internal(set) var samples = 0
    /// Deleted ids the stored pages delivered.
    public internal(set) var deleted = 0
    /// Samples not appended, by reason code, in code order.
    public internal(set) var rejected: [RejectionCount] = []
    /// The earliest `start` of the stored samples: how far back the sync (a backfill) has reached.
    public internal(set) var earliestStart: Timestamp?
    /// The sync's phase (of the feature `sync.<type>`); `notStarted` until a sync task settles.
    public internal(set) var phase = LoadPhase.notStarted
    /// The error of the sync's last failure (of the feature `sync.<type>`), e.g. `databaseInaccessible`.
    public internal(set) var lastError: String?

    /// A count of samples not appended for one reason.
    public struct RejectionCount: Sendable, Equatable {
        /// The reason code: a rejection code of the input rules, or the mapping's (`unknownCategoryValue`).
        public let reason: String
        /// How many.
        public let count: Int
    }

    /// The feature name of this type's sync tasks: `sync.<type>`.
    public var feature: String { "sync.\(sampleType.rawValue)" }

    /// Folds one `sync.anchored` of this type.
    mutating func apply(_ record: SyncAnchorRecord) {
        anchor = record.anchor
        pages += 1
        samples += record.added
        deleted += record.deleted
        if !record.rejected.isEmpty {
            var counts: [String: Int] = [:]
            for count in rejected { counts[count.reason] = count.count }
            for (reason, count) in record.rejected { counts[reason, default: 0] += count }
            rejected = counts.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
                .map { RejectionCount(reason: $0, count: counts[$0] ?? 0) }
        }
        if let start = record.earliestStart, earliestStart.map({ start < $0 }) ?? true { earliestStart = start }
    }

    /// This state with the phase and last error of its feature.
    func withFeature(_ feature: FeatureLoadState?) -> SampleTypeSyncState {
        var state = self
        state.phase = feature?.phase ?? .notStarted
        state.lastError = feature?.lastError
        return state
    }
}
