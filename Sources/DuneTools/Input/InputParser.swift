import DuneEvents
import DuneHealthImport

/// Parses and validates input lines (docs/input-format.md) into ``IngestCommand``s:
/// the JSON line front end of `InputRules`, for `dune-replay ingest` and the
/// tests (an app appends typed values through `DuneStore`).
///
/// Every rejection carries one precise reason naming the field, e.g.
/// `field "start": timestamp "2026-02-28T07:12:00" has no UTC offset; add 'Z' or '±HH:MM'`.
/// Unknown fields are kept in ``IngestCommand/extra``.
package enum InputParser {
    /// Lines longer than this are rejected without being parsed.
    package static let maximumLineBytes = 1 << 20

    /// Why an input line was rejected: the one rejection type of input, typed or JSON.
    package typealias Rejection = DuneEvents.Rejection

    /// Parses one input line (without its newline): the fast parsers for the
    /// common lines, else ``parseGeneral(_:)``.
    ///
    /// - Throws: ``Rejection`` with the reason.
    package static func parse(_ line: UnsafeRawBufferPointer) throws(Rejection) -> IngestCommand {
        if line.count <= maximumLineBytes, let command = parseSample(ByteView(line)) ?? parseSignal(ByteView(line)) {
            return command
        }
        return try parseGeneral(line)
    }

    /// The general parser: any line, through `JSONParser` and
    /// `InputRules.command(from:)`, every rejection worded. ``parse(_:)-(UnsafeRawBufferPointer)``
    /// falls back to it for every line its fast parsers do not take (other
    /// shapes, other spellings, every rejected line); the tests check that
    /// the fast parsers give what it gives for the lines they take.
    package static func parseGeneral(_ line: UnsafeRawBufferPointer) throws(Rejection) -> IngestCommand {
        guard line.count <= maximumLineBytes else {
            throw Rejection(.lineTooLong, field: nil, "line is \(line.count) bytes; the limit is \(maximumLineBytes)")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            throw Rejection(.invalidJSON, field: nil, "invalid JSON at column \(error.column): \(error.reason)")
        }
        guard case .object(let object) = value else {
            throw Rejection(.notAnObject, field: nil, "expected a JSON object, got \(value.typeDescription)")
        }
        return try InputRules.command(from: object)
    }

    /// Parses one input line given as text (tests, small inputs).
    package static func parse(_ line: String) throws(Rejection) -> IngestCommand {
        let bytes = Array(line.utf8)
        let result: Result<IngestCommand, Rejection> = bytes.withUnsafeBytes { buffer in
            do throws(Rejection) { return .success(try parse(buffer)) } catch { return .failure(error) }
        }
        return try result.get()
    }

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
        SampleObjectWriter.writeLineMembers(.storedData(eventID: eventID, extra: JSONObject(), input: input),
                                            end: UnescapedJSONText(bytes: c.view(line.end)), id: UnescapedJSONText(bytes: c.view(line.id)),
                                            kind: UnescapedJSONText(bytes: c.view(line.kindText)), measure: line.hrvMeasure,
                                            source: UnescapedJSONText(bytes: c.view(line.source)),
                                            start: UnescapedJSONText(bytes: c.view(line.start)), reading: value, into: &data)
        return PreparedSample(content: content, key: key, id: id, eventID: eventID, data: first..<data.count)
    }
}
