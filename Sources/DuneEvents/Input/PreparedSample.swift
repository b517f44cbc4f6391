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
    static func prepareSample(_ bytes: UnsafeRawBufferPointer, data: inout [UInt8], scratch: inout [UInt8]) -> PreparedSample? {
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

        // The `data` object exactly as `EventCodec` writes it: keys in UTF-8 order
        // end, eventID, id, input, kind, source, start, unit, value. Strings hold no
        // escapes (the scanner takes none), so they are copied as written.
        let first = data.count
        func quoted(_ slice: LineSlice) {
            data.append(UInt8(ascii: "\""))
            data.append(contentsOf: c.bytes(slice))
            data.append(UInt8(ascii: "\""))
        }
        data.appendLiteral(#"{"end":"#)
        quoted(line.end)
        if let eventID {
            data.appendLiteral(#","eventID":"#)
            JSONWriter.writeString(eventID, into: &data)
        }
        data.appendLiteral(#","id":"#)
        quoted(line.id)
        if case .quantity(let quantity) = reading, let canonicalUnit = line.kind.canonicalUnit, quantity.inputUnit != canonicalUnit {
            data.appendLiteral(#","input":{"unit":"#)
            JSONWriter.writeString(quantity.inputUnit, into: &data)
            data.appendLiteral(#","value":"#)
            JSONWriter.writeNumberQuickly(quantity.inputValue, into: &data)
            data.append(UInt8(ascii: "}"))
        }
        data.appendLiteral(#","kind":"#)
        quoted(line.kindText)
        data.appendLiteral(#","source":"#)
        quoted(line.source)
        data.appendLiteral(#","start":"#)
        quoted(line.start)
        switch reading {
        case .quantity(let quantity):
            data.appendLiteral(#","unit":"#)
            JSONWriter.writeString(line.kind.canonicalUnit ?? quantity.inputUnit, into: &data)
            data.appendLiteral(#","value":"#)
            JSONWriter.writeNumberQuickly(quantity.value, into: &data)
        case .sleep(let stage):
            data.appendLiteral(#","value":"#)
            JSONWriter.writeString(stage.rawValue, into: &data)
        case .workout:
            break
        }
        data.append(UInt8(ascii: "}"))
        return PreparedSample(content: content, key: key, id: id, eventID: eventID, data: first..<data.count)
    }
}
