import DuneEvents

extension InputRules {
    /// Validates an input object (a parsed line, or an importer's record) by
    /// these rules, the rules typed values are validated by too.
    package static func command(from object: JSONObject) throws(Rejection) -> IngestCommand {
        var fields = InputFields(object: object)
        let type = try fields.string("type")
        let eventID = try InputRules.eventID(fields.optionalString("eventID"))
        let intent: IngestCommand.Intent
        switch type {
        case "sample": intent = .sample(try InputRules.sample(&fields))
        case "sampleDeleted":
            intent = .deleteSample(SampleDeletion(sampleID: try fields.identifier("id"), at: try fields.timestamp("at")))
        case "refresh":
            let source = try fields.enumeration("source", RefreshSource.self)
            let kind = try fields.optionalEnumeration("kind", SampleKind.self)
            try InputRules.refreshKind(kind, for: source)
            intent = .refresh(RefreshRequest(source: source, kind: kind, at: try fields.timestamp("at")))
        case "task":
            let task = try fields.identifier("task")
            let feature = try fields.identifier("feature")
            let phase = try fields.enumeration("phase", TaskPhase.self)
            intent = .task(TaskCommand(task: task, feature: feature, phase: phase, at: try fields.timestamp("at"),
                                       error: try fields.optionalString("error")))
        case "profile":
            let minutes = try InputRules.sleepTarget(minutes: fields.number("sleepTargetMinutes"))
            intent = .profile(ProfileUpdate(sleepTargetMinutes: minutes, at: try fields.timestamp("at")))
        default:
            throw Rejection(.unknownType, field: "type", "unknown type \"\(type)\"; expected sample, sampleDeleted, refresh, task or profile")
        }
        return IngestCommand(validated: intent, eventID: eventID, extra: fields.unread)
    }
}

/// Reads typed fields from an input object and remembers which were read,
/// so that the rest can be kept as unknown fields: the JSON object front end of
/// ``InputRules``, which refuses what only JSON can get wrong (a missing
/// field, a wrong JSON type, timestamp text, a name not in its list).
struct InputFields {
    private let object: JSONObject
    private var read: Set<String> = ["type", "eventID"]

    init(object: JSONObject) {
        self.object = object
    }

    /// The members nobody asked for, in input order.
    var unread: JSONObject {
        JSONObject(object.members.filter { !read.contains($0.key) })
    }

    func has(_ key: String) -> Bool { object[key] != nil }

    mutating func optionalString(_ key: String) throws(Rejection) -> String? {
        read.insert(key)
        guard let value = object[key] else { return nil }
        guard case .string(let string) = value else {
            throw Rejection(.wrongType, field: key, "field \"\(key)\" must be a string, got \(value.typeDescription)")
        }
        return string
    }

    mutating func string(_ key: String, because: String? = nil) throws(Rejection) -> String {
        guard let string = try optionalString(key) else {
            throw Rejection(.missingField, field: key, "missing field \"\(key)\"" + (because.map { " (required because \($0))" } ?? ""))
        }
        return string
    }

    /// A non-empty string of at most 256 bytes (ids, names).
    mutating func identifier(_ key: String) throws(Rejection) -> String {
        try InputRules.identifier(string(key), field: key)
    }

    mutating func optionalNumber(_ key: String) throws(Rejection) -> Double? {
        read.insert(key)
        guard let value = object[key] else { return nil }
        guard case .number(let number) = value else {
            throw Rejection(.wrongType, field: key, "field \"\(key)\" must be a number, got \(value.typeDescription)")
        }
        return number
    }

    mutating func number(_ key: String) throws(Rejection) -> Double {
        guard let number = try optionalNumber(key) else { throw Rejection(.missingField, field: key, "missing field \"\(key)\"") }
        return number
    }

    /// The parsed timestamp in `key`, not yet checked by ``InputRules/timestamp(_:field:)``.
    mutating func parsedTimestamp(_ key: String) throws(Rejection) -> Timestamp {
        let text = try string(key)
        do {
            return try Timestamp(parsing: text)
        } catch {
            throw Rejection(.invalidTimestamp, field: key, "field \"\(key)\": \(error.reason)")
        }
    }

    /// The timestamp in `key`, checked by ``InputRules/timestamp(_:field:)``.
    mutating func timestamp(_ key: String) throws(Rejection) -> Timestamp {
        try InputRules.timestamp(parsedTimestamp(key), field: key)
    }

    mutating func optionalEnumeration<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(Rejection) -> T?
    where T.RawValue == String {
        guard let name = try optionalString(key) else { return nil }
        guard let value = T(exactly: name) else {
            throw Rejection(.unknownName, field: key,
                            "field \"\(key)\" \"\(name)\" is not valid; expected one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    mutating func enumeration<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(Rejection) -> T
    where T.RawValue == String {
        guard let value = try optionalEnumeration(key, type) else { throw Rejection(.missingField, field: key, "missing field \"\(key)\"") }
        return value
    }
}

extension InputFields: SampleFieldReader {
    mutating func kind() throws(Rejection) -> SampleKind { try enumeration("kind", SampleKind.self) }
    mutating func id() throws(Rejection) -> String { try string("id") }
    mutating func start() throws(Rejection) -> Timestamp { try parsedTimestamp("start") }
    mutating func end() throws(Rejection) -> Timestamp { try parsedTimestamp("end") }
    mutating func source() throws(Rejection) -> String { try string("source") }

    mutating func sleepStage() throws(Rejection) -> SleepStage {
        let name = try string("value")
        guard let stage = SleepStage(exactly: name) else {
            throw Rejection(.unknownName, field: "value",
                            "field \"value\" \"\(name)\" is not a sleep stage; expected one of \(SleepStage.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return stage
    }

    mutating func quantity() throws(Rejection) -> InputMeasure {
        let value = try number("value")
        return InputMeasure(value: value, unit: try string("unit"))
    }

    mutating func activityType() throws(Rejection) -> String { try string("activityType") }
    mutating func energy() throws(Rejection) -> InputMeasure? { try measure("energy", unit: "energyUnit") }
    mutating func distance() throws(Rejection) -> InputMeasure? { try measure("distance", unit: "distanceUnit") }
    mutating func volumeKg() throws(Rejection) -> Double? { try optionalNumber("volumeKg") }

    mutating func hrvMeasure() throws(Rejection) -> HRVMeasure? {
        guard let name = try optionalString("measure") else { return nil }
        guard let measure = HRVMeasure(exactly: name) else {
            throw Rejection(.unknownMeasure, field: "measure",
                            "field \"measure\" \"\(name)\" is not an HRV measure; expected one of \(HRVMeasure.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return measure
    }

    /// The number in `key` with its unit in `unitKey`: both, or neither.
    private mutating func measure(_ key: String, unit unitKey: String) throws(Rejection) -> InputMeasure? {
        guard let value = try optionalNumber(key) else {
            if has(unitKey) {
                read.insert(unitKey)
                throw Rejection(.unitWithoutValue, field: unitKey, "field \"\(unitKey)\" is given without \"\(key)\"")
            }
            return nil
        }
        return InputMeasure(value: value, unit: try string(unitKey, because: "\"\(key)\" is given"))
    }
}
