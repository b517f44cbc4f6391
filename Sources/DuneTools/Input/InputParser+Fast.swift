import DuneEvents

/// A sample line as the fast parser scanned it: the members' places in the
/// line, not yet validated beyond their JSON types.
struct ScannedSampleLine {
    var kind: SampleKind
    /// The `kind` member's text.
    var kindText: LineSlice
    var id: LineSlice
    var start: LineSlice
    var end: LineSlice
    var source: LineSlice
    var unit: LineSlice?
    var stringValue: LineSlice?
    var numberValue: Double?
    var eventID: LineSlice?
    /// An hrv sample's measure: the line's `measure`, else its source's rule
    /// (``HRVMeasure/init(source:)``); `nil` for every other kind.
    var hrvMeasure: HRVMeasure?
}

extension InputParser {
    /// Scans the common input line — a quantity or sleep `sample` with the
    /// members `type`, `kind`, `id`, `start`, `end`, `value`, `unit`, `source`
    /// and optionally `eventID` and (hrv only, `sdnn` or `rmssd`) `measure`,
    /// in any order, written compactly with plain strings. `nil` for anything else.
    static func scanSample(_ c: inout Cursor) -> ScannedSampleLine? {
        var type: LineSlice?, kind: LineSlice?, id: LineSlice?, start: LineSlice?, end: LineSlice?, unit: LineSlice?, source: LineSlice?, eventID: LineSlice?
        var measure: LineSlice?
        var stringValue: LineSlice?
        var numberValue: Double?
        guard c.expect(UInt8(ascii: "{")) else { return nil }
        while true {
            guard c.expect(UInt8(ascii: "\"")), let key = c.string(), !key.nonASCII, c.expect(UInt8(ascii: ":")), c.index < c.end
            else { return nil }
            var text: LineSlice?
            var number: Double?
            if c.byte(c.index) == UInt8(ascii: "\"") {
                c.index += 1
                guard let slice = c.string() else { return nil }
                text = slice
            } else {
                guard let (parsed, _) = c.number() else { return nil }
                number = parsed
            }
            @inline(__always) func take(_ slot: inout LineSlice?) -> Bool {
                guard slot == nil, let text else { return false }
                slot = text
                return true
            }
            let taken: Bool
            switch InputMember.named(c.view(key)) {
            case .id: taken = take(&id)
            case .end: taken = take(&end)
            case .type: taken = take(&type)
            case .kind: taken = take(&kind)
            case .unit: taken = take(&unit)
            case .start: taken = take(&start)
            case .value:
                taken = stringValue == nil && numberValue == nil
                if taken {
                    stringValue = text
                    numberValue = number
                }
            case .source: taken = take(&source)
            case .eventID: taken = take(&eventID)
            case .measure: taken = take(&measure)
            case .at, .error, .feature, .phase, .task, nil: taken = false
            }
            guard taken else { return nil }
            if c.expect(UInt8(ascii: ",")) { continue }
            guard c.expect(UInt8(ascii: "}")), c.index == c.end else { return nil }
            break
        }
        guard let type, StoredLineScanner.matches(c.bytes(type), "sample"), let kind, let id, let start, let end, let source,
              let sampleKind = StoredLineScanner.sampleKind(kind, c.base), sampleKind != .workout,
              InputRules.acceptsText(byteCount: id.count), InputRules.acceptsText(byteCount: source.count)
        else { return nil }
        if let eventID, !InputRules.acceptsText(byteCount: eventID.count) { return nil }
        var hrvMeasure: HRVMeasure?
        if let measure {
            // Named: only on hrv, only a known measure (the reference words any other case).
            guard sampleKind == .hrv else { return nil }
            let bytes = c.bytes(measure)
            if StoredLineScanner.matches(bytes, "sdnn") {
                hrvMeasure = .sdnn
            } else if StoredLineScanner.matches(bytes, "rmssd") {
                hrvMeasure = .rmssd
            } else {
                return nil
            }
        } else if sampleKind == .hrv {
            hrvMeasure = HRVMeasure(sourceBytes: c.view(source))
        }
        return ScannedSampleLine(kind: sampleKind, kindText: kind, id: id, start: start, end: end, source: source, unit: unit,
                                 stringValue: stringValue, numberValue: numberValue, eventID: eventID, hrvMeasure: hrvMeasure)
    }

