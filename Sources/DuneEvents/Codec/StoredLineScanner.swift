/// The fast decoder of stored lines: byte-level scanning over the read buffer.
///
/// It handles the lines ``EventCodec`` writes, of every version this build
/// reads (an older `sample.ingested` goes through ``Upcasting`` like the
/// reference's; a newer version is declined, for the reference to refuse)
/// — the envelope members in their
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
/// One decoder per thread: it owns scratch space for the `data` members —
/// `FieldKey.count` slots allocated and initialized in `init`, freed in
/// `deinit`, indexed only by a `FieldKey`'s raw value (below the count). The
/// line it scans is a ``ByteView``, valid for the call; it reads it through a
/// ``Cursor`` (see the cursor's bounds).
@usableFromInline package final class StoredLineScanner {
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
    package func decode(_ line: ByteView, into builder: inout EventBatchBuilder) -> Bool {
        guard let base = line.buffer.baseAddress, line.count > StoredLine.trailerLength else { return false }
        var cursor = Cursor(base: base, end: line.count - StoredLine.trailerLength)
        return decode(&cursor, into: &builder)
    }

    // MARK: - Envelope

    private func decode(_ c: inout Cursor, into builder: inout EventBatchBuilder) -> Bool {
        guard c.literal(Literal.version), let version = Self.version(&c), c.literal(Literal.seq), let seq = c.positiveInteger(),
              c.literal(Literal.id)
        else { return false }
        let idStart = c.index
        let packedEventID = c.uuid()
        if packedEventID == nil { c.index = idStart }
        guard let id = packedEventID != nil ? LineSlice(start: idStart, count: 36, nonASCII: false) : c.string(),
              c.literal(Literal.type)
        else { return false }
        let type: EventType
        if c.literal(Literal.sampleIngested) {
            type = .sampleIngested
        } else {
            guard let typeSlice = c.string(), let named = Self.eventType(typeSlice, c.base) else { return false }
            type = named
        }
        // A newer version than this build reads: the reference refuses it, naming it.
        guard version <= EventVersions.current(type),
              c.literal(Literal.recordedAt), let recordedAt = c.timestamp(), c.literal(Literal.data)
        else { return false }
        let dataStart = c.index
        if type == .sampleIngested, let packedEventID,
           decodeCanonicalSample(&c, version: version, seq: seq, eventID: packedEventID, recordedAt: recordedAt, into: &builder) {
            return true
        }
        c.index = dataStart
        for key in 0..<FieldKey.count { fields[key].kind = .absent }
        guard c.object(into: fields), c.index == c.end else { return false }
        if type == .sampleIngested {
            return decodeSample(c, version: version, seq: seq, id: id, recordedAt: recordedAt, into: &builder)
        }
        guard let payload = decodeOther(type, c) else { return false }
        guard let eventIDText = c.text(id), let eventID = optionalString(.eventID, c) else { return false }
        builder.appendOther(RecordedEvent(seq: seq, id: eventIDText, recordedAt: recordedAt.timestamp,
                                          event: Event(payload, eventID: eventID), storedVersion: version))
        return true
    }

    /// The envelope's `v`: one digit and the comma after it in the common case,
    /// else a positive integer (the cursor ends before the comma).
    @inline(__always)
    private static func version(_ c: inout Cursor) -> Int? {
        if c.index + 1 < c.end, c.byte(c.index + 1) == UInt8(ascii: ",") {
            let digit = c.byte(c.index) &- UInt8(ascii: "0")
            guard digit >= 1, digit < 10 else { return nil }
            c.index += 1
            return Int(digit)
        }
        return c.positiveInteger()
    }

    /// The `data` of a quantity or sleep sample exactly as ``EventCodec`` writes
    /// it when the sample packs: `{"end":…,"id":…,"kind":…,` then (an hrv
    /// sample of v2 on) `"measure":…,`, then `"source":…,"start":…,` and
    /// `"unit":…,"value":N}` or `"value":"stage"}` — no `eventID`, `input` or
    /// `extra`. Appends the packed sample and returns `true`, or returns
    /// `false` having appended nothing (the caller then scans `data` member by
    /// member).
    @inline(__always)
    private func decodeCanonicalSample(_ c: inout Cursor, version: Int, seq: Int, eventID: PackedUUID, recordedAt: PackedTimestamp,
                                       into builder: inout EventBatchBuilder) -> Bool {
        guard c.literal(Literal.end), let end = c.timestamp(), c.literal(Literal.id), let sampleID = c.uuid(),
              c.literal(Literal.kind), let kindSlice = c.string(), let kind = Self.sampleKind(kindSlice, c.base),
              kind != .workout
        else { return false }
        var measure = ScannedMeasure(kind: kind)
        if c.literal(Literal.measure) {
            guard let slice = c.string(), let stored = Self.hrvMeasure(slice, c.base) else { return false }
            measure.stored = .stored(stored)
        }
        guard let hrvMeasure = measure.upcast(from: version),
              c.literal(Literal.source), let source = c.string(), c.literal(Literal.start), let start = c.timestamp()
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
                                          source: c.view(source), hrvMeasure: hrvMeasure.measure, version: version)
    }

    // MARK: - Samples

    /// The keys a sample of each reading may have (anything else: decline).
    private static let quantityKeys = FieldKey.mask([.end, .id, .kind, .source, .start, .unit, .value, .input, .eventID, .measure])
    private static let sleepKeys = FieldKey.mask([.end, .id, .kind, .source, .start, .value, .eventID])
    private static let workoutKeys = FieldKey.mask([.activityType, .distanceM, .end, .energyKcal, .eventID, .id, .inputDistance,
                                                    .inputEnergy, .kind, .source, .start, .volumeKg])

    private func decodeSample(_ c: Cursor, version: Int, seq: Int, id: LineSlice, recordedAt: PackedTimestamp,
                              into builder: inout EventBatchBuilder) -> Bool {
        let present = presentMask()
        guard let kindSlice = string(.kind), let kind = Self.sampleKind(kindSlice, c.base),
              let sampleID = string(.id), let startSlice = string(.start), let endSlice = string(.end),
              let source = string(.source),
              let start = PackedTimestamp(canonical: c.bytes(startSlice)), let end = PackedTimestamp(canonical: c.bytes(endSlice))
        else { return false }
        var scanned = ScannedMeasure(kind: kind)
        if fields[FieldKey.measure.rawValue].kind != .absent {
            guard let slice = string(.measure), let stored = Self.hrvMeasure(slice, c.base) else { return false }
            scanned.stored = .stored(stored)
        }
        guard let resolved = scanned.upcast(from: version) else { return false }
        let measure = resolved.measure
        guard let sampleEventID = optionalString(.eventID, c) else { return false }
        let kindIndex = kind.packedIndex
        switch kind {
        case .sleep:
            guard present & ~Self.sleepKeys == 0, let stageSlice = string(.value), let stage = Self.sleepStage(stageSlice, c.base)
            else { return false }
            if let packedID = PackedUUID(utf8: c.bytes(sampleID)), let eventID = PackedUUID(utf8: c.bytes(id)),
               builder.appendPackedSample(eventID: eventID, recordedAt: recordedAt, sampleEventID: sampleEventID, id: packedID,
                                          seq: seq, kindIndex: kindIndex, value: Double(stage.packedIndex),
                                          start: start, end: end, source: c.view(source), hrvMeasure: measure, version: version) {
                return true
            }
            return appendFull(.sleep(stage), c, seq: seq, id: id, recordedAt: recordedAt, sampleEventID: sampleEventID,
                              kind: kind, sampleID: sampleID, start: start, end: end, source: source, measure: measure,
                              version: version, into: &builder)
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
                              kind: kind, sampleID: sampleID, start: start, end: end, source: source, measure: measure,
                              version: version, into: &builder)
        default:
            guard present & ~Self.quantityKeys == 0, let value = number(.value), let unit = string(.unit),
                  let input = optionalMeasurement(.input, c)
            else { return false }
            if input.value == nil, Self.isCanonicalUnit(unit, of: kind, c.base),
               let packedID = PackedUUID(utf8: c.bytes(sampleID)), let eventID = PackedUUID(utf8: c.bytes(id)),
               builder.appendPackedSample(eventID: eventID, recordedAt: recordedAt, sampleEventID: sampleEventID, id: packedID,
                                          seq: seq, kindIndex: kindIndex, value: value, start: start, end: end,
                                          source: c.view(source), hrvMeasure: measure, version: version) {
                return true
            }
            guard let unitText = c.text(unit) else { return false }
            let measured = input.value ?? WorkoutSummary.Measurement(value: value, unit: unitText)
            return appendFull(.quantity(Quantity(value: value, inputValue: measured.value, inputUnit: measured.unit)), c,
                              seq: seq, id: id, recordedAt: recordedAt, sampleEventID: sampleEventID,
                              kind: kind, sampleID: sampleID, start: start, end: end, source: source, measure: measure,
                              version: version, into: &builder)
        }
    }

    /// Appends a sample that does not pack, through the general path.
    ///
    /// - Parameter measure: an hrv sample's measure as stored (current
    ///   shape); `nil` derives it from the source.
    private func appendFull(_ reading: Sample.Reading, _ c: Cursor, seq: Int, id: LineSlice, recordedAt: PackedTimestamp,
                            sampleEventID: String?, kind: SampleKind, sampleID: LineSlice, start: PackedTimestamp,
                            end: PackedTimestamp, source: LineSlice, measure: HRVMeasure?, version: Int,
                            into builder: inout EventBatchBuilder) -> Bool {
        guard let eventIDText = c.text(id), let sampleIDText = c.text(sampleID), let sourceText = c.text(source) else { return false }
        let sample = Sample(id: sampleIDText, kind: kind, start: start.timestamp, end: end.timestamp, source: sourceText, reading: reading,
                            hrvMeasure: measure)
        builder.append(RecordedEvent(seq: seq, id: eventIDText, recordedAt: recordedAt.timestamp,
                                     event: Event(.sampleIngested(sample), eventID: sampleEventID), storedVersion: version))
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
        case .sampleIngested, .dataForgotten, .syncAnchored:
            return nil  // redacted lines, forget records and sync anchors go to the reference decoder
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
            guard let phase = type.taskPhase, present & ~Self.taskKeys == 0,
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
    private func string(_ key: FieldKey) -> LineSlice? {
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

    private static func eventType(_ slice: LineSlice, _ base: UnsafeRawPointer) -> EventType? {
        let bytes = ByteView(UnsafeRawBufferPointer(start: base + slice.start, count: slice.count))
        switch slice.count {
        case 15: return matches(bytes, "sample.ingested") ? .sampleIngested : (matches(bytes, "profile.updated") ? .profileUpdated : nil)
        case 14: return matches(bytes, "sample.deleted") ? .sampleDeleted : (matches(bytes, "task.completed") ? .taskCompleted : (matches(bytes, "task.cancelled") ? .taskCancelled : nil))
        case 17: return matches(bytes, "refresh.requested") ? .refreshRequested : nil
        case 12: return matches(bytes, "task.started") ? .taskStarted : nil
        case 11: return matches(bytes, "task.failed") ? .taskFailed : nil
        default: return nil
        }
    }

    package static func sampleKind(_ slice: LineSlice, _ base: UnsafeRawPointer) -> SampleKind? {
        let bytes = ByteView(UnsafeRawBufferPointer(start: base + slice.start, count: slice.count))
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

    static func hrvMeasure(_ slice: LineSlice, _ base: UnsafeRawPointer) -> HRVMeasure? {
        let bytes = ByteView(UnsafeRawBufferPointer(start: base + slice.start, count: slice.count))
        return matches(bytes, "rmssd") ? .rmssd : (matches(bytes, "sdnn") ? .sdnn : nil)
    }

    package static func sleepStage(_ slice: LineSlice, _ base: UnsafeRawPointer) -> SleepStage? {
        let bytes = ByteView(UnsafeRawBufferPointer(start: base + slice.start, count: slice.count))
        for stage in SleepStage.allCases where matches(bytes, stage.staticRawValue) { return stage }
        return nil
    }

    private static func isCanonicalUnit(_ slice: LineSlice, of kind: SampleKind, _ base: UnsafeRawPointer) -> Bool {
        let bytes = ByteView(UnsafeRawBufferPointer(start: base + slice.start, count: slice.count))
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

    @inlinable @inline(__always)
    package static func matches(_ bytes: ByteView, _ name: StaticString) -> Bool {
        bytes.matches(name)
    }
}

/// The scanner's view of a `sample.ingested` line's `measure` for ``Upcasting``.
struct ScannedMeasure: UpcastableData {
    enum State {
        /// The line has no `measure`.
        case absent
        /// The line stores this measure.
        case stored(HRVMeasure)
        /// The measure is the source's (``HRVMeasure/init(source:)``), derived
        /// where the source's bytes are interned.
        case fromSource
    }

    /// The measure as the current shape has it, once the line passed its checks.
    struct Resolved {
        /// An hrv sample's stored measure; `nil` for one derived from its source, and for every other kind.
        var measure: HRVMeasure?
    }

    let kind: SampleKind
    var stored: State = .absent

    init(kind: SampleKind) {
        self.kind = kind
    }

    mutating func deriveHRVMeasureFromSource() {
        stored = kind == .hrv ? .fromSource : .absent
    }

    /// Upcasts a line of `version` and checks the current shape: an hrv sample
    /// has a measure, no other kind has one. `nil` when the line breaks that
    /// (the reference decoder words it).
    @inline(__always)
    mutating func upcast(from version: Int) -> Resolved? {
        Upcasting.upcast(&self, type: .sampleIngested, from: version)
        switch (stored, kind == .hrv) {
        case (.stored(let measure), true): return Resolved(measure: measure)
        case (.fromSource, true), (.absent, false): return Resolved(measure: nil)
        case (.absent, true), (.stored, false), (.fromSource, false): return nil
        }
    }
}
