/// The fast decoder of stored lines: byte-level scanning over the read buffer.
///
/// It handles the lines ``EventCodec`` writes — the envelope members in their
/// fixed order, `data` members with plain keys, strings without escapes,
/// canonical timestamps — and decodes them straight into an
/// ``EventBatchBuilder``: a packable sample costs no allocation at all;
/// numbers and timestamps are parsed in place. Whatever it does not
/// recognise it declines (``decode(_:into:)`` returns `false` and appends
/// nothing), and the caller runs the reference decoder, ``EventCodec/decode(_:)``,
/// on that line. The scanner never rejects a line itself, so a line is
/// rejected with exactly the reference's reason; and it accepts only what
/// the reference accepts, with the same result (checked by the differential
/// tests in `FastDecoderTests`).
///
/// One decoder per thread: it owns scratch space for the `data` members.
package final class StoredLineScanner {
    private let fields: UnsafeMutablePointer<FieldSlot>

    package init() {
        fields = .allocate(capacity: FieldKey.count)
        fields.initialize(repeating: FieldSlot(), count: FieldKey.count)
    }

    deinit {
        fields.deallocate()
    }

    /// Decodes one intact stored line (CRC already checked, no `\n`) into
    /// `builder`. Returns `false`, appending nothing, when the line is not in
    /// the form this scanner handles.
    package func decode(_ line: UnsafeRawBufferPointer, into builder: inout EventBatchBuilder) -> Bool {
        guard let base = line.baseAddress, line.count > StoredLine.trailerLength else { return false }
        var cursor = Cursor(base: base, end: line.count - StoredLine.trailerLength)
        return decode(&cursor, into: &builder)
    }

    // MARK: - Envelope

    private func decode(_ c: inout Cursor, into builder: inout EventBatchBuilder) -> Bool {
        guard c.literal(Literal.versionAndSeq), let seq = c.positiveInteger(), c.literal(Literal.id) else { return false }
        let idStart = c.index
        let packedEventID = c.uuid()
        if packedEventID == nil { c.index = idStart }
        guard let id = packedEventID != nil ? Slice(start: idStart, count: 36, nonASCII: false) : c.string(),
              c.literal(Literal.type)
        else { return false }
        let type: EventType
        if c.literal(Literal.sampleIngested) {
            type = .sampleIngested
        } else {
            guard let typeSlice = c.string(), let named = Self.eventType(typeSlice, c.base) else { return false }
            type = named
        }
        guard c.literal(Literal.recordedAt), let recordedAt = c.timestamp(), c.literal(Literal.data) else { return false }
        let dataStart = c.index
        if type == .sampleIngested, let packedEventID,
           decodeCanonicalSample(&c, seq: seq, eventID: packedEventID, recordedAt: recordedAt, into: &builder) {
            return true
        }
        c.index = dataStart
        for key in 0..<FieldKey.count { fields[key].kind = .absent }
        guard c.object(into: fields), c.index == c.end else { return false }
        if type == .sampleIngested {
            return decodeSample(c, seq: seq, id: id, recordedAt: recordedAt, into: &builder)
        }
        guard let payload = decodeOther(type, c) else { return false }
        guard let eventIDText = c.text(id), let eventID = optionalString(.eventID, c) else { return false }
        builder.appendOther(RecordedEvent(seq: seq, id: eventIDText, recordedAt: recordedAt.timestamp,
                                          event: Event(payload, eventID: eventID)))
        return true
    }

    /// The `data` of a quantity or sleep sample exactly as ``EventCodec`` writes
    /// it when the sample packs: `{"end":…,"id":…,"kind":…,"source":…,"start":…,`
    /// then `"unit":…,"value":N}` or `"value":"stage"}` — no `eventID`,
    /// `input` or `extra`. Appends the packed sample and returns `true`, or
    /// returns `false` having appended nothing (the caller then scans `data`
    /// member by member).
    @inline(__always)
    private func decodeCanonicalSample(_ c: inout Cursor, seq: Int, eventID: PackedUUID, recordedAt: PackedTimestamp,
                                       into builder: inout EventBatchBuilder) -> Bool {
        guard c.literal(Literal.end), let end = c.timestamp(), c.literal(Literal.id), let sampleID = c.uuid(),
              c.literal(Literal.kind), let kindSlice = c.string(), let kind = Self.sampleKind(kindSlice, c.base),
              kind != .workout, c.literal(Literal.source), let source = c.string(), c.literal(Literal.start),
              let start = c.timestamp()
        else { return false }
        let value: Double
        if kind == .sleep {
            guard c.literal(Literal.stringValue), let stageSlice = c.string(), let stage = Self.sleepStage(stageSlice, c.base),
                  c.expect(UInt8(ascii: "}"))
            else { return false }
            value = Double(stage.packedIndex)
        } else {
            guard c.literal(Literal.unit), let unit = c.string(), Self.isCanonicalUnit(unit, of: kind, c.base),
                  c.literal(Literal.numberValue), let (number, _) = c.number(), c.expect(UInt8(ascii: "}"))
            else { return false }
            value = number
        }
        guard c.index == c.end else { return false }
        return builder.appendPackedSample(eventID: eventID, recordedAt: recordedAt, sampleEventID: nil, id: sampleID, seq: seq,
                                          kindIndex: kind.packedIndex, value: value, start: start, end: end,
                                          source: c.bytes(source))
    }

    // MARK: - Samples

    /// The keys a sample of each reading may have (anything else: decline).
    private static let quantityKeys = FieldKey.mask([.end, .id, .kind, .source, .start, .unit, .value, .input, .eventID])
    private static let sleepKeys = FieldKey.mask([.end, .id, .kind, .source, .start, .value, .eventID])
    private static let workoutKeys = FieldKey.mask([.activityType, .distanceM, .end, .energyKcal, .eventID, .id, .inputDistance,
                                                    .inputEnergy, .kind, .source, .start, .volumeKg])

    private func decodeSample(_ c: Cursor, seq: Int, id: Slice, recordedAt: PackedTimestamp,
                              into builder: inout EventBatchBuilder) -> Bool {
        let present = presentMask()
        guard let kindSlice = string(.kind), let kind = Self.sampleKind(kindSlice, c.base),
              let sampleID = string(.id), let startSlice = string(.start), let endSlice = string(.end),
              let source = string(.source),
              let start = PackedTimestamp(canonical: c.bytes(startSlice)), let end = PackedTimestamp(canonical: c.bytes(endSlice))
        else { return false }
        guard let sampleEventID = optionalString(.eventID, c) else { return false }
        let kindIndex = kind.packedIndex
        switch kind {
        case .sleep:
            guard present & ~Self.sleepKeys == 0, let stageSlice = string(.value), let stage = Self.sleepStage(stageSlice, c.base)
            else { return false }
            if let packedID = PackedUUID(utf8: c.bytes(sampleID)), let eventID = PackedUUID(utf8: c.bytes(id)),
               builder.appendPackedSample(eventID: eventID, recordedAt: recordedAt, sampleEventID: sampleEventID, id: packedID,
                                          seq: seq, kindIndex: kindIndex, value: Double(stage.packedIndex),
                                          start: start, end: end, source: c.bytes(source)) {
                return true
            }
            return appendFull(.sleep(stage), c, seq: seq, id: id, recordedAt: recordedAt, sampleEventID: sampleEventID,
                              kind: kind, sampleID: sampleID, start: start, end: end, source: source, into: &builder)
        case .workout:
            guard present & ~Self.workoutKeys == 0, let activityType = string(.activityType), let activity = c.text(activityType)
            else { return false }
            guard let energy = optionalNumber(.energyKcal), let distance = optionalNumber(.distanceM),
                  let volume = optionalNumber(.volumeKg), let inputEnergy = optionalMeasurement(.inputEnergy, c),
                  let inputDistance = optionalMeasurement(.inputDistance, c)
            else { return false }
            let summary = WorkoutSummary(
                activityType: activity, energyKcal: energy.value, distanceMeters: distance.value, volumeKg: volume.value,
                inputEnergy: inputEnergy.value ?? energy.value.map { .init(value: $0, unit: "kcal") },
                inputDistance: inputDistance.value ?? distance.value.map { .init(value: $0, unit: "m") })
            return appendFull(.workout(summary), c, seq: seq, id: id, recordedAt: recordedAt, sampleEventID: sampleEventID,
                              kind: kind, sampleID: sampleID, start: start, end: end, source: source, into: &builder)
        default:
            guard present & ~Self.quantityKeys == 0, let value = number(.value), let unit = string(.unit),
                  let input = optionalMeasurement(.input, c)
            else { return false }
            if input.value == nil, Self.isCanonicalUnit(unit, of: kind, c.base),
               let packedID = PackedUUID(utf8: c.bytes(sampleID)), let eventID = PackedUUID(utf8: c.bytes(id)),
               builder.appendPackedSample(eventID: eventID, recordedAt: recordedAt, sampleEventID: sampleEventID, id: packedID,
                                          seq: seq, kindIndex: kindIndex, value: value, start: start, end: end,
                                          source: c.bytes(source)) {
                return true
            }
            guard let unitText = c.text(unit) else { return false }
            let measured = input.value ?? WorkoutSummary.Measurement(value: value, unit: unitText)
            return appendFull(.quantity(Quantity(value: value, inputValue: measured.value, inputUnit: measured.unit)), c,
                              seq: seq, id: id, recordedAt: recordedAt, sampleEventID: sampleEventID,
                              kind: kind, sampleID: sampleID, start: start, end: end, source: source, into: &builder)
        }
    }

    /// Appends a sample that does not pack, through the general path.
    private func appendFull(_ reading: Sample.Reading, _ c: Cursor, seq: Int, id: Slice, recordedAt: PackedTimestamp,
                            sampleEventID: String?, kind: SampleKind, sampleID: Slice, start: PackedTimestamp,
                            end: PackedTimestamp, source: Slice, into builder: inout EventBatchBuilder) -> Bool {
        guard let eventIDText = c.text(id), let sampleIDText = c.text(sampleID), let sourceText = c.text(source) else { return false }
        let sample = Sample(id: sampleIDText, kind: kind, start: start.timestamp, end: end.timestamp, source: sourceText, reading: reading)
        builder.append(RecordedEvent(seq: seq, id: eventIDText, recordedAt: recordedAt.timestamp,
                                     event: Event(.sampleIngested(sample), eventID: sampleEventID)))
        return true
    }

    // MARK: - Other events

    private static let deletionKeys = FieldKey.mask([.id, .at, .eventID])
    private static let refreshKeys = FieldKey.mask([.source, .kind, .at, .outcome, .reason, .refreshSignal, .eventID])
    private static let taskKeys = FieldKey.mask([.task, .feature, .at, .error, .reason, .requestedPhase, .supersededBy, .eventID])
    private static let profileKeys = FieldKey.mask([.sleepTargetMinutes, .at, .eventID])

    private func decodeOther(_ type: EventType, _ c: Cursor) -> Event.Payload? {
        let present = presentMask()
        guard let atSlice = string(.at), let at = PackedTimestamp(canonical: c.bytes(atSlice))?.timestamp else { return nil }
        switch type {
        case .sampleIngested, .dataForgotten:
            return nil  // redacted lines and forget records go to the reference decoder
        case .sampleDeleted:
            guard present & ~Self.deletionKeys == 0, let id = string(.id), let text = c.text(id) else { return nil }
            return .sampleDeleted(SampleDeletion(sampleID: text, at: at))
        case .refreshRequested:
            guard present & ~Self.refreshKeys == 0,
                  let source = enumeration(.source, RefreshSource.self, c), let outcome = enumeration(.outcome, RefreshOutcome.self, c),
                  let kind = optionalEnumeration(.kind, SampleKind.self, c), let reason = optionalEnumeration(.reason, ThrottleReason.self, c),
                  let signal = integer(.refreshSignal)
            else { return nil }
            return .refreshRequested(RefreshRecord(source: source, kind: kind.value, at: at, outcome: outcome, reason: reason.value,
                                                   refreshSignal: signal))
        case .taskStarted, .taskCompleted, .taskFailed, .taskCancelled:
            let phase: TaskPhase = switch type {
            case .taskStarted: .started
            case .taskCompleted: .completed
            case .taskFailed: .failed
            default: .cancelled
            }
            guard present & ~Self.taskKeys == 0,
                  let requested = optionalEnumeration(.requestedPhase, TaskPhase.self, c),
                  let reason = optionalEnumeration(.reason, CancellationReason.self, c),
                  let task = string(.task), let taskText = c.text(task), let feature = string(.feature), let featureText = c.text(feature),
                  let error = optionalString(.error, c), let successor = optionalString(.supersededBy, c)
            else { return nil }
            return .task(TaskRecord(task: taskText, feature: featureText, phase: phase, requestedPhase: requested.value, at: at,
                                    error: error, reason: reason.value, supersededBy: successor))
        case .profileUpdated:
            guard present & ~Self.profileKeys == 0, let minutes = number(.sleepTargetMinutes) else { return nil }
            return .profileUpdated(ProfileUpdate(sleepTargetMinutes: minutes, at: at))
        }
    }

    // MARK: - Field access

    private func presentMask() -> UInt32 {
        var mask: UInt32 = 0
        for key in 0..<FieldKey.count where fields[key].kind != .absent { mask |= 1 << UInt32(key) }
        return mask
    }

    @inline(__always)
    private func string(_ key: FieldKey) -> Slice? {
        let slot = fields[key.rawValue]
        guard slot.kind == .string else { return nil }
        return slot.slice
    }

    /// An optional member: `Optional(nil)` when absent, `nil` when present but not a (valid) string.
    private func optionalString(_ key: FieldKey, _ c: Cursor) -> Optional<String?> {
        let slot = fields[key.rawValue]
        if slot.kind == .absent { return .some(nil) }
        guard slot.kind == .string, let text = c.text(slot.slice) else { return nil }
        return .some(text)
    }

    @inline(__always)
    private func number(_ key: FieldKey) -> Double? {
        let slot = fields[key.rawValue]
        guard slot.kind == .number else { return nil }
        return slot.number
    }

    private func optionalNumber(_ key: FieldKey) -> Present<Double>? {
        let slot = fields[key.rawValue]
        if slot.kind == .absent { return Present(value: nil) }
        guard slot.kind == .number else { return nil }
        return Present(value: slot.number)
    }

    /// A number written as plain digits, as `requiredInteger` reads it.
    private func integer(_ key: FieldKey) -> Int? {
        let slot = fields[key.rawValue]
        guard slot.kind == .number, slot.isPlainInteger else { return nil }
        return Int(slot.number)
    }

    private func optionalMeasurement(_ key: FieldKey, _ c: Cursor) -> Present<WorkoutSummary.Measurement>? {
        let slot = fields[key.rawValue]
        if slot.kind == .absent { return Present(value: nil) }
        guard slot.kind == .measurement, let unit = c.text(slot.slice) else { return nil }
        return Present(value: WorkoutSummary.Measurement(value: slot.number, unit: unit))
    }

    private func enumeration<T: RawRepresentable>(_ key: FieldKey, _ type: T.Type, _ c: Cursor) -> T? where T.RawValue == String {
        guard let slice = string(key), let text = c.text(slice) else { return nil }
        return T(rawValue: text)
    }

    private func optionalEnumeration<T: RawRepresentable>(_ key: FieldKey, _ type: T.Type, _ c: Cursor) -> Present<T>?
    where T.RawValue == String {
        if fields[key.rawValue].kind == .absent { return Present(value: nil) }
        guard let value = enumeration(key, type, c) else { return nil }
        return Present(value: value)
    }

    // MARK: - Names

    private static func eventType(_ slice: Slice, _ base: UnsafeRawPointer) -> EventType? {
        let bytes = UnsafeRawBufferPointer(start: base + slice.start, count: slice.count)
        switch slice.count {
        case 15: return matches(bytes, "sample.ingested") ? .sampleIngested : (matches(bytes, "profile.updated") ? .profileUpdated : nil)
        case 14: return matches(bytes, "sample.deleted") ? .sampleDeleted : (matches(bytes, "task.completed") ? .taskCompleted : (matches(bytes, "task.cancelled") ? .taskCancelled : nil))
        case 17: return matches(bytes, "refresh.requested") ? .refreshRequested : nil
        case 12: return matches(bytes, "task.started") ? .taskStarted : nil
        case 11: return matches(bytes, "task.failed") ? .taskFailed : nil
        default: return nil
        }
    }

    static func sampleKind(_ slice: Slice, _ base: UnsafeRawPointer) -> SampleKind? {
        let bytes = UnsafeRawBufferPointer(start: base + slice.start, count: slice.count)
        switch slice.count {
        case 9: return matches(bytes, "stepCount") ? .stepCount : nil
        case 3: return matches(bytes, "hrv") ? .hrv : nil
        case 5: return matches(bytes, "sleep") ? .sleep : nil
        case 16: return matches(bytes, "restingHeartRate") ? .restingHeartRate : nil
        case 8: return matches(bytes, "bodyMass") ? .bodyMass : nil
        case 17: return matches(bytes, "bodyFatPercentage") ? .bodyFatPercentage : nil
        case 13: return matches(bytes, "bodyMassIndex") ? .bodyMassIndex : nil
        case 7: return matches(bytes, "workout") ? .workout : nil
        default: return nil
        }
    }

    static func sleepStage(_ slice: Slice, _ base: UnsafeRawPointer) -> SleepStage? {
        let bytes = UnsafeRawBufferPointer(start: base + slice.start, count: slice.count)
        for stage in SleepStage.allCases where matches(bytes, stage.staticName) { return stage }
        return nil
    }

    private static func isCanonicalUnit(_ slice: Slice, of kind: SampleKind, _ base: UnsafeRawPointer) -> Bool {
        let bytes = UnsafeRawBufferPointer(start: base + slice.start, count: slice.count)
        switch kind {
        case .hrv: return matches(bytes, "ms")
        case .restingHeartRate: return matches(bytes, "count/min")
        case .stepCount: return matches(bytes, "count")
        case .bodyMass: return matches(bytes, "kg")
        case .bodyFatPercentage: return matches(bytes, "percent")
        case .bodyMassIndex: return matches(bytes, "kg/m2")
        case .sleep, .workout: return false
        }
    }

    @inline(__always)
    static func matches(_ bytes: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        let count = name.utf8CodeUnitCount
        guard bytes.count == count, let base = bytes.baseAddress else { return false }
        return ByteComparison.equal(base, name.utf8Start, count: count)
    }
}

