// The typed front end of the input rules: the values an app appends through
// `DuneStore` become commands by the same ``InputRules`` an input line goes
// through, with no JSON text or JSON object in between. Each function checks
// the fields in the order the line parser reads them, so an input that breaks
// two rules is refused for the same one either way.

extension IngestCommand {
    /// The command for a typed sample.
    /// - Throws: ``Rejection`` with the reason `ingest` gives for the same line.
    package static func sample(_ input: SampleInput, eventID: String?) throws(Rejection) -> IngestCommand {
        let eventID = try InputRules.eventID(eventID)
        var reader = TypedSampleFields(input: input)
        return IngestCommand(validated: .sample(try InputRules.sample(&reader)), eventID: eventID, extra: JSONObject())
    }

    /// The command for a typed deletion.
    /// - Throws: ``Rejection`` with the reason `ingest` gives for the same line.
    package static func deletion(_ deletion: SampleDeletion, eventID: String?) throws(Rejection) -> IngestCommand {
        let eventID = try InputRules.eventID(eventID)
        let checked = SampleDeletion(sampleID: try InputRules.identifier(deletion.sampleID, field: "id"),
                                     at: try InputRules.timestamp(deletion.at, field: "at"))
        return IngestCommand(validated: .deleteSample(checked), eventID: eventID, extra: JSONObject())
    }

    /// The command for a typed refresh request.
    /// - Throws: ``Rejection`` with the reason `ingest` gives for the same line.
    package static func refresh(_ request: RefreshRequest, eventID: String?) throws(Rejection) -> IngestCommand {
        let eventID = try InputRules.eventID(eventID)
        try InputRules.refreshKind(request.kind, for: request.source)
        let checked = RefreshRequest(source: request.source, kind: request.kind, at: try InputRules.timestamp(request.at, field: "at"))
        return IngestCommand(validated: .refresh(checked), eventID: eventID, extra: JSONObject())
    }

    /// The command for a typed task report.
    /// - Throws: ``Rejection`` with the reason `ingest` gives for the same line.
    package static func task(_ task: TaskCommand, eventID: String?) throws(Rejection) -> IngestCommand {
        let eventID = try InputRules.eventID(eventID)
        let checked = TaskCommand(task: try InputRules.identifier(task.task, field: "task"),
                                  feature: try InputRules.identifier(task.feature, field: "feature"), phase: task.phase,
                                  at: try InputRules.timestamp(task.at, field: "at"), error: task.error)
        return IngestCommand(validated: .task(checked), eventID: eventID, extra: JSONObject())
    }

    /// The command for a typed profile update.
    /// - Throws: ``Rejection`` with the reason `ingest` gives for the same line.
    package static func profile(_ profile: ProfileUpdate, eventID: String?) throws(Rejection) -> IngestCommand {
        let eventID = try InputRules.eventID(eventID)
        let checked = ProfileUpdate(sleepTargetMinutes: try InputRules.sleepTarget(minutes: profile.sleepTargetMinutes),
                                    at: try InputRules.timestamp(profile.at, field: "at"))
        return IngestCommand(validated: .profile(checked), eventID: eventID, extra: JSONObject())
    }
}

/// A typed sample's fields for ``InputRules/sample(_:)``: nothing to refuse
/// that a Swift type already rules out (a missing field, a wrong type, an
/// unknown unit or stage). The rules ask for the reading of the kind the
/// reading itself gives, so the "missing" answers below are never reached;
/// they are what a line without that field would be told.
struct TypedSampleFields: SampleFieldReader {
    let input: SampleInput

    func kind() -> SampleKind { input.kind }
    func id() -> String { input.id }
    func start() -> Timestamp { input.start }
    func end() -> Timestamp { input.end }
    func source() -> String { input.source }

    func sleepStage() throws(Rejection) -> SleepStage {
        guard case .sleep(let stage) = input.reading else { throw Self.missing("value") }
        return stage
    }

    func quantity() throws(Rejection) -> InputMeasure {
        guard let measure = input.reading.quantity else { throw Self.missing("value") }
        return measure
    }

    func activityType() throws(Rejection) -> String { try workout().activityType }

    func energy() throws(Rejection) -> InputMeasure? {
        let workout = try workout()
        return workout.energy.map { InputMeasure(value: $0, unit: workout.energyUnit.rawValue) }
    }

    func distance() throws(Rejection) -> InputMeasure? {
        let workout = try workout()
        return workout.distance.map { InputMeasure(value: $0, unit: workout.distanceUnit.rawValue) }
    }

    func volumeKg() throws(Rejection) -> Double? { try workout().volumeKg }

    func hrvMeasure() -> HRVMeasure? { input.hrvMeasure }

    private func workout() throws(Rejection) -> WorkoutInput {
        guard case .workout(let workout) = input.reading else { throw Self.missing("activityType") }
        return workout
    }

    private static func missing(_ field: String) -> Rejection {
        Rejection(.missingField, field: field, "missing field \"\(field)\"")
    }
}
