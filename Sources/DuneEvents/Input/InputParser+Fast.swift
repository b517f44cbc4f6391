extension InputParser {
    /// The fast path of ``parse(_:)-(UnsafeRawBufferPointer)``: the line that
    /// makes up nearly all of a health log — a quantity or sleep `sample` with
    /// the members `type`, `kind`, `id`, `start`, `end`, `value`, `unit`,
    /// `source` and optionally `eventID`, in any order, written compactly with
    /// plain strings — parsed and validated straight from the bytes, without a
    /// JSON tree, and its canonical ``IngestCommand/content`` written directly.
    ///
    /// Returns `nil` for anything else and for anything that fails validation:
    /// the caller then takes the reference path, which accepts the same lines
    /// with the same result and words every rejection (`FastInputParserTests`
    /// checks this).
    static func parseSample(_ line: UnsafeRawBufferPointer) -> IngestCommand? {
        guard let base = line.baseAddress else { return nil }
        var c = Cursor(base: base, end: line.count)
        var type: Slice?, kind: Slice?, id: Slice?, start: Slice?, end: Slice?, unit: Slice?, source: Slice?, eventID: Slice?
        var stringValue: Slice?
        var numberValue: Double?
        guard c.expect(UInt8(ascii: "{")) else { return nil }
        while true {
            guard c.expect(UInt8(ascii: "\"")), let key = c.string(), !key.nonASCII, c.expect(UInt8(ascii: ":")), c.index < c.end
            else { return nil }
            var text: Slice?
            var number: Double?
            if c.byte(c.index) == UInt8(ascii: "\"") {
                c.index += 1
                guard let slice = c.string() else { return nil }
                text = slice
            } else {
                guard let (parsed, _) = c.number() else { return nil }
                number = parsed
            }
            let name = c.bytes(key)
            @inline(__always) func take(_ slot: inout Slice?) -> Bool {
                guard slot == nil, let text else { return false }
                slot = text
                return true
            }
            let taken: Bool
            switch key.count {
            case 2: taken = StoredLineScanner.matches(name, "id") && take(&id)
            case 3: taken = StoredLineScanner.matches(name, "end") && take(&end)
            case 4:
                if StoredLineScanner.matches(name, "type") {
                    taken = take(&type)
                } else if StoredLineScanner.matches(name, "kind") {
                    taken = take(&kind)
                } else {
                    taken = StoredLineScanner.matches(name, "unit") && take(&unit)
                }
            case 5:
                if StoredLineScanner.matches(name, "start") {
                    taken = take(&start)
                } else if StoredLineScanner.matches(name, "value"), stringValue == nil, numberValue == nil {
                    stringValue = text
                    numberValue = number
                    taken = true
                } else {
                    taken = false
                }
            case 6: taken = StoredLineScanner.matches(name, "source") && take(&source)
            case 7: taken = StoredLineScanner.matches(name, "eventID") && take(&eventID)
            default: taken = false
            }
            guard taken else { return nil }
            if c.expect(UInt8(ascii: ",")) { continue }
            guard c.expect(UInt8(ascii: "}")), c.index == c.end else { return nil }
            break
        }
        guard let type, StoredLineScanner.matches(c.bytes(type), "sample"), let kind, let id, let start, let end, let source,
              let kindName = c.text(kind), let sampleKind = SampleKind(rawValue: kindName), sampleKind != .workout,
              id.count > 0, id.count <= 256, source.count > 0, source.count <= 256,
              let idText = c.text(id), let sourceText = c.text(source),
              let startTime = Timestamp(utf8: c.bytes(start)), let endTime = Timestamp(utf8: c.bytes(end))
        else { return nil }
        var eventIDText: String?
        if let eventID {
            guard eventID.count > 0, eventID.count <= 256, let text = c.text(eventID) else { return nil }
            eventIDText = text
        }
        let seconds = endTime.seconds(since: startTime)
        guard seconds >= 0 else { return nil }
        let reading: Sample.Reading
        if sampleKind == .sleep {
            guard unit == nil, let stageSlice = stringValue, let stageName = c.text(stageSlice),
                  let stage = SleepStage(rawValue: stageName), seconds / 3600 <= 24
            else { return nil }
            reading = .sleep(stage)
        } else {
            guard let value = numberValue, let unit, let unitText = c.text(unit),
                  let canonical = UnitConversion.canonicalValue(value, unit: unitText, kind: sampleKind), canonical.isFinite
            else { return nil }
            if let range = UnitConversion.plausibleRange(for: sampleKind), !range.contains(canonical) { return nil }
            reading = .quantity(Quantity(value: canonical, inputValue: value, inputUnit: unitText))
        }
        // The canonical content: every member but eventID, keys in UTF-8 order.
        var content: [UInt8] = []
        content.reserveCapacity(line.count)
        func member(_ key: StaticString, _ slice: Slice) {
            content.append(contentsOf: UnsafeRawBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
            content.append(UInt8(ascii: "\""))
            content.append(contentsOf: c.bytes(slice))
            content.append(UInt8(ascii: "\""))
        }
        member(#"{"end":"#, end)
        member(#","id":"#, id)
        member(#","kind":"#, kind)
        member(#","source":"#, source)
        member(#","start":"#, start)
        content.append(contentsOf: #","type":"sample""#.utf8)
        if let unit, let value = numberValue {
            member(#","unit":"#, unit)
            content.append(contentsOf: #","value":"#.utf8)
            JSONWriter.writeNumber(value, into: &content)
        } else if let stageSlice = stringValue {
            member(#","value":"#, stageSlice)
        }
        content.append(UInt8(ascii: "}"))
        let sample = Sample(id: idText, kind: sampleKind, start: startTime, end: endTime, source: sourceText, reading: reading)
        return IngestCommand(intent: .sample(sample), eventID: eventIDText, extra: JSONObject(), content: content)
    }
}
