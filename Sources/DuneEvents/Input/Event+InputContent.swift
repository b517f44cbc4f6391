extension Event {
    /// The input object this event was ingested from, without `eventID`;
    /// `nil` for events a decider added itself (a superseding cancellation).
    ///
    /// This is what idempotency compares: the object equals the parsed input
    /// line (minus `eventID`) that produced the event, so re-ingesting that
    /// line is recognised after the process restarts and rebuilds its state
    /// from the log.
    package var inputObject: JSONObject? {
        var object: JSONObject
        switch payload {
        case .sampleIngested(let sample):
            object = sample.input.inputObject
        case .sampleDeleted(let deletion):
            object = deletion.inputObject
        case .refreshRequested(let refresh):
            object = RefreshRequest(source: refresh.source, kind: refresh.kind, at: refresh.at).inputObject
        case .task(let task):
            guard task.reason != .superseded else { return nil }
            object = TaskCommand(task: task.task, feature: task.feature, phase: task.requestedPhase ?? task.phase, at: task.at,
                                 error: task.error).inputObject
        case .profileUpdated(let profile):
            object = profile.inputObject
        case .redacted, .dataForgotten:
            return nil
        }
        for member in extra.members { object[member.key] = member.value }
        return object
    }

    /// Canonical bytes of ``inputObject``.
    package var inputContent: [UInt8]? {
        guard let object = inputObject else { return nil }
        var bytes: [UInt8] = []
        JSONWriter.write(.object(object), into: &bytes)
        return bytes
    }
}
