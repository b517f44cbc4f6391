/// The one writer of a quantity or sleep sample as a JSON object, without a
/// JSON tree: both the stored line's `data` object (``EventCodec``'s line
/// writer, ``PreparedSample``) and the input line's canonical content
/// (``InputContent``, which the parsers and `IngestState`'s replay of packed
/// samples use).
///
/// Each text member comes in whichever form the caller holds (see
/// ``JSONStringText``): a `String`, the bytes of the input line, or a packed
/// timestamp or id. `EventCodecTests` checks the stored lines and
/// `ContentIdentityTests` the content against reference builders in the tests.
package enum SampleObjectWriter {
    /// The value members: `unit` and `value` of a quantity, or a sleep stage's `value`.
    package enum Reading<Text: JSONStringText> {
        case quantity(unit: Text, value: Double)
        case sleep(stage: Text)
    }

    /// What the object is.
    package enum Form {
        /// The stored line's `data`: with `eventID` and `extra` when present,
        /// and `input` (the quantity as written) when its unit is not the canonical one.
        case storedData(eventID: String?, extra: JSONObject, input: Quantity?)
        /// The input line's content: with `"type":"sample"`, and the line's unknown members among its own.
        case inputContent(unknown: JSONObject)
    }

    /// Writes `{"end":…,"eventID":…,"extra":…,"id":…,"input":…,"kind":…,"measure":…,"source":…,"start":…,"type":"sample","unit":…,"value":…}`
    /// with the members `form` has.
    ///
    /// - Parameter measure: an hrv sample's measure, written in both forms
    ///   (`sample.ingested` v2 stores it; the content always holds it, so a
    ///   line that names the measure its source implies is the same content
    ///   as the line without it); `nil` for every other kind.
    @inline(__always)
    package static func write<Text: JSONStringText>(_ form: Form, end: some JSONStringText, id: some JSONStringText,
                                            kind: some JSONStringText, measure: HRVMeasure?, source: some JSONStringText,
                                            start: some JSONStringText, reading: Reading<Text>, into output: inout [UInt8]) {
        var object: CanonicalObjectWriter
        switch form {
        case .storedData(let eventID, let extra, let input):
            object = CanonicalObjectWriter()
            object.string(#""end":"#, end, into: &output)
            object.string(#""eventID":"#, ifPresent: eventID, into: &output)
            if !extra.isEmpty { object.value(#""extra":"#, .object(extra), into: &output) }
            object.string(#""id":"#, id, into: &output)
            if let input { object.measurement(#""input":"#, value: input.inputValue, unit: input.inputUnit, into: &output) }
        case .inputContent(let unknown):
            object = CanonicalObjectWriter(merging: unknown)
            object.string(#""end":"#, end, into: &output)
            object.string(#""id":"#, id, into: &output)
        }
        object.string(#""kind":"#, kind, into: &output)
        if let measure { object.string(#""measure":"#, measure, into: &output) }
        object.string(#""source":"#, source, into: &output)
        object.string(#""start":"#, start, into: &output)
        if case .inputContent = form { object.string(#""type":"#, "sample", into: &output) }
        switch reading {
        case .quantity(let unit, let value):
            object.string(#""unit":"#, unit, into: &output)
            object.number(#""value":"#, value, into: &output)
        case .sleep(let stage):
            object.string(#""value":"#, stage, into: &output)
        }
        object.close(into: &output)
    }
}

extension SampleObjectWriter {
    /// ``write(_:end:id:kind:measure:source:start:reading:into:)`` with the
    /// text members copied from an input line, for the input line's content
    /// (the reading as written). Not generic, so the caller in another module
    /// (the input parser, in the command line's target) runs the writer
    /// specialized here instead of the generic one through witness tables,
    /// which cost about 15 % of a large ingest.
    package static func writeLineMembers(_ form: Form, end: UnescapedJSONText, id: UnescapedJSONText, kind: UnescapedJSONText,
                                         measure: HRVMeasure?, source: UnescapedJSONText, start: UnescapedJSONText,
                                         reading: Reading<UnescapedJSONText>, into output: inout [UInt8]) {
        write(form, end: end, id: id, kind: kind, measure: measure, source: source, start: start, reading: reading, into: &output)
    }

    /// The same for a stored `data` object, whose reading is in canonical units.
    package static func writeLineMembers(_ form: Form, end: UnescapedJSONText, id: UnescapedJSONText, kind: UnescapedJSONText,
                                         measure: HRVMeasure?, source: UnescapedJSONText, start: UnescapedJSONText,
                                         reading: Reading<String>, into output: inout [UInt8]) {
        write(form, end: end, id: id, kind: kind, measure: measure, source: source, start: start, reading: reading, into: &output)
    }
}
