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

    /// The read model written as `sync-status.json`.
    func file() -> ReadModelFile {
        ReadModelFile(projection: .syncStatus, bytes: readModel().fileBytes)
    }
}
