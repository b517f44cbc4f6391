import DuneEvents

/// One thing to append through ``DuneStore/append(_:)-([StoreInput])``: the
/// typed form of each input line an `ingest` reads.
///
/// Each case may carry an idempotency key (`eventID`): appending the same
/// key again with the same content is ``AppendOutcome/alreadyAppended``,
/// with other content a ``AppendOutcome/conflict(reason:)``.
///
/// ```swift
/// try await store.append([
///     .sample(hrv),
///     .refresh(RefreshRequest(source: .healthKitObserver, kind: .hrv, at: now)),
///     .task(TaskCommand(task: "load-7", feature: "readiness", phase: .started, at: now)),
/// ])
/// ```
public enum StoreInput: Sendable, Hashable {
    /// A new sample, or a correction of one with the same id.
    case sample(SampleInput, eventID: String? = nil)
    /// The deletion of a sample by id; deleting an id that is not stored is ``AppendOutcome/alreadyAppended``.
    case sampleDeletion(SampleDeletion, eventID: String? = nil)
    /// A refresh request; the refresh coordinator decides whether it is performed or throttled.
    case refresh(RefreshRequest, eventID: String? = nil)
    /// A task lifecycle report; starting a task of a feature that has one in
    /// flight first cancels the old one, and a failure with error `cancelled`
    /// is stored as a cancellation.
    case task(TaskCommand, eventID: String? = nil)
    /// A new sleep target.
    case profile(ProfileUpdate, eventID: String? = nil)
}

extension StoreInput {
    /// The command this input asks for, validated by the rules an `ingest`
    /// line is validated by (no JSON in between).
    ///
    /// - Throws: ``Rejection`` with the code, field and reason `ingest` gives the equal line.
    package func command() throws(Rejection) -> IngestCommand {
        switch self {
        case .sample(let sample, let eventID): try .sample(sample, eventID: eventID)
        case .sampleDeletion(let deletion, let eventID): try .deletion(deletion, eventID: eventID)
        case .refresh(let request, let eventID): try .refresh(request, eventID: eventID)
        case .task(let task, let eventID): try .task(task, eventID: eventID)
        case .profile(let profile, let eventID): try .profile(profile, eventID: eventID)
        }
    }
}
