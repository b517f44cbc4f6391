import DuneEvents

/// The sync-status read model.
public struct SyncStatusModel: Sendable, Equatable, ReadModel {
    public let throughSeq: Int
    public let refresh: RefreshStatus
    /// In feature-name order.
    public let features: [FeatureLoadState]

    package init(throughSeq: Int, refresh: RefreshStatus, features: [FeatureLoadState]) {
        self.throughSeq = throughSeq
        self.refresh = refresh
        self.features = features
    }
}