extension SleepStage {
    /// The raw value as a `StaticString`, for byte comparisons.
    fileprivate var staticName: StaticString {
        switch self {
        case .inBed: "inBed"
        case .asleepUnspecified: "asleepUnspecified"
        case .asleepCore: "asleepCore"
        case .asleepDeep: "asleepDeep"
        case .asleepREM: "asleepREM"
        case .awake: "awake"
        }
    }
}

// MARK: - Scanning

/// An optional member that is well-formed: its value, or `nil` when absent.
struct Present<Value> {
    var value: Value?
}

/// Up to 16 bytes to match, as two little-endian words and masks.
struct Literal: Equatable {
    let first: UInt64
    let second: UInt64
    let firstMask: UInt64
    let secondMask: UInt64
    let count: Int

    // The literals are written out as numbers so that they are static data,
    // not lazily initialised globals; `FastDecoderTests` checks each against
    // its text with `init(_:)`.

    init(first: UInt64, second: UInt64, firstMask: UInt64, secondMask: UInt64, count: Int) {
        self.first = first
        self.second = second
        self.firstMask = firstMask
        self.secondMask = secondMask
        self.count = count
    }

    /// The literal `text` (at most 16 bytes).
    init(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        precondition(count <= 16, "a Literal is at most 16 bytes")
        var words: [UInt64] = [0, 0]
        for offset in 0..<count { words[offset / 8] |= UInt64(text.utf8Start[offset]) << UInt64(8 * (offset % 8)) }
        first = words[0]
        second = words[1]
        firstMask = count >= 8 ? ~0 : (1 << UInt64(8 * count)) - 1
        secondMask = count >= 16 ? ~0 : (count <= 8 ? 0 : (1 << UInt64(8 * (count - 8))) - 1)
        self.count = count
    }

