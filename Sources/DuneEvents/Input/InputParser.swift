/// Parses and validates input lines (docs/input-format.md) into ``IngestCommand``s.
///
/// Every rejection carries one precise reason naming the field, e.g.
/// `field "start": timestamp "2026-02-28T07:12:00" has no UTC offset; add 'Z' or '±HH:MM'`.
/// Unknown fields are kept in ``IngestCommand/extra``.
package enum InputParser {
    /// Lines longer than this are rejected without being parsed.
    package static let maximumLineBytes = 1 << 20

    /// Why an input line was rejected.
    package struct Rejection: Error, Sendable, Equatable, CustomStringConvertible {
        package var reason: String
        /// - Parameter reason: What is wrong; quoted input values in it are made
        ///   printable (see ``printable(_:)``).
        package init(_ reason: String) { self.reason = Self.printable(reason) }
        package var description: String { reason }

        /// Reasons longer than this many characters are cut (an input value quoted in
        /// a reason may be up to a line's 1 MiB).
        package static let maximumReasonCharacters = 300

        /// `reason` as one printable line: control characters (a newline, a terminal
        /// escape, NUL — an input value quoted in the reason may hold any of them) are
        /// written as `\n`, `\r`, `\t` or `\u00XX`, and the text is cut after
        /// ``maximumReasonCharacters`` characters with `…`.
        static func printable(_ reason: String) -> String {
            var result = ""
            for (count, scalar) in reason.unicodeScalars.enumerated() {
                if count == maximumReasonCharacters {
                    result += "…"
                    break
                }
                switch scalar.value {
                case 0x0A: result += "\\n"
                case 0x0D: result += "\\r"
                case 0x09: result += "\\t"
                case 0x00..<0x20, 0x7F..<0xA0, 0x2028, 0x2029:
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: result.unicodeScalars.append(scalar)
                }
            }
            return result
        }
    }

    /// Parses one input line (without its newline).
    ///
    /// - Throws: ``Rejection`` with the reason.
    package static func parse(_ line: UnsafeRawBufferPointer) throws(Rejection) -> IngestCommand {
        guard line.count <= maximumLineBytes else {
            throw Rejection("line is \(line.count) bytes; the limit is \(maximumLineBytes)")
        }
        if let command = parseSample(line) ?? parseSignal(line) { return command }
        return try parseReference(line)
    }

    /// ``parse(_:)-(UnsafeRawBufferPointer)`` without the fast path: every
    /// line through ``JSONParser`` and ``command(from:)``. The fast path is
    /// checked against it.
    package static func parseReference(_ line: UnsafeRawBufferPointer) throws(Rejection) -> IngestCommand {
        guard line.count <= maximumLineBytes else {
            throw Rejection("line is \(line.count) bytes; the limit is \(maximumLineBytes)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw Rejection("invalid JSON at column \(error.column): \(error.reason)")
        }
        guard case .object(let object) = value else {
            throw Rejection("expected a JSON object, got \(value.typeDescription)")
        }
        return try command(from: object)
    }

    /// Parses one input line given as text (tests, small inputs).
    package static func parse(_ line: String) throws(Rejection) -> IngestCommand {
        let bytes = Array(line.utf8)
        let result: Result<IngestCommand, Rejection> = bytes.withUnsafeBytes { buffer in
            do throws(Rejection) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Validates an input object (a parsed line, or an importer's record).
    package static func command(from object: JSONObject) throws(Rejection) -> IngestCommand {
        var fields = InputFields(object: object)
        let type = try fields.string("type")
        let eventID = try fields.optionalString("eventID")
        if let eventID, eventID.isEmpty || eventID.utf8.count > 256 {
            throw Rejection("field \"eventID\" must be 1–256 bytes")
        }
        let intent: IngestCommand.Intent
        switch type {
        case "sample": intent = .sample(try sample(&fields))
        case "sampleDeleted":
            intent = .deleteSample(SampleDeletion(sampleID: try fields.identifier("id"), at: try fields.timestamp("at")))
        case "refresh":
            let source = try fields.enumeration("source", RefreshSource.self)
            let kind = try fields.optionalEnumeration("kind", SampleKind.self)
            if source == .healthKitObserver, kind == nil {
                throw Rejection("field \"kind\" is required for source healthKitObserver (the sample kind the observer fired for)")
            }
            intent = .refresh(RefreshRequest(source: source, kind: kind, at: try fields.timestamp("at")))
        case "task":
            let task = try fields.identifier("task")
            let feature = try fields.identifier("feature")
            let phase = try fields.enumeration("phase", TaskPhase.self)
            intent = .task(TaskCommand(task: task, feature: feature, phase: phase, at: try fields.timestamp("at"),
                                       error: try fields.optionalString("error")))
        case "profile":
            let minutes = try fields.number("sleepTargetMinutes")
            guard minutes > 0, minutes <= 1440 else {
                throw Rejection("field \"sleepTargetMinutes\" is \(JSONWriter.formatNumber(minutes)); expected more than 0 and at most 1440")
            }
            intent = .profile(ProfileUpdate(sleepTargetMinutes: minutes, at: try fields.timestamp("at")))
        default:
            throw Rejection("unknown type \"\(type)\"; expected sample, sampleDeleted, refresh, task or profile")
        }
        let unknown = fields.unread
        var content: [UInt8] = []
        InputContent.write(intent, unknown: unknown, into: &content)
        return IngestCommand(intent: intent, eventID: eventID, extra: unknown, content: content)
    }

    // MARK: - Samples

    private static func sample(_ fields: inout InputFields) throws(Rejection) -> Sample {
        let kind = try fields.enumeration("kind", SampleKind.self)
        let id = try fields.identifier("id")
        let start = try fields.timestamp("start")
        let end = try fields.timestamp("end")
        let source = try fields.identifier("source")
        guard end.seconds(since: start) >= 0 else {
            throw Rejection("end \(end) is before start \(start)")
        }
        let hours = end.seconds(since: start) / 3600
        let reading: Sample.Reading
        switch kind {
        case .sleep:
            let stageName = try fields.string("value")
            guard let stage = SleepStage(exactly: stageName) else {
                throw Rejection("field \"value\" \"\(stageName)\" is not a sleep stage; expected one of \(SleepStage.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard hours <= 24 else { throw Rejection("sleep sample lasts \(format(hours)) h; a sleep sample is at most 24 h") }
            reading = .sleep(stage)
        case .workout:
            guard hours <= 48 else { throw Rejection("workout lasts \(format(hours)) h; a workout is at most 48 h") }
            reading = .workout(try workout(&fields))
        default:
            guard hours <= 24 else {
                let shown = format(hours) == "24" ? "more than 24" : format(hours)
                throw Rejection("\(kind.rawValue) sample lasts \(shown) h (start \(start), end \(end)); a sample other than sleep or a workout is at most 24 h: check start and end, or send one sample per day")
            }
            let value = try fields.number("value")
            let unit = try fields.string("unit")
            guard let canonical = UnitConversion.canonicalValue(value, unit: unit, kind: kind), canonical.isFinite else {
                throw Rejection("unit \"\(unit)\" is not accepted for \(kind.rawValue); use \(UnitConversion.acceptedUnits(for: kind).joined(separator: " or "))")
            }
            if let range = UnitConversion.plausibleRange(for: kind), !range.contains(canonical) {
                let canonicalUnit = kind.canonicalUnit ?? unit
                throw Rejection("\(kind.rawValue) \(format(canonical)) \(canonicalUnit) is outside the plausible range \(format(range.lowerBound))–\(format(range.upperBound)) \(canonicalUnit)")
            }
            reading = .quantity(Quantity(value: canonical, inputValue: value, inputUnit: unit))
        }
        return Sample(id: id, kind: kind, start: start, end: end, source: source, reading: reading)
    }

    private static func workout(_ fields: inout InputFields) throws(Rejection) -> WorkoutSummary {
        let activityType = try fields.identifier("activityType")
        var summary = WorkoutSummary(activityType: activityType)
        if let energy = try fields.optionalNumber("energy") {
            let unit = try fields.string("energyUnit", because: "\"energy\" is given")
            guard let kcal = UnitConversion.kilocalories(energy, unit: unit) else {
                throw Rejection("field \"energyUnit\" \"\(unit)\" is not an energy unit; use kcal, Cal or kJ")
            }
            guard energy >= 0 else { throw Rejection("field \"energy\" is negative") }
            summary.energyKcal = kcal
            summary.inputEnergy = .init(value: energy, unit: unit)
        } else if fields.has("energyUnit") {
            throw Rejection("field \"energyUnit\" is given without \"energy\"")
        }
        if let distance = try fields.optionalNumber("distance") {
            let unit = try fields.string("distanceUnit", because: "\"distance\" is given")
            guard let meters = UnitConversion.meters(distance, unit: unit) else {
                throw Rejection("field \"distanceUnit\" \"\(unit)\" is not a distance unit; use m, km or mi")
            }
            guard distance >= 0 else { throw Rejection("field \"distance\" is negative") }
            summary.distanceMeters = meters
            summary.inputDistance = .init(value: distance, unit: unit)
        } else if fields.has("distanceUnit") {
            throw Rejection("field \"distanceUnit\" is given without \"distance\"")
        }
        if let volume = try fields.optionalNumber("volumeKg") {
            guard volume >= 0 else { throw Rejection("field \"volumeKg\" is negative") }
            summary.volumeKg = volume
        }
        return summary
    }

    /// A number for a message: 3 decimals, or Swift's exact form when that would hide it (1e308, 1e-25).
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return value > 0 ? "infinity" : "-infinity" }
        if abs(value) >= 1e12 || (value != 0 && abs(value) < 0.001) { return value.description }
        return JSONWriter.formatNumber((value * 1000).rounded() / 1000)
    }
}

/// Reads typed fields from an input object and remembers which were read,
/// so that the rest can be kept as unknown fields.
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

    mutating func optionalString(_ key: String) throws(InputParser.Rejection) -> String? {
        read.insert(key)
        guard let value = object[key] else { return nil }
        guard case .string(let string) = value else {
            throw InputParser.Rejection("field \"\(key)\" must be a string, got \(value.typeDescription)")
        }
        return string
    }

    mutating func string(_ key: String, because: String? = nil) throws(InputParser.Rejection) -> String {
        guard let string = try optionalString(key) else {
            throw InputParser.Rejection("missing field \"\(key)\"" + (because.map { " (required because \($0))" } ?? ""))
        }
        return string
    }

    /// A non-empty string of at most 256 bytes (ids, names).
    mutating func identifier(_ key: String) throws(InputParser.Rejection) -> String {
        let string = try string(key)
        guard !string.isEmpty else { throw InputParser.Rejection("field \"\(key)\" is empty") }
        guard string.utf8.count <= 256 else { throw InputParser.Rejection("field \"\(key)\" is longer than 256 bytes") }
        return string
    }

    mutating func optionalNumber(_ key: String) throws(InputParser.Rejection) -> Double? {
        read.insert(key)
        guard let value = object[key] else { return nil }
        guard case .number(let number) = value else {
            throw InputParser.Rejection("field \"\(key)\" must be a number, got \(value.typeDescription)")
        }
        return number
    }

    mutating func number(_ key: String) throws(InputParser.Rejection) -> Double {
        guard let number = try optionalNumber(key) else { throw InputParser.Rejection("missing field \"\(key)\"") }
        return number
    }

    mutating func timestamp(_ key: String) throws(InputParser.Rejection) -> Timestamp {
        let text = try string(key)
        let timestamp: Timestamp
        do {
            timestamp = try Timestamp(parsing: text)
        } catch {
            throw InputParser.Rejection("field \"\(key)\": \(error.reason)")
        }
        if let reason = TimestampWindow.rejection(field: key, timestamp) { throw InputParser.Rejection(reason) }
        return timestamp
    }

    mutating func optionalEnumeration<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(InputParser.Rejection) -> T?
    where T.RawValue == String {
        guard let name = try optionalString(key) else { return nil }
        guard let value = T(exactly: name) else {
            throw InputParser.Rejection("field \"\(key)\" \"\(name)\" is not valid; expected one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return value
    }

    mutating func enumeration<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(InputParser.Rejection) -> T
    where T.RawValue == String {
        guard let value = try optionalEnumeration(key, type) else { throw InputParser.Rejection("missing field \"\(key)\"") }
        return value
    }
}
