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
    /// The input object an `ingest` line would hold for this value: the
    /// store validates it by the very rules the line parser applies.
    var inputObject: JSONObject {
        var object = JSONObject()
        let eventID: String?
        switch self {
        case .sample(let sample, let key):
            eventID = key
            object["type"] = .string("sample")
            object["kind"] = .string(sample.kind.rawValue)
            object["id"] = .string(sample.id)
            object["start"] = .string(sample.start.canonicalText)
            object["end"] = .string(sample.end.canonicalText)
            object["source"] = .string(sample.source)
            switch sample.reading {
            case .quantity(let value, let unit):
                object["value"] = .number(value)
                object["unit"] = .string(unit)
            case .sleep(let stage):
                object["value"] = .string(stage.rawValue)
            case .workout(let workout):
                object["activityType"] = .string(workout.activityType)
                if let energy = workout.energy {
                    object["energy"] = .number(energy.value)
                    object["energyUnit"] = .string(energy.unit)
                }
                if let distance = workout.distance {
                    object["distance"] = .number(distance.value)
                    object["distanceUnit"] = .string(distance.unit)
                }
                if let volume = workout.volumeKg { object["volumeKg"] = .number(volume) }
            }
        case .sampleDeletion(let deletion, let key):
            eventID = key
            object["type"] = .string("sampleDeleted")
            object["id"] = .string(deletion.sampleID)
            object["at"] = .string(deletion.at.canonicalText)
        case .refresh(let request, let key):
            eventID = key
            object["type"] = .string("refresh")
            object["source"] = .string(request.source.rawValue)
            if let kind = request.kind { object["kind"] = .string(kind.rawValue) }
            object["at"] = .string(request.at.canonicalText)
        case .task(let task, let key):
            eventID = key
            object["type"] = .string("task")
            object["task"] = .string(task.task)
            object["feature"] = .string(task.feature)
            object["phase"] = .string(task.phase.rawValue)
            object["at"] = .string(task.at.canonicalText)
            if let error = task.error { object["error"] = .string(error) }
        case .profile(let profile, let key):
            eventID = key
            object["type"] = .string("profile")
            object["sleepTargetMinutes"] = .number(profile.sleepTargetMinutes)
            object["at"] = .string(profile.at.canonicalText)
        }
        if let eventID { object["eventID"] = .string(eventID) }
        return object
    }
}
