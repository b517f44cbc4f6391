extension EventCodec {
    /// Appends the sealed, newline-terminated line for `recorded` to `output`:
    /// the bytes of ``encodeLine(_:)``, without building a `JSONObject`.
    ///
    /// Quantity and sleep samples — nearly every line of a health log — are
    /// written member by member in their canonical (sorted) order; every other
    /// event goes through ``encodeUnsealed(_:into:)``. `FastEncoderTests`
    /// checks the two against each other.
    public static func appendLine(_ recorded: RecordedEvent, to output: inout [UInt8]) {
        let start = output.count
        if !appendSampleUnsealed(recorded, to: &output) {
            encodeUnsealed(recorded, into: &output)
        }
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
        let unit: String
        var input: Quantity?
        var value: Double?
        var stage: SleepStage?
        switch sample.reading {
        case .quantity(let quantity):
            unit = sample.kind.canonicalUnit ?? quantity.inputUnit
            if quantity.inputUnit != unit { input = quantity }
            value = quantity.value
        case .sleep(let sleepStage):
            unit = ""
            stage = sleepStage
        case .workout:
            return false
        }
        let event = recorded.event
        output.append(contentsOf: #"{"v":1,"seq":"#.utf8)
        appendInteger(recorded.seq, to: &output)
        output.append(contentsOf: #","id":"#.utf8)
        JSONWriter.writeString(recorded.id, into: &output)
        output.append(contentsOf: #","type":"sample.ingested","recordedAt":"#.utf8)
        JSONWriter.writeString(recorded.recordedAt.text, into: &output)
        // `data` members in UTF-8 order: end, eventID, extra, id, input, kind, source, start, unit, value.
        output.append(contentsOf: #","data":{"end":"#.utf8)
        JSONWriter.writeString(sample.end.text, into: &output)
        if let eventID = event.eventID {
            output.append(contentsOf: #","eventID":"#.utf8)
            JSONWriter.writeString(eventID, into: &output)
        }
        if !event.extra.isEmpty {
            output.append(contentsOf: #","extra":"#.utf8)
            JSONWriter.write(.object(event.extra), into: &output)
        }
        output.append(contentsOf: #","id":"#.utf8)
        JSONWriter.writeString(sample.id, into: &output)
        if let input {
            output.append(contentsOf: #","input":{"unit":"#.utf8)
            JSONWriter.writeString(input.inputUnit, into: &output)
            output.append(contentsOf: #","value":"#.utf8)
            JSONWriter.writeNumber(input.inputValue, into: &output)
            output.append(UInt8(ascii: "}"))
        }
        output.append(contentsOf: #","kind":"#.utf8)
        JSONWriter.writeString(sample.kind.rawValue, into: &output)
        output.append(contentsOf: #","source":"#.utf8)
        JSONWriter.writeString(sample.source, into: &output)
        output.append(contentsOf: #","start":"#.utf8)
        JSONWriter.writeString(sample.start.text, into: &output)
        if let value {
            output.append(contentsOf: #","unit":"#.utf8)
            JSONWriter.writeString(unit, into: &output)
            output.append(contentsOf: #","value":"#.utf8)
            JSONWriter.writeNumber(value, into: &output)
        } else if let stage {
            output.append(contentsOf: #","value":"#.utf8)
            JSONWriter.writeString(stage.rawValue, into: &output)
        }
        output.append(UInt8(ascii: "}"))
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
