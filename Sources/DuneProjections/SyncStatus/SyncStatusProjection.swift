import DuneEvents

/// The sync-status projection (docs/read-models.md): refresh signal and counts, and each
/// feature's load phase, folded from `refresh.requested` and `task.*` events.
public struct SyncStatusProjection: Projection, Equatable {
    public static var name: ProjectionName { .syncStatus }

    public private(set) var throughSeq = 0
    public private(set) var refresh = RefreshStatus()
    private var featuresByName: [String: FeatureLoadState] = [:]

    public init() {}

    /// Folds one event; skips events with `seq ≤ throughSeq`.
    public mutating func apply(_ event: RecordedEvent) {
        guard event.seq > throughSeq else { return }
        throughSeq = event.seq
        // An event stored outside SPEC §2's window by an older version is skipped.
        guard !event.isOutsideTimestampWindow else { return }
        switch event.payload {
        case .refreshRequested(let record):
            refresh.apply(record)
        case .task(let record):
            featuresByName[record.feature, default: FeatureLoadState(feature: record.feature)]
                .apply(record, seq: event.seq)
        case .sampleIngested, .sampleDeleted, .profileUpdated:
            break
        }
    }

    /// Folds a decoded batch; skips events with `seq ≤ throughSeq`.
    /// Only refresh and task events matter here, and the batch holds them in full.
    public mutating func apply(_ batch: EventBatch) {
        guard let last = batch.lastSeq, last > throughSeq else { return }
        for event in batch.otherEvents where event.seq > throughSeq { apply(event) }
        throughSeq = last
    }

    /// Every feature a task event named, in name order.
    public var features: [FeatureLoadState] {
        featuresByName.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { featuresByName[$0] }
    }

    /// The state of `feature`, or `nil` when no task event named it.
    public func feature(_ feature: String) -> FeatureLoadState? {
        featuresByName[feature]
    }

    /// The read model.
    /// - Complexity: O(f log f) for f features.
    public func readModel() -> SyncStatusModel {
        SyncStatusModel(throughSeq: throughSeq, refresh: refresh, features: features)
    }
}
