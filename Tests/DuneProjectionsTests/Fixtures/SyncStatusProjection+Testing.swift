import DuneEvents
import DuneProjections
import DuneTools

extension SyncStatusProjection {
    /// A projection that folded `events` from scratch, one by one.
    init(replaying events: some Sequence<RecordedEvent>) {
        self.init()
        apply(contentsOf: events)
    }

    /// Folds `events` in order, one by one.
    mutating func apply(contentsOf events: some Sequence<RecordedEvent>) {
        for event in events { apply(event) }
    }

    /// The state of `name`, or `nil` when no task event named it.
    func feature(_ name: String) -> FeatureLoadState? {
        features.first { $0.feature == name }
    }

    /// The read model written as `sync-status.json`.
    func file() -> ReadModelFile {
        ReadModelFile(projection: .syncStatus, bytes: readModel().fileBytes)
    }
}
