extension EventCodec {
    /// Appends the sealed, newline-terminated line for `recorded` to `output`:
    /// the bytes of ``encodeLine(_:)``, without building a `JSONObject`.
    ///
    /// Quantity and sleep samples — nearly every line of a health log — and
    /// refresh and task events — most of the rest — are written member by
    /// member in their canonical (sorted) order; every other event goes
    /// through ``encodeUnsealed(_:into:)``. `FastIngestTests` checks the two
    /// against each other.
    package static func appendLine(_ recorded: RecordedEvent, to output: inout [UInt8]) {
        let start = output.count
        if !appendSampleUnsealed(recorded, to: &output) && !appendSignalUnsealed(recorded, to: &output) {
            encodeUnsealed(recorded, into: &output)
        }
        seal(&output, from: start)
    }

    /// Appends the line of a `sample.ingested` event whose `data` object is
    /// already written (a ``PreparedSample``): the bytes ``appendLine(_:to:)``
    /// writes for that event.
    ///
    /// - Parameter recordedAt: the UTF-8 of `recordedAt.text` (an RFC 3339 text needs no escapes).
    static func appendSampleLine(seq: Int, id: PackedUUID, recordedAt: [UInt8], data: UnsafeRawBufferPointer,
                                 to output: inout [UInt8]) {
        let start = output.count
        output.appendLiteral(#"{"v":1,"seq":"#)
        appendInteger(seq, to: &output)
        output.appendLiteral(#","id":""#)
        id.write(into: &output)
        output.appendLiteral(#"","type":"sample.ingested","recordedAt":""#)
        output.append(contentsOf: recordedAt)
        output.appendLiteral(#"","data":"#)
        output.append(contentsOf: data)
        seal(&output, from: start)
    }

    /// Appends the CRC trailer and `\n` to the line that starts at `start`.
    static func seal(_ output: inout [UInt8], from start: Int) {
        let crc = output.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start...])) }
        output.append(contentsOf: StoredLine.crcMarker)
        CRC32.appendHex(crc, to: &output)
        output.append(contentsOf: StoredLine.closing)
        output.append(UInt8(ascii: "\n"))
    }

    /// Writes `recorded` up to, not including, its CRC trailer when it is a
    /// quantity or sleep sample; returns `false` (writing nothing) otherwise.
    private static func appendSampleUnsealed(_ recorded: RecordedEvent, to output: inout [UInt8]) -> Bool {
        guard case .sampleIngested(let sample) = recorded.payload else { return false }
        let reading: SampleObjectWriter.Reading<String>
        var input: Quantity?
        switch sample.reading {
        case .quantity(let quantity):
            let unit = sample.kind.canonicalUnit ?? quantity.inputUnit
            if quantity.inputUnit != unit { input = quantity }
            reading = .quantity(unit: unit, value: quantity.value)
        case .sleep(let stage):
            reading = .sleep(stage: stage.rawValue)
        case .workout:
            return false
        }
        appendEnvelope(recorded, to: &output)
        SampleObjectWriter.write(end: sample.end.text, eventID: recorded.event.eventID, extra: recorded.event.extra, id: sample.id,
                                 input: input, kind: sample.kind.rawValue, source: sample.source, start: sample.start.text,
                                 typeSample: false, reading: reading, into: &output)
        return true
    }

    /// Writes `recorded` up to, not including, its CRC trailer when it is a
    /// refresh or task event without extra members; returns `false` (writing
    /// nothing) otherwise.
    private static func appendSignalUnsealed(_ recorded: RecordedEvent, to output: inout [UInt8]) -> Bool {
        let event = recorded.event
        guard event.extra.isEmpty else { return false }
        switch event.payload {
        case .refreshRequested, .task: break
        default: return false
        }
        appendEnvelope(recorded, to: &output)
        func member(_ key: StaticString, _ text: String) {
            output.appendLiteral(key)
            JSONWriter.writeString(text, into: &output)
        }
        switch event.payload {
        case .refreshRequested(let refresh):
            // `data` members in UTF-8 order: at, eventID, kind, outcome, reason, refreshSignal, source.
            member(#"{"at":"#, refresh.at.text)
            if let eventID = event.eventID { member(#","eventID":"#, eventID) }
            if let kind = refresh.kind { member(#","kind":"#, kind.rawValue) }
            member(#","outcome":"#, refresh.outcome.rawValue)
            if let reason = refresh.reason { member(#","reason":"#, reason.rawValue) }
            output.appendLiteral(#","refreshSignal":"#)
            JSONWriter.writeNumberQuickly(Double(refresh.refreshSignal), into: &output)
            member(#","source":"#, refresh.source.rawValue)
        case .task(let task):
            // at, error, eventID, feature, reason, requestedPhase, supersededBy, task.
            member(#"{"at":"#, task.at.text)
            if let error = task.error { member(#","error":"#, error) }
            if let eventID = event.eventID { member(#","eventID":"#, eventID) }
            member(#","feature":"#, task.feature)
            if let reason = task.reason { member(#","reason":"#, reason.rawValue) }
            if let requested = task.requestedPhase { member(#","requestedPhase":"#, requested.rawValue) }
            if let successor = task.supersededBy { member(#","supersededBy":"#, successor) }
            member(#","task":"#, task.task)
        default:
            break
        }
        output.appendLiteral("}")
        return true
    }

    /// Appends the decimal digits of `value`.
    static func appendInteger(_ value: Int, to output: inout [UInt8]) {
        guard value > 0 else {
            output.append(contentsOf: String(value).utf8)
            return
        }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[19 - count] = UInt8(rest % 10) &+ UInt8(ascii: "0")
                rest /= 10
                count += 1
            }
            output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[(20 - count)...]))
        }
    }
}

extension JSONWriter {
    /// ``writeNumber(_:into:)`` with the digits of an integral value written
    /// directly (no `String` in between); other values go through it.
    @inline(__always)
    static func writeNumberQuickly(_ number: Double, into output: inout [UInt8]) {
        guard number.isFinite, number == number.rounded(), abs(number) < 9_007_199_254_740_992 else {
            writeNumber(number, into: &output)
            return
        }
        if number == 0 {
            output.append(UInt8(ascii: "0"))  // also -0
        } else if number > 0 {
            EventCodec.appendInteger(Int(number), to: &output)
        } else {
            output.append(UInt8(ascii: "-"))
            EventCodec.appendInteger(Int(-number), to: &output)
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends the bytes of a string literal with one copy (`String.UTF8View`
    /// would be appended byte by byte).
    @inline(__always)
    mutating func appendLiteral(_ literal: StaticString) {
        append(contentsOf: UnsafeRawBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }
}