    /// `{"v":1,"seq":`
    static let versionAndSeq = Literal(first: 0x222C_313A_2276_227B, second: 0x0000_003A_2271_6573, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_00FF_FFFF_FFFF, count: 13)
    /// `,"id":"`
    static let id = Literal(first: 0x0022_3A22_6469_222C, second: 0x0000_0000_0000_0000, firstMask: 0x00FF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 7)
    /// `,"type":"`
    static let type = Literal(first: 0x3A22_6570_7974_222C, second: 0x0000_0000_0000_0022, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_00FF, count: 9)
    /// `sample.ingested"`
    static let sampleIngested = Literal(first: 0x692E_656C_706D_6173, second: 0x2264_6574_7365_676E, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0xFFFF_FFFF_FFFF_FFFF, count: 16)
    /// `,"recordedAt":"`
    static let recordedAt = Literal(first: 0x6472_6F63_6572_222C, second: 0x0022_3A22_7441_6465, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x00FF_FFFF_FFFF_FFFF, count: 15)
    /// `,"data":`
    static let data = Literal(first: 0x3A22_6174_6164_222C, second: 0x0000_0000_0000_0000, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 8)
    /// `{"end":"`
    static let end = Literal(first: 0x223A_2264_6E65_227B, second: 0x0000_0000_0000_0000, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 8)
    /// `,"kind":"`
    static let kind = Literal(first: 0x3A22_646E_696B_222C, second: 0x0000_0000_0000_0022, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_00FF, count: 9)
    /// `,"source":"`
    static let source = Literal(first: 0x6563_7275_6F73_222C, second: 0x0000_0000_0022_3A22, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_00FF_FFFF, count: 11)
    /// `,"start":"`
    static let start = Literal(first: 0x2274_7261_7473_222C, second: 0x0000_0000_0000_223A, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_FFFF, count: 10)
    /// `,"unit":"`
    static let unit = Literal(first: 0x3A22_7469_6E75_222C, second: 0x0000_0000_0000_0022, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_00FF, count: 9)
    /// `,"value":"`
    static let stringValue = Literal(first: 0x2265_756C_6176_222C, second: 0x0000_0000_0000_223A, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_FFFF, count: 10)
    /// `,"value":`
    static let numberValue = Literal(first: 0x2265_756C_6176_222C, second: 0x0000_0000_0000_003A, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_00FF, count: 9)
    /// `"unit":"`
    static let unitMember = Literal(first: 0x223A_2274_696E_7522, second: 0x0000_0000_0000_0000, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 8)
    /// `"value":`
    static let valueMember = Literal(first: 0x3A22_6575_6C61_7622, second: 0x0000_0000_0000_0000, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 8)
}

