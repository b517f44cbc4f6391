import DuneEvents

/// The sync-status read model.
public struct SyncStatusModel: Sendable, Equatable, ReadModel {
    /// The `seq` of the last event the model reflects; 0 for an empty log.
    public package(set) var throughSeq: Int
    /// What the refresh requests did: the reload signal, the last refresh, counts per source and outcome.
    public let refresh: RefreshStatus
    /// In feature-name order.
    public let features: [FeatureLoadState]
    /// The HealthKit sync of each sample type that has a stored page
    /// (`sync.anchored`), in kind-name order: its anchor, pages, samples,
    /// rejections by reason, how far back it reached, and its phase and last
    /// error (those of the feature `sync.<type>`). Empty for a log without sync events.
    public let sampleTypes: [SampleTypeSyncState]

    /// The sync state of `type`, or `nil` when no page of it is stored.
    /// - Parameter type: The sample type.
    /// - Returns: Its sync state.
    public func sampleType(_ type: SampleKind) -> SampleTypeSyncState? {
        sampleTypes.first { $0.sampleType == type }
    }
}
