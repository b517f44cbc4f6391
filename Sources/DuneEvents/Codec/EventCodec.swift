/// Encodes events into stored log lines and decodes them back (docs/log-format.md).
///
/// A stored line is
/// `{"v":V,"seq":N,"id":"…","type":"…","recordedAt":"…","data":{…},"crc":"xxxxxxxx"}`
/// with the envelope members in that fixed order and `data` in canonical
/// form (sorted keys), written by ``appendLine(_:to:)``. `V` is the version of
/// the type's `data` shape (``EventVersions``); a line of an older version is
/// decoded through ``Upcasting``.
package enum EventCodec {
    /// Why a stored line could not be decoded.
    package struct DecodeError: Error, Sendable, Equatable {
        package var reason: String
        /// Set when the line is well formed but of a newer version than this build reads.
        package var newer: NewerVersion?

        package init(reason: String, newer: NewerVersion? = nil) {
            self.reason = reason
            self.newer = newer
        }

        /// The error of a line whose version is newer than this build reads.
        package init(newer: NewerVersion) {
            self.init(reason: newer.reason, newer: newer)
        }
    }

    // MARK: - Decoding

    /// Decodes one stored line (without its `\n`). The CRC is not checked here;
    /// see ``StoredLine/isIntact(_:)``.
    ///
    /// - Throws: ``DecodeError`` naming the member that is missing or wrong.
    package static func decode(_ line: ByteView) throws(DecodeError) -> RecordedEvent {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw DecodeError(reason: "not valid JSON: \(error.reason) at column \(error.column)")
        }
        guard case .object(let object) = value else { throw DecodeError(reason: "the line is not a JSON object") }
        return try decode(object)
    }

    /// Decodes one stored line given as any collection of bytes (in place when
    /// its storage is contiguous); see ``decode(_:)-(ByteView)``.
    package static func decode(_ line: some Collection<UInt8>) throws(DecodeError) -> RecordedEvent {
        try ByteView.with(contentsOf: line) { view in
            Result { () throws(DecodeError) in try decode(view) }
        }.get()
    }

    /// Decodes a stored line already parsed into an object.
    package static func decode(_ object: JSONObject) throws(DecodeError) -> RecordedEvent {
        let fields = FieldReader(object: object, context: "")
        let version = try fields.requiredInteger("v")
        guard version >= 1 else { throw DecodeError(reason: "member \"v\" is \(version); versions start at 1") }
        let seq = try fields.requiredInteger("seq")
        guard seq >= 1 else { throw DecodeError(reason: "seq \(seq) is not positive") }
        let id = try fields.requiredString("id")
        let typeName = try fields.requiredString("type")
        guard let type = EventType(rawValue: typeName) else { throw DecodeError(reason: "unknown event type \"\(typeName)\"") }
        guard version <= EventVersions.current(type) else { throw DecodeError(newer: NewerVersion(type: type, version: version, seq: seq)) }
        let recordedAt = try fields.requiredTimestamp("recordedAt")
        guard case .object(let dataObject)? = object["data"] else { throw DecodeError(reason: "member \"data\" is missing or not an object") }
        let event = try decodeEvent(type: type, version: version, data: dataObject)
        return RecordedEvent(seq: seq, id: id, recordedAt: recordedAt, event: event, storedVersion: version)
    }

    /// Decodes the `data` member of an event of type `type` stored at
    /// `version` (at most the type's current version): a redacted `data` as
    /// it is, any other through ``Upcasting`` into the current shape.
    package static func decodeEvent(type: EventType, version: Int, data stored: JSONObject) throws(DecodeError) -> Event {
        if case .bool(true)? = stored["redacted"] {
            let fields = FieldReader(object: stored, context: "data.")
            guard type == .sampleIngested || type == .sampleDeleted else {
                throw DecodeError(reason: "data.redacted on a \(type.rawValue) event; only sample events are redacted")
            }
            guard stored.members.count == 2 else { throw DecodeError(reason: "a redacted event's data holds only \"id\" and \"redacted\"") }
            return Event(.redacted(RedactedEvent(sampleID: try fields.requiredString("id"), type: type)))
        }
        var upcast = UpcastJSONData(object: stored)
        Upcasting.upcast(&upcast, type: type, from: version)
        let data = upcast.object
        let fields = FieldReader(object: data, context: "data.")
        let payload: Event.Payload
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
        case .syncAnchored:
            let typeName = try fields.requiredString("sampleType")
            guard let sampleType = SampleKind(rawValue: typeName) else {
                throw DecodeError(reason: "data.sampleType \"\(typeName)\" is not a sample kind")
            }
            var rejected: [String: Int] = [:]
            if let value = data["rejected"] {
                guard case .object(let counts) = value else { throw DecodeError(reason: "data.rejected is not an object") }
                let reader = FieldReader(object: counts, context: "data.rejected.")
                for member in counts.members { rejected[member.key] = try reader.requiredInteger(member.key) }
            }
            var earliest: Timestamp?
            if data["earliestStart"] != nil { earliest = try fields.requiredTimestamp("earliestStart") }
            payload = .syncAnchored(SyncAnchorRecord(
                sampleType: sampleType, anchor: try fields.requiredString("anchor"), added: try fields.requiredInteger("added"),
                deleted: try fields.requiredInteger("deleted"), rejected: rejected, earliestStart: earliest))
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
            let id = try fields.requiredString("id")
            let start = try fields.requiredTimestamp("start"), end = try fields.requiredTimestamp("end")
            let source = try fields.requiredString("source")
            var measure: HRVMeasure?
            if let name = try fields.optionalString("measure") {
                guard kind == .hrv else { throw DecodeError(reason: "data.measure on a \(kind.rawValue) sample; only hrv samples have a measure") }
                guard let parsed = HRVMeasure(rawValue: name) else { throw DecodeError(reason: "data.measure \"\(name)\" is not an HRV measure (sdnn, rmssd)") }
                measure = parsed
            } else if kind == .hrv {
                throw DecodeError(reason: "member \"data.measure\" is missing; an hrv sample stores its measure")
            }
            payload = .sampleIngested(Sample(id: id, kind: kind, start: start, end: end, source: source, reading: reading,
                                             hrvMeasure: measure))
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

/// The reference decoder's view of `data` for ``Upcasting``: the parsed object.
struct UpcastJSONData: UpcastableData {
    var object: JSONObject

    mutating func deriveHRVMeasureFromSource() {
        if object["kind"] == .string(SampleKind.hrv.rawValue), case .string(let source)? = object["source"] {
            object["measure"] = .string(HRVMeasure(source: source).rawValue)
        } else if object["measure"] != nil {
            object["measure"] = nil
        }
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
