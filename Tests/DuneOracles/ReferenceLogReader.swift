import DuneEvents
import DuneTools

/// The reference read of a log: every line through the reference decoder
/// (``EventCodec/decode(_:)``), one line after another on one thread, every
/// event in full. The fast read (`LogReader.forEachEventBatch`: chunks, the
/// stored-line scanner, threads) is checked against it, event for event and
/// error for error; nothing else uses it, so it lives with the tests.
package enum ReferenceLogReader {
    /// Where a read ended; the fields of `LogReader.End`.
    package struct End: Sendable, Equatable {
        /// Byte offset just after the last complete line read.
        package var validBytes: Int
        /// The seq of the last event read (0 when none).
        package var lastSeq: Int
        /// The number of lines read.
        package var lines: Int
        /// Bytes after the last `\n`, not read.
        package var trailingBytes: Int
    }

    /// Calls `body` with consecutive batches of at most `batchSize` events of
    /// the log at `path` with `after < seq <= through`, in `seq` order.
    ///
    /// - Throws: `DuneEventsError` `corruptLog` at the first line whose CRC,
    ///   JSON or seq is wrong (worded as the fast read words it); whatever `body` throws.
    @discardableResult
    package static func forEachBatch(path: String, batchSize: Int = 4096, after: Int = 0, through: Int = .max,
                                     _ body: ([RecordedEvent]) throws -> Void) throws -> End {
        struct ReachedLimit: Error {}
        let batchSize = max(1, batchSize)
        var batch: [RecordedEvent] = []
        batch.reserveCapacity(batchSize)
        var expectedSeq = 1
        var end = End(validBytes: 0, lastSeq: 0, lines: 0, trailingBytes: 0)
        do {
            let readEnd = try LogLineReader(path: path).forEachLine { line in
                // Past the last line asked for: it is not read, so damage there does not matter.
                if expectedSeq > through { throw ReachedLimit() }
                let event = try decode(line.bytes, lineNumber: line.number, offset: line.byteOffset, path: path)
                guard event.seq == expectedSeq else {
                    throw DuneEventsError(.corruptLog, "seq \(event.seq) where \(expectedSeq) was expected: the log has a gap or a reordered line",
                                          location: .init(path: path, line: line.number, byteOffset: line.byteOffset, seq: event.seq))
                }
                if event.seq > through { throw ReachedLimit() }
                expectedSeq += 1
                end.validBytes = line.endOffset
                if event.seq > after {
                    batch.append(event)
                    if batch.count >= batchSize {
                        try body(batch)
                        batch.removeAll(keepingCapacity: true)
                    }
                }
            }
            end.trailingBytes = readEnd.trailingByteCount
        } catch is ReachedLimit {
            // Stopped at `through`.
        }
        if !batch.isEmpty { try body(batch) }
        end.lastSeq = expectedSeq - 1
        end.lines = expectedSeq - 1
        return end
    }

    /// Checks one stored line's CRC and decodes it with the reference decoder.
    static func decode(_ line: ByteView, lineNumber: Int, offset: Int, path: String) throws(DuneEventsError) -> RecordedEvent {
        let location = DuneEventsError.Location(path: path, line: lineNumber, byteOffset: offset)
        guard StoredLine.isIntact(line) else {
            throw DuneEventsError(.corruptLog, "the line's CRC does not match its bytes (damaged or edited); restore the log from a backup or cut it before this line",
                                  location: location)
        }
        do {
            return try EventCodec.decode(line)
        } catch {
            throw DuneEventsError(.corruptLog, "the line has a valid CRC but cannot be decoded: \(error.reason)", location: location)
        }
    }
}