    /// The reading of a scanned line, validated by ``InputRules`` as
    /// ``command(from:)`` does (units converted, plausibility, a sample at
    /// most 24 h); `nil` when it fails (the general parser then words the rejection).
    static func reading(of line: ScannedSampleLine, seconds: Double, _ c: Cursor) -> (reading: Sample.Reading, unit: String?)? {
        guard InputRules.acceptsDuration(seconds: seconds, of: line.kind) else { return nil }
        if line.kind == .sleep {
            guard line.unit == nil, let stageSlice = line.stringValue, let stage = StoredLineScanner.sleepStage(stageSlice, c.base)
            else { return nil }
            return (.sleep(stage), nil)
        }
        guard let value = line.numberValue, let unit = line.unit, let unitText = c.text(unit),
              let quantity = try? InputRules.quantity(InputMeasure(value: value, unit: unitText), kind: line.kind)
        else { return nil }
        return (.quantity(quantity), unitText)
    }

    /// Writes the canonical ``IngestCommand/content`` of a scanned line
    /// (``InputContent``'s bytes) from the line's own bytes: its strings hold
    /// no escapes. The callers take only lines whose timestamps are already in
    /// their canonical spelling.
    static func writeContent(of line: ScannedSampleLine, _ c: Cursor, into content: inout [UInt8]) {
        func text(_ slice: LineSlice) -> UnescapedJSONText { UnescapedJSONText(bytes: c.view(slice)) }
        let reading: SampleObjectWriter.Reading<UnescapedJSONText>
        if let unit = line.unit, let value = line.numberValue {
            reading = .quantity(unit: text(unit), value: value)
        } else if let stage = line.stringValue {
            reading = .sleep(stage: text(stage))
        } else {
            return  // not a line `reading(of:seconds:_:)` accepts
        }
        SampleObjectWriter.writeLineMembers(.inputContent(unknown: JSONObject()), end: text(line.end), id: text(line.id),
                                            kind: text(line.kindText), measure: line.hrvMeasure, source: text(line.source),
                                            start: text(line.start), reading: reading, into: &content)
    }

    /// The fast path of the byte-level `parse(_:)`: the common
    /// sample line parsed and validated straight from the bytes, without a
    /// JSON tree, and its canonical ``IngestCommand/content`` written directly.
    ///
    /// Returns `nil` for anything else and for anything that fails validation:
    /// the caller then takes the general parser, which accepts the same lines
    /// with the same result and words every rejection (`FastIngestTests`
    /// checks this).
    static func parseSample(_ bytes: ByteView) -> IngestCommand? {
        guard var c = Cursor(line: bytes) else { return nil }
        guard let line = scanSample(&c), let idText = c.text(line.id), let sourceText = c.text(line.source),
              let startTime = Timestamp(utf8: c.bytes(line.start)), let endTime = Timestamp(utf8: c.bytes(line.end)),
              TimestampWindow.contains(startTime), TimestampWindow.contains(endTime),
              // Content holds timestamps in their canonical spelling; other spellings take the general parser.
              PackedTimestamp(canonical: c.bytes(line.start)) != nil, PackedTimestamp(canonical: c.bytes(line.end)) != nil
        else { return nil }
        var eventIDText: String?
        if let eventID = line.eventID {
            guard let text = c.text(eventID) else { return nil }
            eventIDText = text
        }
        guard let (reading, _) = reading(of: line, seconds: endTime.seconds(since: startTime), c) else { return nil }
        var content: [UInt8] = []
        content.reserveCapacity(bytes.count)
        writeContent(of: line, c, into: &content)
        let sample = Sample(id: idText, kind: line.kind, start: startTime, end: endTime, source: sourceText, reading: reading,
                            hrvMeasure: line.hrvMeasure)
        return IngestCommand(intent: .sample(sample), eventID: eventIDText, extra: JSONObject(), content: content)
    }
}
