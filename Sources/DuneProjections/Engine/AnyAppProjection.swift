#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import DuneEvents

/// An ``AppProjection`` with its model type erased, as the engine holds it.
package struct AnyAppProjection: Sendable {
    package let name: String
    package let version: Int
    let initial: AppModel
    /// Folds events into the model in order; returns the failure of the first event whose fold threw.
    let fold: @Sendable (inout AppModel, [ProjectionEvent]) -> AppFailure?
    let encode: @Sendable (AppModel) -> [UInt8]?
    let decode: @Sendable ([UInt8]) -> AppModel?

    package init<Model>(_ projection: AppProjection<Model>) {
        name = projection.name
        version = projection.version
        initial = AppModel(projection.initial)
        fold = { model, events in
            guard var typed = model.value as? Model else { return nil }
            model = AppModel.released   // `typed` is now the only reference to the model's storage
            defer { model = AppModel(typed) }
            for event in events {
                do {
                    try projection.fold(&typed, event)
                } catch {
                    return AppFailure(seq: event.seq, message: "its fold threw at seq \(event.seq): \(error)")
                }
            }
            return nil
        }
        encode = { model in
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            return (model.value as? Model).flatMap { try? Array(encoder.encode($0)) }
        }
        decode = { bytes in (try? JSONDecoder().decode(Model.self, from: Data(bytes))).map(AppModel.init) }
    }
}

/// The model of an app projection, its type known to the projection that made it.
package struct AppModel: Sendable, Equatable {
    let value: any Sendable
    private let isEqual: @Sendable (any Sendable) -> Bool

    init<Model: Sendable & Equatable>(_ model: Model) {
        value = model
        isEqual = { other in (other as? Model) == model }
    }

    /// A placeholder while a fold holds the model.
    static let released = AppModel(0)

    package static func == (lhs: AppModel, rhs: AppModel) -> Bool { lhs.isEqual(rhs.value) }
}

/// Where an app projection's fold threw, and what it threw.
package struct AppFailure: Sendable, Equatable {
    package var seq: Int
    package var message: String
}

/// One app projection in the engine (and in a ``StoreState``): its model, or its failure.
package struct AppFoldState: Sendable, Equatable {
    package let projection: AnyAppProjection
    package var model: AppModel
    package var failure: AppFailure?

    init(_ projection: AnyAppProjection) {
        self.projection = projection
        model = projection.initial
    }

    package static func == (lhs: AppFoldState, rhs: AppFoldState) -> Bool {
        lhs.projection.name == rhs.projection.name && lhs.model == rhs.model && lhs.failure == rhs.failure
    }
}