/// A run of bytes in the line: offset and length.
struct Slice {
    var start: Int
    var count: Int
    /// Whether any byte is 0x80 or above (the text must be validated as UTF-8).
    var nonASCII: Bool
}

/// The `data` members the scanner knows.
enum FieldKey: Int, CaseIterable {
    case activityType, distanceM, end, energyKcal, eventID, id, input, inputDistance, inputEnergy, kind, source, start, unit
    case value, volumeKg, at, outcome, reason, refreshSignal, error, feature, requestedPhase, supersededBy, task
    case sleepTargetMinutes

    static let count = allCases.count

    static func mask(_ keys: [FieldKey]) -> UInt32 {
        keys.reduce(0) { $0 | 1 << UInt32($1.rawValue) }
    }

    /// The key spelled by `bytes`, if known.
    static func named(_ bytes: UnsafeRawBufferPointer) -> FieldKey? {
        typealias S = StoredLineScanner
        switch bytes.count {
        case 2: return S.matches(bytes, "id") ? .id : (S.matches(bytes, "at") ? .at : nil)
        case 3: return S.matches(bytes, "end") ? .end : nil
        case 4: return S.matches(bytes, "kind") ? .kind : (S.matches(bytes, "unit") ? .unit : (S.matches(bytes, "task") ? .task : nil))
        case 5:
            if S.matches(bytes, "start") { return .start }
            if S.matches(bytes, "value") { return .value }
            if S.matches(bytes, "input") { return .input }
            return S.matches(bytes, "error") ? .error : nil
        case 6: return S.matches(bytes, "source") ? .source : (S.matches(bytes, "reason") ? .reason : nil)
        case 7:
            if S.matches(bytes, "eventID") { return .eventID }
            if S.matches(bytes, "outcome") { return .outcome }
            return S.matches(bytes, "feature") ? .feature : nil
        case 8: return S.matches(bytes, "volumeKg") ? .volumeKg : nil
        case 9: return S.matches(bytes, "distanceM") ? .distanceM : nil
        case 10: return S.matches(bytes, "energyKcal") ? .energyKcal : nil
        case 11: return S.matches(bytes, "inputEnergy") ? .inputEnergy : nil
        case 12: return S.matches(bytes, "activityType") ? .activityType : (S.matches(bytes, "supersededBy") ? .supersededBy : nil)
        case 13: return S.matches(bytes, "inputDistance") ? .inputDistance : (S.matches(bytes, "refreshSignal") ? .refreshSignal : nil)
        case 14: return S.matches(bytes, "requestedPhase") ? .requestedPhase : nil
        case 18: return S.matches(bytes, "sleepTargetMinutes") ? .sleepTargetMinutes : nil
        default: return nil
        }
    }
}

