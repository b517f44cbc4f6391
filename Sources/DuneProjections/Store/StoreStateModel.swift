import DuneEvents
import Observation

/// The latest state of a ``DuneStore`` for SwiftUI: a `@MainActor`
/// `@Observable` model for a view to hold in `@State`.
///
/// It starts from the store's current state and follows ``DuneStore/states``
/// while it lives; releasing it stops the observation. A view reading
/// ``state`` is redrawn whenever the store (or another process writing the
/// same log) changes it.
///
/// ```swift
/// struct ReadinessView: View {
///     @State var model: StoreStateModel
///     var body: some View {
///         Text(model.state.readiness.days.last?.status.rawValue ?? "–")
///     }
/// }
/// // let model = await StoreStateModel(store: store)
/// ```
@MainActor
@Observable
public final class StoreStateModel {
    /// The store's latest state.
    public private(set) var state: StoreState
    /// The error that failed the store and ended the observation, if it failed.
    public private(set) var failure: DuneEventsError?

    @ObservationIgnored private var observation: Task<Void, Never>?

    /// A model holding `store`'s current state, following its later states.
    /// - Parameter store: The store to mirror.
    public init(store: DuneStore) async {
        state = await store.state
        let states = store.states
        observation = Task { [weak self] in
            do {
                for try await state in states {
                    guard let self else { return }
                    self.state = state
                }
            } catch {
                self?.failure = error as? DuneEventsError
            }
        }
    }

    deinit {
        observation?.cancel()
    }
}
