/// The one writer of a quantity or sleep sample as a JSON object, member by
/// member in UTF-8 key order, without a JSON tree: both the stored line's
/// `data` object (``EventCodec``'s fast line writer, ``PreparedSample``) and the
/// input line's canonical content (``IngestCommand/content`` on the fast
/// parser, and `IngestState`'s replay of packed samples).
///
/// Each text member comes in whichever form the caller holds (see
/// ``JSONStringText``); the bytes are those ``JSONWriter`` writes for the
/// same object (`FastEncoderTests`, `FastIngestTests` and the replay tests
/// check them against the reference paths).
enum SampleObjectWriter {
    /// The value members: `unit` and `value` of a quantity, or a sleep stage's `value`.
    enum Reading<Text: JSONStringText> {
        case quantity(unit: Text, value: Double)
        case sleep(stage: Text)
    }

    /// Writes `{"end":…,"eventID":…,"extra":…,"id":…,"input":…,"kind":…,"source":…,"start":…,"type":"sample","unit":…,"value":…}`,
    /// leaving out `eventID`, `extra` and `input` when `nil` (or empty) and
    /// `type` unless `typeSample` (the input line has it; the stored `data` does not).
    @inline(__always)
    static func write<Text: JSONStringText>(end: some JSONStringText, eventID: String? = nil, extra: JSONObject? = nil,
                                            id: some JSONStringText, input: Quantity? = nil, kind: some JSONStringText,
                                            source: some JSONStringText, start: some JSONStringText, typeSample: Bool,
                                            reading: Reading<Text>, into output: inout [UInt8]) {
        output.appendLiteral(#"{"end":"#)
        end.writeQuoted(into: &output)
        if let eventID {
            output.appendLiteral(#","eventID":"#)
            JSONWriter.writeString(eventID, into: &output)
        }
        if let extra, !extra.isEmpty {
            output.appendLiteral(#","extra":"#)
            JSONWriter.write(.object(extra), into: &output)
        }
        output.appendLiteral(#","id":"#)
        id.writeQuoted(into: &output)
        if let input {
            output.appendLiteral(#","input":{"unit":"#)
            JSONWriter.writeString(input.inputUnit, into: &output)
            output.appendLiteral(#","value":"#)
            JSONWriter.writeNumberQuickly(input.inputValue, into: &output)
            output.append(UInt8(ascii: "}"))
        }
        output.appendLiteral(#","kind":"#)
        kind.writeQuoted(into: &output)
        output.appendLiteral(#","source":"#)
        source.writeQuoted(into: &output)
        output.appendLiteral(#","start":"#)
        start.writeQuoted(into: &output)
        if typeSample { output.appendLiteral(#","type":"sample""#) }
        switch reading {
        case .quantity(let unit, let value):
            output.appendLiteral(#","unit":"#)
            unit.writeQuoted(into: &output)
            output.appendLiteral(#","value":"#)
            JSONWriter.writeNumberQuickly(value, into: &output)
        case .sleep(let stage):
            output.appendLiteral(#","value":"#)
            stage.writeQuoted(into: &output)
        }
        output.append(UInt8(ascii: "}"))
    }
}
