import DuneEvents

/// The sync-status read model.
public struct SyncStatusModel: Sendable, Equatable, ReadModel {
    /// The `seq` of the last event the model reflects; 0 for an empty log.
    public let throughSeq: Int
    /// What the refresh requests did: the reload signal, the last refresh, counts per source and outcome.
    public let refresh: RefreshStatus
    /// In feature-name order.
    public let features: [FeatureLoadState]

    package init(throughSeq: Int, refresh: RefreshStatus, features: [FeatureLoadState]) {
        self.throughSeq = throughSeq
        self.refresh = refresh
        self.features = features
    }
}
