import DuneEvents

/// A read model an app defines: a versioned pure fold over the log's events
/// as the engine presents them (``ProjectionEvent``), registered when the
/// store opens (``DuneStore/Options/register(_:)``) and read from the same
/// ``StoreState`` as the four built-in models, at the same `throughSeq`.
///
/// The fold must be pure, as the built-in ones are: the same events give the
/// same model, with no clock, randomness or `Dictionary`/`Set` iteration
/// order in what it computes. Its model is snapshotted with the other read
/// models (as JSON, through `Codable`), stamped with ``version``: bump the
/// version whenever a change to the fold would give another model for the
/// same log, and the next open refolds this projection alone from the log.
///
/// ```swift
/// struct HRVTotals: Codable, Sendable, Equatable {
///     var samples = 0
///     var sum = 0.0
/// }
/// let hrvTotals = AppProjection(name: "hrvTotals", version: 1, initial: HRVTotals()) { model, event in
///     func count(_ sample: Sample, _ sign: Int) {
///         guard sample.kind == .hrv, let value = sample.quantity?.value else { return }
///         model.samples += sign
///         model.sum += Double(sign) * value
///     }
///     switch event.change {
///     case .sampleAdded(let sample): count(sample, 1)
///     case .sampleCorrected(let old, let new): count(old, -1); count(new, 1)
///     case .sampleDeleted(let sample): count(sample, -1)
///     case .refresh, .task, .profileUpdated: break
///     }
/// }
/// var options = DuneStore.Options()
/// options.register(hrvTotals)
/// let store = try await DuneStore.open(at: path, options: options)
/// let totals = try await store.state.model(of: hrvTotals)
/// ```
///
/// ## A fold that throws or traps
///
/// A fold that throws marks its projection failed at that event:
/// ``StoreState/model(of:)`` throws ``AppProjectionError`` with the error's
/// description and the event's seq, the projection folds nothing more until
/// the store opens with a new ``version``, and every other read model goes
/// on. The log is never touched by a fold. A fold that traps (a failed
/// precondition, an out-of-range index, a force unwrap of `nil`) cannot be
/// caught in Swift: it ends the process. Nothing in the log is lost or
/// changed, since folds only read it; the next open folds the same events
/// again and traps again, until the fold is fixed.
public struct AppProjection<Model: Codable & Sendable & Equatable>: Sendable {
    /// The projection's name, unique among the projections a store registers: it names its part of the snapshot.
    public let name: String
    /// The version of the fold's output; a snapshot's part of another version is refolded from the log.
    public let version: Int
    /// The model before any event.
    public let initial: Model
    /// Folds one event into the model; called in `seq` order, once per event.
    public let fold: @Sendable (inout Model, ProjectionEvent) throws -> Void

    /// Creates an app projection.
    /// - Parameters:
    ///   - name: Unique among the store's projections.
    ///   - version: Bump it whenever the fold's output for the same log changes.
    ///   - initial: The model before any event.
    ///   - fold: The pure fold: the model and one event in, the updated model out.
    public init(name: String, version: Int, initial: Model,
                fold: @escaping @Sendable (inout Model, ProjectionEvent) throws -> Void) {
        self.name = name
        self.version = version
        self.initial = initial
        self.fold = fold
    }
}

/// One event of the log as the engine presents it to an ``AppProjection``:
/// samples with corrections and deletions resolved (a correction carries
/// the version it replaces, a deletion the sample it removes), HRV samples
/// with their ``Sample/hrvMeasure``, and the refresh, task and profile events.
///
/// Events a fold never sees: a deletion of a sample that is not stored, the
/// traces a forget leaves, and events an older version stored with a
/// timestamp outside the accepted window.
public struct ProjectionEvent: Sendable, Hashable {
    /// The event's seq in the log.
    public let seq: Int
    /// What happened.
    public let change: Change

    /// What an event changed.
    public enum Change: Sendable, Hashable {
        /// A sample whose id was not stored.
        case sampleAdded(Sample)
        /// A correction: `new` replaces `old` (same id; it may be on another day).
        case sampleCorrected(old: Sample, new: Sample)
        /// A deletion of a stored sample.
        case sampleDeleted(Sample)
        /// A refresh request and what the coordinator decided.
        case refresh(RefreshRequest, decision: RefreshDecision)
        /// A task lifecycle phase as stored (a superseded task's cancellation included).
        case task(TaskCommand)
        /// A profile update.
        case profileUpdated(ProfileUpdate)
    }
}

/// Why ``StoreState/model(of:)`` has no model for an app projection.
public struct AppProjectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The projection's name.
    public let projection: String
    /// The seq of the event whose fold threw; `nil` when the projection is not registered.
    public let seq: Int?
    /// What happened, and how to fix it.
    public let message: String

    /// `projection 'name': message`.
    public var description: String { "projection '\(projection)': \(message)" }
}
