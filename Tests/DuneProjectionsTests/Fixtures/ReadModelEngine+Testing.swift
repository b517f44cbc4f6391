import DuneEvents
@testable import DuneProjections
import DuneTools

extension ReadModelEngine {
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
