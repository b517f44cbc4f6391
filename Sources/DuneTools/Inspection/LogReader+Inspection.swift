import DuneEvents

/// One stored line as the inspection commands read it: an event, or a line
/// of a newer version than this build reads, named but not interpreted.
package enum InspectedLine: Sendable {
    /// An event of a version this build reads (upcast to the current shape).
    case event(RecordedEvent)
    /// A line of a newer version: its envelope and its stored bytes.
    case newer(NewerLine)
}

/// A stored line of a newer version than this build reads: what
/// `verify`, `history`, `show`, `tail` and `stats` name instead of refusing.
package struct NewerLine: Sendable, Equatable {
    /// The line's envelope: `v`, `seq`, `id`, `type` and `recordedAt`.
    package var envelope: StoredEnvelope
    /// The line's type, version and seq, as the refusal names them.
    package var newer: NewerVersion
    /// The line as stored, without its `\n`.
    package var bytes: [UInt8]
    /// The line's 1-based number and byte offset in the file.
    package var lineNumber: Int
    package var byteOffset: Int

    package init(envelope: StoredEnvelope, newer: NewerVersion, bytes: [UInt8], lineNumber: Int, byteOffset: Int) {
        self.envelope = envelope
        self.newer = newer
        self.bytes = bytes
        self.lineNumber = lineNumber
        self.byteOffset = byteOffset
    }

    /// `seq 12: sample.ingested version 99, newer than this build reads (up to version 2)`.
    package var summary: String {
        "seq \(envelope.seq): \(envelope.type) version \(envelope.version), newer than this build reads (up to version \(newer.newest))"
    }
}

/// The members of a stored line's envelope, read without its `data`: what
/// can be said of a line whose `data` this build cannot interpret.
package struct StoredEnvelope: Sendable, Hashable {
    package var version: Int
    package var seq: Int
    package var id: String
    package var type: String
    package var recordedAt: String

    /// The envelope of `line` (without its `\n`), or `nil` when the line is not
    /// a JSON object with these members of these types.
    package init?(_ line: ByteView) {
        guard case .object(let object)? = try? JSONParser.parse(line.buffer),
              case .number(let version)? = object["v"], case .number(let seq)? = object["seq"],
              case .string(let id)? = object["id"], case .string(let type)? = object["type"],
              case .string(let recordedAt)? = object["recordedAt"],
              version == version.rounded(), seq == seq.rounded(), abs(version) < 1e15, abs(seq) < 1e15
        else { return nil }
        self.version = Int(version)
        self.seq = Int(seq)
        self.id = id
        self.type = type
        self.recordedAt = recordedAt
    }
}

extension LogReader {
    /// Calls `body` with every line from `seq > after` through `through`, one
    /// at a time through the reference decoder, naming lines of a newer
    /// version (``InspectedLine/newer(_:)``) instead of stopping at them.
    ///
    /// The inspection commands read with the fast reader, and continue with
    /// this from the first newer line it stopped at: so a log that a later
    /// version wrote can still be verified, listed and counted.
    ///
    /// - Throws: `corruptLog` for a damaged line, a gap in `seq`, or a line
    ///   whose envelope cannot be read; whatever `body` throws.
    /// - Complexity: O(n) in the log's bytes (every line is parsed in full).
    package func forEachInspectedLine(after: Int = 0, through: Int = .max, _ body: (InspectedLine) throws -> Void) throws {
        struct ReachedLimit: Error {}
        var expected: Int?
        do {
            _ = try LogLineReader(file: file).forEachLine { line in
                let location = DuneEventsError.Location(path: file.path, line: line.number, byteOffset: line.byteOffset)
                guard StoredLine.isIntact(line.bytes) else {
                    throw DuneEventsError(.corruptLog, LogReader.crcMismatchReason, location: location)
                }
                let inspected: InspectedLine
                let seq: Int
                switch Result(catching: { () throws(EventCodec.DecodeError) in try EventCodec.decode(line.bytes) }) {
                case .success(let event):
                    inspected = .event(event)
                    seq = event.seq
                case .failure(let error):
                    guard let newer = error.newer, let envelope = StoredEnvelope(line.bytes) else {
                        throw LogReader.decodingError(error, location: location)
                    }
                    inspected = .newer(NewerLine(envelope: envelope, newer: newer, bytes: line.bytes.copied, lineNumber: line.number,
                                                 byteOffset: line.byteOffset))
                    seq = envelope.seq
                }
                if let expected, seq != expected {
                    throw DuneEventsError(.corruptLog, LogReader.seqGapReason(seq, expected: expected),
                                          location: .init(path: file.path, line: line.number, byteOffset: line.byteOffset, seq: seq))
                }
                expected = seq + 1
                if seq > through { throw ReachedLimit() }
                if seq > after { try body(inspected) }
            }
        } catch is ReachedLimit {
            return
        }
    }
}