/// One `data` member's value, as scanned.
struct FieldSlot {
    enum Kind: UInt8 { case absent, string, number, measurement }
    var kind: Kind = .absent
    /// A string's bytes; a measurement's unit.
    var slice = Slice(start: 0, count: 0, nonASCII: false)
    /// A number; a measurement's value.
    var number = 0.0
    /// The number was written as digits only (no sign, fraction or exponent), at most 15 of them.
    var isPlainInteger = false
}

/// A position in the line, with the scanning primitives.
struct Cursor {
    let base: UnsafeRawPointer
    /// Where the `data` object must end: the start of the CRC trailer.
    let end: Int
    var index = 0

    init(base: UnsafeRawPointer, end: Int) {
        self.base = base
        self.end = end
    }

    @inline(__always)
    func byte(_ at: Int) -> UInt8 { base.load(fromByteOffset: at, as: UInt8.self) }

    @inline(__always)
    func bytes(_ slice: Slice) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base + slice.start, count: slice.count) }

    /// The slice as a `String`; `nil` when it is not valid UTF-8.
    func text(_ slice: Slice) -> String? {
        let bytes = self.bytes(slice)
        if !slice.nonASCII { return String(decoding: bytes, as: UTF8.self) }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Consumes `literal` if the bytes at the cursor spell it.
    ///
    /// Compares two 8-byte words under a mask: reading 16 bytes at the cursor
    /// stays inside the line, which has the 18-byte CRC trailer after `end`.
    @inline(__always)
    mutating func literal(_ literal: Literal) -> Bool {
        guard index + literal.count <= end else { return false }
        let one = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index, as: UInt64.self))
        let two = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
        guard (one ^ literal.first) & literal.firstMask == 0, (two ^ literal.second) & literal.secondMask == 0 else { return false }
        index += literal.count
        return true
    }

    /// Consumes `expected` if it is the byte at the cursor.
    @inline(__always)
    mutating func expect(_ expected: UInt8) -> Bool {
        guard index < end, byte(index) == expected else { return false }
        index += 1
        return true
    }

    /// A canonical UUID string's 36 characters and closing quote (the opening
    /// quote consumed); the cursor ends after the quote. `nil` (cursor
    /// undefined) for anything else.
    @inline(__always)
    mutating func uuid() -> PackedUUID? {
        guard index + 36 < end, byte(index + 36) == UInt8(ascii: "\""),
              let packed = PackedUUID(utf8: UnsafeRawBufferPointer(start: base + index, count: 36))
        else { return nil }
        index += 37
        return packed
    }

    /// A canonical timestamp string and its closing quote (the opening quote
    /// consumed); the cursor ends after the quote. `nil` for anything else.
    @inline(__always)
    mutating func timestamp() -> PackedTimestamp? {
        // The canonical lengths: …SS+HH:MM, …SSZ, …SS.mmmZ, …SS.mmm+HH:MM.
        if let packed = timestamp(length: 25) { return packed }
        if let packed = timestamp(length: 20) { return packed }
        if let packed = timestamp(length: 24) { return packed }
        return timestamp(length: 29)
    }

    @inline(__always)
    private mutating func timestamp(length: Int) -> PackedTimestamp? {
        guard index + length < end, byte(index + length) == UInt8(ascii: "\""),
              let packed = PackedTimestamp(canonical: UnsafeRawBufferPointer(start: base + index, count: length))
        else { return nil }
        index += length + 1
        return packed
    }

    /// `1`–`999999999999999`: digits without a leading zero.
    @inline(__always)
    mutating func positiveInteger() -> Int? {
        var value = 0
        var digits = 0
        while index < end {
            let digit = byte(index) &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if digits == 0 && digit == 0 { return nil }
            value = value &* 10 &+ Int(digit)
            digits += 1
            index += 1
        }
        guard digits > 0, digits <= 15 else { return nil }
        return value
    }

    /// A string's contents after its opening quote has been consumed; the
    /// cursor ends after the closing quote. `nil` for an escape or a control byte.
    @inline(__always)
    mutating func string() -> Slice? {
        let start = index
        var high: UInt8 = 0
        while index < end {
            let byte = self.byte(index)
            if byte == UInt8(ascii: "\"") {
                index += 1
                return Slice(start: start, count: index - 1 - start, nonASCII: high >= 0x80)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
            high |= byte
            index += 1
        }
        return nil
    }

    /// A JSON number; the cursor ends after it.
    mutating func number() -> (value: Double, plainInteger: Bool)? {
        let start = index
        var negative = false
        if index < end, byte(index) == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var exponent = 0
        var integerDigits = 0
        guard index < end else { return nil }
        if byte(index) == UInt8(ascii: "0") {
            index += 1
            integerDigits = 1
            if index < end, byte(index) &- UInt8(ascii: "0") < 10 { return nil }  // leading zero: decline
        } else {
            while index < end {
                let digit = byte(index) &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    if mantissa != 0 { significant += 1 }
                } else {
                    exponent += 1
                    significant += 1
                }
                integerDigits += 1
                index += 1
            }
            guard integerDigits > 0 else { return nil }
        }
        var fraction = false
        if index < end, byte(index) == UInt8(ascii: ".") {
            fraction = true
            index += 1
            var fractionDigits = 0
            while index < end {
                let digit = byte(index) &- UInt8(ascii: "0")
                guard digit < 10 else { break }
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                    if mantissa != 0 { significant += 1 }
                    exponent -= 1
                } else {
                    significant += 1
                }
                fractionDigits += 1
                index += 1
            }
            guard fractionDigits > 0 else { return nil }
        }
        var hasExponent = false
        if index < end, byte(index) == UInt8(ascii: "e") || byte(index) == UInt8(ascii: "E") {
            hasExponent = true
            index += 1
            if index < end, byte(index) == UInt8(ascii: "+") || byte(index) == UInt8(ascii: "-") { index += 1 }
            var exponentDigits = 0
            while index < end, byte(index) &- UInt8(ascii: "0") < 10 {
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { return nil }
        }
        guard index - start <= 64 else { return nil }
        let plainInteger = !negative && !fraction && !hasExponent && integerDigits <= 15
        if !hasExponent, significant <= 19, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            var value = Double(mantissa)
            if exponent < 0 {
                value /= Self.powersOfTen[-exponent]
            } else if exponent > 0 {
                value *= Self.powersOfTen[exponent]
            }
            return (negative ? -value : value, plainInteger)
        }
        // Not exactly computable here: let the standard library round it, as the reference parser does.
        let text = String(decoding: UnsafeRawBufferPointer(start: base + start, count: index - start), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { return nil }
        return (value, plainInteger)
    }

    /// 10⁰…10²², all exact in a `Double`.
    static let powersOfTen: [Double] = (0...22).map { power in
        var value = 1.0
        for _ in 0..<power { value *= 10 }
        return value
    }

    /// A `data` object's members into `fields` (the opening brace at the cursor).
    ///
    /// Declines unknown or repeated keys, `extra`, and values other than
    /// strings, numbers and `{"unit":…,"value":…}` measurements.
    mutating func object(into fields: UnsafeMutablePointer<FieldSlot>) -> Bool {
        guard expect(UInt8(ascii: "{")) else { return false }
        if expect(UInt8(ascii: "}")) { return true }
        while true {
            guard expect(UInt8(ascii: "\"")), let keySlice = string(), !keySlice.nonASCII, let key = FieldKey.named(bytes(keySlice)),
                  fields[key.rawValue].kind == .absent, expect(UInt8(ascii: ":")), index < end
            else { return false }
            let first = byte(index)
            if first == UInt8(ascii: "\"") {
                index += 1
                guard let slice = string() else { return false }
                fields[key.rawValue] = FieldSlot(kind: .string, slice: slice)
            } else if first == UInt8(ascii: "{") {
                guard key == .input || key == .inputEnergy || key == .inputDistance, let slot = measurement() else { return false }
                fields[key.rawValue] = slot
            } else {
                guard let (value, plain) = number() else { return false }
                fields[key.rawValue] = FieldSlot(kind: .number, number: value, isPlainInteger: plain)
            }
            if expect(UInt8(ascii: ",")) { continue }
            return expect(UInt8(ascii: "}"))
        }
    }

    /// `{"unit":"…","value":N}` with the members in either order.
    private mutating func measurement() -> FieldSlot? {
        var unit: Slice?
        var value: Double?
        guard expect(UInt8(ascii: "{")) else { return nil }
        for position in 0..<2 {
            if literal(Literal.unitMember), unit == nil, let slice = string() {
                unit = slice
            } else if literal(Literal.valueMember), value == nil, let (number, _) = number() {
                value = number
            } else {
                return nil
            }
            guard expect(position == 0 ? UInt8(ascii: ",") : UInt8(ascii: "}")) else { return nil }
        }
        guard let unit, let value else { return nil }
        return FieldSlot(kind: .measurement, slice: unit, number: value)
    }
}

