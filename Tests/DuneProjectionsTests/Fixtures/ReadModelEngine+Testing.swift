import DuneEvents
@testable import DuneProjections
import DuneTools

extension ReadModelEngine {
    /// An engine that folded `events` from scratch.
    init(replaying events: some Sequence<RecordedEvent>) {
        self.init()
        apply(Array(events))
    }

    /// Every read model of `events`, folded from scratch.
    static func models(_ events: some Sequence<RecordedEvent>) -> StoreState {
        var engine = ReadModelEngine(replaying: events)
        return engine.state()
    }

    /// The file of model `name` of `events`, folded from scratch.
    static func file(_ name: ProjectionName, _ events: some Sequence<RecordedEvent>) -> ReadModelFile {
        ReadModelFile(projection: name, bytes: models(events).fileBytes(name))
    }
}
