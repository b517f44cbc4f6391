extension Event {
    /// The input object this event was ingested from, without `eventID`;
    /// `nil` for events a decider added itself (a superseding cancellation).
    ///
    /// This is what idempotency compares: the object equals the parsed input
    /// line (minus `eventID`) that produced the event, so re-ingesting that
    /// line is recognised after the process restarts and rebuilds its state
    /// from the log.
    package var inputObject: JSONObject? {
        var object = JSONObject()
        switch payload {
        case .sampleIngested(let sample):
            object["type"] = .string("sample")
            object["kind"] = .string(sample.kind.rawValue)
            object["id"] = .string(sample.id)
            object["start"] = .string(sample.start.canonicalText)
            object["end"] = .string(sample.end.canonicalText)
            object["source"] = .string(sample.source)
            switch sample.reading {
            case .quantity(let quantity):
                object["value"] = .number(quantity.inputValue)
                object["unit"] = .string(quantity.inputUnit)
            case .sleep(let stage):
                object["value"] = .string(stage.rawValue)
            case .workout(let workout):
                object["activityType"] = .string(workout.activityType)
                if let energy = workout.inputEnergy {
                    object["energy"] = .number(energy.value)
                    object["energyUnit"] = .string(energy.unit)
                }
                if let distance = workout.inputDistance {
                    object["distance"] = .number(distance.value)
                    object["distanceUnit"] = .string(distance.unit)
                }
                if let volume = workout.volumeKg { object["volumeKg"] = .number(volume) }
            }
        case .sampleDeleted(let deletion):
            object["type"] = .string("sampleDeleted")
            object["id"] = .string(deletion.sampleID)
            object["at"] = .string(deletion.at.canonicalText)
        case .refreshRequested(let refresh):
            object["type"] = .string("refresh")
            object["source"] = .string(refresh.source.rawValue)
            if let kind = refresh.kind { object["kind"] = .string(kind.rawValue) }
            object["at"] = .string(refresh.at.canonicalText)
        case .task(let task):
            guard task.reason != .superseded else { return nil }
            object["type"] = .string("task")
            object["task"] = .string(task.task)
            object["feature"] = .string(task.feature)
            object["phase"] = .string((task.requestedPhase ?? task.phase).rawValue)
            object["at"] = .string(task.at.canonicalText)
            if let error = task.error { object["error"] = .string(error) }
        case .profileUpdated(let profile):
            object["type"] = .string("profile")
            object["sleepTargetMinutes"] = .number(profile.sleepTargetMinutes)
            object["at"] = .string(profile.at.canonicalText)
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
