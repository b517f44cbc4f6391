// The `ingest` input line of each command type as an object (without
// `eventID`), timestamps in their canonical spelling: what the store's typed
// appends hand to the line parser to validate. `SampleInput.inputObject` is
// the sample's.

extension SampleDeletion {
    /// The `sampleDeleted` input line.
    package var inputObject: JSONObject {
        JSONObject([JSONMember("type", .string("sampleDeleted")), JSONMember("id", .string(sampleID)),
                    JSONMember("at", .string(at.canonicalText))])
    }
}

extension RefreshRequest {
    /// The `refresh` input line.
    package var inputObject: JSONObject {
        var object = JSONObject([JSONMember("type", .string("refresh")), JSONMember("source", .string(source.rawValue))])
        if let kind { object["kind"] = .string(kind.rawValue) }
        object["at"] = .string(at.canonicalText)
        return object
    }
}

extension TaskCommand {
    /// The `task` input line.
    package var inputObject: JSONObject {
        var object = JSONObject([JSONMember("type", .string("task")), JSONMember("task", .string(task)),
                                 JSONMember("feature", .string(feature)), JSONMember("phase", .string(phase.rawValue)),
                                 JSONMember("at", .string(at.canonicalText))])
        if let error { object["error"] = .string(error) }
        return object
    }
}

extension ProfileUpdate {
    /// The `profile` input line.
    package var inputObject: JSONObject {
        JSONObject([JSONMember("type", .string("profile")), JSONMember("sleepTargetMinutes", .number(sleepTargetMinutes)),
                    JSONMember("at", .string(at.canonicalText))])
    }
}
