/// What one durable append changed, as ``DuneStore/updates`` delivers it.
public struct StoreUpdate: Sendable, Hashable {
    /// The seq of the last event in the log after the append.
    public var throughSeq: Int
    /// The read models whose value may differ from before.
    public var changedModels: Set<ProjectionName>

    /// Creates an update, e.g. for a view model's tests; the store makes the ones it delivers.
    public init(throughSeq: Int, changedModels: Set<ProjectionName>) {
        self.throughSeq = throughSeq
        self.changedModels = changedModels
    }

    /// This update and a later one as one: the later `throughSeq`, both sets of models.
    func merged(with later: StoreUpdate) -> StoreUpdate {
        StoreUpdate(throughSeq: max(throughSeq, later.throughSeq), changedModels: changedModels.union(later.changedModels))
    }
}
