/// A common sample input line, prepared for appending without an
/// ``IngestCommand`` or a ``RecordedEvent``: the digests the deciders compare,
/// and the `data` object of its stored line, already written.
///
/// Prepared on the parsing threads (see `RawLineWindow`); ``EventLog`` then
/// decides on it exactly as on the command ``InputParser/parse(_:)-(UnsafeRawBufferPointer)``
/// would give (same digests, same reasons) and writes the envelope around
/// the `data` bytes — the same line ``EventCodec`` writes for that event.
package struct PreparedSample: Sendable {
    /// Digest of the line's canonical content (``IngestCommand/content``).
    package var content: ContentDigest
    /// Digest of the sample id.
    package var key: ContentDigest
    /// The sample id (only canonical UUIDs are prepared).
    package var id: PackedUUID
    package var eventID: String?
    /// The stored line's `data` object in the batch's data buffer.
    package var data: Range<Int>
}

extension InputParser {
    /// Prepares `bytes` when it is the common sample line (see ``scanSample(_:)``)
    /// whose id is a canonical UUID and whose timestamps have canonical text,
    /// and it passes validation; `nil` otherwise, appending nothing (parse it
    /// with ``parse(_:)-(UnsafeRawBufferPointer)``).
    ///
    /// - Parameters:
    ///   - data: receives the stored line's `data` object.
    ///   - scratch: working space for the content.
    package static func prepareSample(_ bytes: UnsafeRawBufferPointer, data: inout [UInt8], scratch: inout [UInt8]) -> PreparedSample? {
        guard let base = bytes.baseAddress else { return nil }
        var c = Cursor(base: base, end: bytes.count)
        guard let line = scanSample(&c), let id = PackedUUID(utf8: c.bytes(line.id)),
              let start = PackedTimestamp(canonical: c.bytes(line.start)), let end = PackedTimestamp(canonical: c.bytes(line.end)),
              TimestampWindow.contains(epochSeconds: start.epochSeconds), TimestampWindow.contains(epochSeconds: end.epochSeconds)
        else { return nil }
        // `Timestamp.seconds(since:)`, from the same numbers.
        let seconds = Double(end.epochSeconds - start.epochSeconds) + Double(end.nanoseconds - start.nanoseconds) / 1e9
        guard let (reading, _) = reading(of: line, seconds: seconds, c) else { return nil }
        var eventID: String?
        if let slice = line.eventID {
            guard let text = c.text(slice) else { return nil }
            eventID = text
        }
        if line.source.nonASCII, c.text(line.source) == nil { return nil }
        scratch.removeAll(keepingCapacity: true)
        writeContent(of: line, c, into: &scratch)
        let content = ContentDigest(scratch)
        let key = ContentDigest(c.bytes(line.id))

        // The `data` object exactly as `EventCodec` writes it. Strings hold no
        // escapes (the scanner takes none), so they are copied as written.
        let first = data.count
        var input: Quantity?
        let value: SampleObjectWriter.Reading<String>
        switch reading {
        case .quantity(let quantity):
            let unit = line.kind.canonicalUnit ?? quantity.inputUnit
            if quantity.inputUnit != unit { input = quantity }
            value = .quantity(unit: unit, value: quantity.value)
        case .sleep(let stage):
            value = .sleep(stage: stage.rawValue)
        case .workout:
            return nil
        }
        SampleObjectWriter.write(.storedData(eventID: eventID, extra: JSONObject(), input: input),
                                 end: UnescapedJSONText(bytes: c.view(line.end)), id: UnescapedJSONText(bytes: c.view(line.id)),
                                 kind: UnescapedJSONText(bytes: c.view(line.kindText)), measure: line.hrvMeasure,
                                 source: UnescapedJSONText(bytes: c.view(line.source)),
                                 start: UnescapedJSONText(bytes: c.view(line.start)), reading: value, into: &data)
        return PreparedSample(content: content, key: key, id: id, eventID: eventID, data: first..<data.count)
    }
}
