/// Encodes events into stored log lines and decodes them back (docs/log-format.md).
///
/// A stored line is
/// `{"v":1,"seq":N,"id":"…","type":"…","recordedAt":"…","data":{…},"crc":"xxxxxxxx"}`
/// with the envelope members in that fixed order and `data` in canonical
/// form (sorted keys). The CRC is added by ``StoredLine/seal(_:)``.
package enum EventCodec {
    /// The stored format version written in `v`.
    package static let formatVersion = 1

    /// Why a stored line could not be decoded.
    package struct DecodeError: Error, Sendable, Equatable {
        package var reason: String
    }

    // MARK: - Encoding

    /// The line for `recorded` up to, not including, `,"crc":…}` — ready to seal.
    package static func encodeUnsealed(_ recorded: RecordedEvent, into output: inout [UInt8]) {
        appendEnvelope(recorded, to: &output)
        JSONWriter.write(.object(data(of: recorded.event)), into: &output)
    }

    /// The envelope of `recorded`'s line, up to and including `"data":`:
    /// `{"v":1,"seq":N,"id":"…","type":"…","recordedAt":"…","data":`. Every
    /// writer of a ``RecordedEvent``'s line starts with it (a prepared sample's
    /// line, which has no ``RecordedEvent``, writes the same bytes from its parts).
    static func appendEnvelope(_ recorded: RecordedEvent, to output: inout [UInt8]) {
        output.appendLiteral(#"{"v":1,"seq":"#)
        appendInteger(recorded.seq, to: &output)
        output.appendLiteral(#","id":"#)
        JSONWriter.writeString(recorded.id, into: &output)
        output.appendLiteral(#","type":""#)
        output.append(contentsOf: recorded.type.rawValue.utf8)
        output.appendLiteral(#"","recordedAt":"#)
        JSONWriter.writeString(recorded.recordedAt.text, into: &output)
        output.appendLiteral(#","data":"#)
    }

    /// The complete, sealed, newline-terminated line for `recorded`, every
    /// event through ``data(of:)``: the reference encoder.
    ///
    /// The log and the CLI write lines with ``appendLine(_:to:)`` (the same
    /// bytes; samples, refresh and task events written member by member); this
    /// is its oracle in the tests, and what writes the events it hands on
    /// (workouts, deletions, profiles, redacted lines, the forget record).
    package static func encodeLine(_ recorded: RecordedEvent) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(384)
        encodeUnsealed(recorded, into: &line)
        StoredLine.seal(&line)
        return line
    }

    /// The `data` member of an event.
    package static func data(of event: Event) -> JSONObject {
        var data = JSONObject()
        switch event.payload {
        case .sampleIngested(let sample):
            data["id"] = .string(sample.id)
            data["kind"] = .string(sample.kind.rawValue)
            data["start"] = .string(sample.start.text)
            data["end"] = .string(sample.end.text)
            data["source"] = .string(sample.source)
            switch sample.reading {
            case .quantity(let quantity):
                data["value"] = .number(quantity.value)
                let unit = sample.kind.canonicalUnit ?? quantity.inputUnit
                data["unit"] = .string(unit)
                if quantity.inputUnit != unit {
                    data["input"] = measurementObject(quantity.inputValue, quantity.inputUnit)
                }
            case .sleep(let stage):
                data["value"] = .string(stage.rawValue)
            case .workout(let workout):
                data["activityType"] = .string(workout.activityType)
                if let energy = workout.energyKcal { data["energyKcal"] = .number(energy) }
                if let distance = workout.distanceMeters { data["distanceM"] = .number(distance) }
                if let volume = workout.volumeKg { data["volumeKg"] = .number(volume) }
                if let input = workout.inputEnergy, input.unit != "kcal" {
                    data["inputEnergy"] = measurementObject(input.value, input.unit)
                }
                if let input = workout.inputDistance, input.unit != "m" {
                    data["inputDistance"] = measurementObject(input.value, input.unit)
                }
            }
        case .sampleDeleted(let deletion):
            data["id"] = .string(deletion.sampleID)
            data["at"] = .string(deletion.at.text)
        case .refreshRequested(let refresh):
            data["source"] = .string(refresh.source.rawValue)
            if let kind = refresh.kind { data["kind"] = .string(kind.rawValue) }
            data["at"] = .string(refresh.at.text)
            data["outcome"] = .string(refresh.outcome.rawValue)
            if let reason = refresh.reason { data["reason"] = .string(reason.rawValue) }
            data["refreshSignal"] = .number(Double(refresh.refreshSignal))
        case .task(let task):
            data["task"] = .string(task.task)
            data["feature"] = .string(task.feature)
            data["at"] = .string(task.at.text)
            if let error = task.error { data["error"] = .string(error) }
            if let reason = task.reason { data["reason"] = .string(reason.rawValue) }
            if let requested = task.requestedPhase { data["requestedPhase"] = .string(requested.rawValue) }
            if let successor = task.supersededBy { data["supersededBy"] = .string(successor) }
        case .profileUpdated(let profile):
            data["sleepTargetMinutes"] = .number(profile.sleepTargetMinutes)
            data["at"] = .string(profile.at.text)
        case .redacted(let redacted):
            data["id"] = .string(redacted.sampleID)
            data["redacted"] = .bool(true)
            return data  // no eventID, no extra: nothing of the sample's content remains
        case .dataForgotten(let record):
            data["selectors"] = .array(record.selectors.map { .string($0) })
            data["samples"] = .number(Double(record.samples))
            data["events"] = .number(Double(record.events))
        }
        if let eventID = event.eventID { data["eventID"] = .string(eventID) }
        if !event.extra.isEmpty { data["extra"] = .object(event.extra) }
        return data
    }

    private static func measurementObject(_ value: Double, _ unit: String) -> JSONValue {
        .object(JSONObject([JSONMember("unit", .string(unit)), JSONMember("value", .number(value))]))
    }

    // MARK: - Decoding

    /// Decodes one stored line (without its `\n`). The CRC is not checked here;
    /// see ``StoredLine/isIntact(_:)``.
    ///
    /// - Throws: ``DecodeError`` naming the member that is missing or wrong.
    package static func decode(_ line: UnsafeRawBufferPointer) throws(DecodeError) -> RecordedEvent {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw DecodeError(reason: "not valid JSON: \(error.reason) at column \(error.column)")
        }
        guard case .object(let object) = value else { throw DecodeError(reason: "the line is not a JSON object") }
        return try decode(object)
    }

    /// Decodes a stored line already parsed into an object.
    package static func decode(_ object: JSONObject) throws(DecodeError) -> RecordedEvent {
        let fields = FieldReader(object: object, context: "")
        let version = try fields.requiredInteger("v")
        guard version == formatVersion else { throw DecodeError(reason: "unsupported format version \(version); this build reads v\(formatVersion)") }
        let seq = try fields.requiredInteger("seq")
        guard seq >= 1 else { throw DecodeError(reason: "seq \(seq) is not positive") }
        let id = try fields.requiredString("id")
        let typeName = try fields.requiredString("type")
        guard let type = EventType(rawValue: typeName) else { throw DecodeError(reason: "unknown event type \"\(typeName)\"") }
        let recordedAt = try fields.requiredTimestamp("recordedAt")
        guard case .object(let dataObject)? = object["data"] else { throw DecodeError(reason: "member \"data\" is missing or not an object") }
        let event = try decodeEvent(type: type, data: dataObject)
        return RecordedEvent(seq: seq, id: id, recordedAt: recordedAt, event: event)
    }

    /// Decodes the `data` member of an event of type `type`.
    package static func decodeEvent(type: EventType, data: JSONObject) throws(DecodeError) -> Event {
        let fields = FieldReader(object: data, context: "data.")
        let payload: Event.Payload
        if case .bool(true)? = data["redacted"] {
            guard type == .sampleIngested || type == .sampleDeleted else {
                throw DecodeError(reason: "data.redacted on a \(type.rawValue) event; only sample events are redacted")
            }
            guard data.members.count == 2 else { throw DecodeError(reason: "a redacted event's data holds only \"id\" and \"redacted\"") }
            return Event(.redacted(RedactedEvent(sampleID: try fields.requiredString("id"), type: type)))
        }
        switch type {
        case .dataForgotten:
            guard case .array(let names)? = data["selectors"] else { throw DecodeError(reason: "member \"data.selectors\" is missing or not an array") }
            var selectors: [String] = []
            for name in names {
                guard case .string(let text) = name else { throw DecodeError(reason: "data.selectors holds a non-string") }
                selectors.append(text)
            }
            payload = .dataForgotten(ForgetRecord(selectors: selectors, samples: try fields.requiredInteger("samples"),
                                                  events: try fields.requiredInteger("events")))
        case .sampleIngested:
            let kindName = try fields.requiredString("kind")
            guard let kind = SampleKind(rawValue: kindName) else { throw DecodeError(reason: "data.kind \"\(kindName)\" is not a sample kind") }
            let reading: Sample.Reading
            switch kind {
            case .sleep:
                let stageName = try fields.requiredString("value")
                guard let stage = SleepStage(rawValue: stageName) else { throw DecodeError(reason: "data.value \"\(stageName)\" is not a sleep stage") }
                reading = .sleep(stage)
            case .workout:
                let energy = try fields.optionalNumber("energyKcal")
                let distance = try fields.optionalNumber("distanceM")
                let inputEnergy = try fields.optionalMeasurement("inputEnergy")
                let inputDistance = try fields.optionalMeasurement("inputDistance")
                reading = .workout(WorkoutSummary(
                    activityType: try fields.requiredString("activityType"),
                    energyKcal: energy, distanceMeters: distance, volumeKg: try fields.optionalNumber("volumeKg"),
                    inputEnergy: inputEnergy ?? energy.map { .init(value: $0, unit: "kcal") },
                    inputDistance: inputDistance ?? distance.map { .init(value: $0, unit: "m") }))
            default:
                let value = try fields.requiredNumber("value")
                let unit = try fields.requiredString("unit")
                let input = try fields.optionalMeasurement("input") ?? .init(value: value, unit: unit)
                reading = .quantity(Quantity(value: value, inputValue: input.value, inputUnit: input.unit))
            }
            payload = .sampleIngested(Sample(
                id: try fields.requiredString("id"), kind: kind,
                start: try fields.requiredTimestamp("start"), end: try fields.requiredTimestamp("end"),
                source: try fields.requiredString("source"), reading: reading))
        case .sampleDeleted:
            payload = .sampleDeleted(SampleDeletion(sampleID: try fields.requiredString("id"), at: try fields.requiredTimestamp("at")))
        case .refreshRequested:
            let sourceName = try fields.requiredString("source")
            guard let source = RefreshSource(rawValue: sourceName) else { throw DecodeError(reason: "data.source \"\(sourceName)\" is not a refresh source") }
            let outcomeName = try fields.requiredString("outcome")
            guard let outcome = RefreshOutcome(rawValue: outcomeName) else { throw DecodeError(reason: "data.outcome \"\(outcomeName)\" is not a refresh outcome") }
            var kind: SampleKind?
            if let kindName = try fields.optionalString("kind") {
                guard let parsed = SampleKind(rawValue: kindName) else { throw DecodeError(reason: "data.kind \"\(kindName)\" is not a sample kind") }
                kind = parsed
            }
            var reason: ThrottleReason?
            if let reasonName = try fields.optionalString("reason") {
                guard let parsed = ThrottleReason(rawValue: reasonName) else { throw DecodeError(reason: "data.reason \"\(reasonName)\" is not a throttle reason") }
                reason = parsed
            }
            payload = .refreshRequested(RefreshRecord(
                source: source, kind: kind, at: try fields.requiredTimestamp("at"), outcome: outcome, reason: reason,
                refreshSignal: try fields.requiredInteger("refreshSignal")))
        case .taskStarted, .taskCompleted, .taskFailed, .taskCancelled:
            let phase = type.taskPhase ?? .cancelled
            var requested: TaskPhase?
            if let name = try fields.optionalString("requestedPhase") {
                guard let parsed = TaskPhase(rawValue: name) else { throw DecodeError(reason: "data.requestedPhase \"\(name)\" is not a task phase") }
                requested = parsed
            }
            var reason: CancellationReason?
            if let name = try fields.optionalString("reason") {
                guard let parsed = CancellationReason(rawValue: name) else { throw DecodeError(reason: "data.reason \"\(name)\" is not a cancellation reason") }
                reason = parsed
            }
            payload = .task(TaskRecord(
                task: try fields.requiredString("task"), feature: try fields.requiredString("feature"), phase: phase,
                requestedPhase: requested, at: try fields.requiredTimestamp("at"), error: try fields.optionalString("error"),
                reason: reason, supersededBy: try fields.optionalString("supersededBy")))
        case .profileUpdated:
            payload = .profileUpdated(ProfileUpdate(
                sleepTargetMinutes: try fields.requiredNumber("sleepTargetMinutes"), at: try fields.requiredTimestamp("at")))
        }
        var extra = JSONObject()
        if let value = data["extra"] {
            guard case .object(let object) = value else { throw DecodeError(reason: "data.extra is not an object") }
            extra = object
        }
        return Event(payload, eventID: try fields.optionalString("eventID"), extra: extra)
    }
}

/// Typed access to an object's members with errors that name the member.
struct FieldReader {
    let object: JSONObject
    let context: String

    func requiredString(_ key: String) throws(EventCodec.DecodeError) -> String {
        guard let value = try optionalString(key) else { throw EventCodec.DecodeError(reason: "member \"\(context)\(key)\" is missing") }
        return value
    }

    func optionalString(_ key: String) throws(EventCodec.DecodeError) -> String? {
        guard let value = object[key] else { return nil }
        guard case .string(let string) = value else { throw EventCodec.DecodeError(reason: "member \"\(context)\(key)\" is \(value.typeDescription), expected a string") }
        return string
    }

    func requiredNumber(_ key: String) throws(EventCodec.DecodeError) -> Double {
        guard let value = try optionalNumber(key) else { throw EventCodec.DecodeError(reason: "member \"\(context)\(key)\" is missing") }
        return value
    }

    func optionalNumber(_ key: String) throws(EventCodec.DecodeError) -> Double? {
        guard let value = object[key] else { return nil }
        guard case .number(let number) = value else { throw EventCodec.DecodeError(reason: "member \"\(context)\(key)\" is \(value.typeDescription), expected a number") }
        return number
    }

    func requiredInteger(_ key: String) throws(EventCodec.DecodeError) -> Int {
        let number = try requiredNumber(key)
        guard number == number.rounded(), abs(number) < 9_007_199_254_740_992 else {
            throw EventCodec.DecodeError(reason: "member \"\(context)\(key)\" is not an integer")
        }
        return Int(number)
    }

    func requiredTimestamp(_ key: String) throws(EventCodec.DecodeError) -> Timestamp {
        let text = try requiredString(key)
        do {
            return try Timestamp(parsing: text)
        } catch {
            throw EventCodec.DecodeError(reason: "member \"\(context)\(key)\": \(error.reason)")
        }
    }

    func optionalMeasurement(_ key: String) throws(EventCodec.DecodeError) -> WorkoutSummary.Measurement? {
        guard let value = object[key] else { return nil }
        guard case .object(let inner) = value else { throw EventCodec.DecodeError(reason: "member \"\(context)\(key)\" is not an object") }
        let reader = FieldReader(object: inner, context: "\(context)\(key).")
        return WorkoutSummary.Measurement(value: try reader.requiredNumber("value"), unit: try reader.requiredString("unit"))
    }
}
