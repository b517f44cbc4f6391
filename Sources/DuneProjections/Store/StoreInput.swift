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
    /// The command this value asks for, validated by the rules `ingest` applies.
    /// - Throws: The rejection, as ``InputError``.
    package func command() throws -> IngestCommand {
        try InputParser.command(from: inputObject)
    }

    /// The input object an `ingest` line would hold for this value: the
    /// store validates it by the very rules the line parser applies.
    var inputObject: JSONObject {
        var (object, eventID): (JSONObject, String?)
        switch self {
        case .sample(let sample, let key): (object, eventID) = (sample.inputObject, key)
        case .sampleDeletion(let deletion, let key): (object, eventID) = (deletion.inputObject, key)
        case .refresh(let request, let key): (object, eventID) = (request.inputObject, key)
        case .task(let task, let key): (object, eventID) = (task.inputObject, key)
        case .profile(let profile, let key): (object, eventID) = (profile.inputObject, key)
        }
        if let eventID { object["eventID"] = .string(eventID) }
        return object
    }
}
