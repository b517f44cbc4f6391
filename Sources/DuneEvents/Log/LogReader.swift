/// Streams a log's events in `seq` order, in batches, without loading the file.
///
/// Readers take no lock and never block a writer. Each line is checked as it
/// is read: CRC, JSON, and `seq` exactly one more than the line before. A
/// damaged line stops the read with ``DuneEventsError/Code/corruptLog``
/// naming its line and byte offset, so no number is ever computed from
/// damaged events. Bytes after the last `\n` (a line a writer is still
/// appending, or a torn tail not yet quarantined) are not read.
package struct LogReader: Sendable {
    /// Where a read ended.
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

    /// Events per batch handed to the body.
    package var batchSize: Int
    let file: LogFile

    /// A reader over an open log file.
    package init(file: LogFile, batchSize: Int = 4096) {
        self.file = file
        self.batchSize = batchSize
    }

    /// Opens the log at `path` for reading.
    ///
    /// - Throws: `inputUnavailable` when the file is missing or unreadable.
    package init(path: String, batchSize: Int = 4096) throws(DuneEventsError) {
        self.init(file: try LogFile.openForReading(path: path), batchSize: batchSize)
    }

    /// Calls `body` with consecutive batches of events, in `seq` order.
    ///
    /// Decodes with the fast path (``forEachEventBatch(_:parallelism:_:)``)
    /// and hands the events over in full, at most ``batchSize`` at a time.
    ///
    /// - Parameters:
    ///   - after: skip events with `seq` ≤ this (they are still checked).
    ///   - through: stop after this seq.
    /// - Throws: `DuneEventsError` `corruptLog` at the first damaged line; whatever `body` throws.
    /// - Complexity: O(n) in the log's size; memory O(batchSize + chunk).
    @discardableResult
    package func forEachBatch(after: Int = 0, through: Int = .max,
                             _ body: ([RecordedEvent]) throws -> Void) throws -> End {
        let batchSize = max(1, self.batchSize)
        return try forEachEventBatch(Range(after: after, throughSeq: through)) { batch in
            var start = 0
            while start < batch.count {
                let end = min(batch.count, start + batchSize)
                try body((start..<end).map { batch[$0] })
                start = end
            }
        }
    }

    /// ``forEachBatch(after:through:_:)`` with the reference decoder
    /// (``EventCodec/decode(_:)`` on every line, one thread): the slow path
    /// the fast one is checked against.
    @discardableResult
    package func forEachReferenceBatch(after: Int = 0, through: Int = .max,
                                       _ body: ([RecordedEvent]) throws -> Void) throws -> End {
        struct ReachedLimit: Error {}
        var batch: [RecordedEvent] = []
        batch.reserveCapacity(batchSize)
        var expectedSeq = 1
        var end = End(validBytes: 0, lastSeq: 0, lines: 0, trailingBytes: 0)
        let path = file.path
        do {
            let readEnd = try LogLineReader(file: file).forEachLine { line in
                // Past the last line asked for: it is not read, so damage there does not matter.
                if expectedSeq > through { throw ReachedLimit() }
                let event = try Self.decode(line.bytes, lineNumber: line.number, offset: line.byteOffset, path: path)
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

    /// All events in `after+1 ... through`, as one array (small logs, tests).
    package func events(after: Int = 0, through: Int = .max) throws -> [RecordedEvent] {
        var all: [RecordedEvent] = []
        try forEachBatch(after: after, through: through) { batch in all.append(contentsOf: batch) }
        return all
    }

    /// Checks and decodes one stored line.
    static func decode(_ line: UnsafeRawBufferPointer, lineNumber: Int, offset: Int, path: String) throws(DuneEventsError) -> RecordedEvent {
        let location = DuneEventsError.Location(path: path, line: lineNumber, byteOffset: offset)
        guard StoredLine.isIntact(line) else {
            throw DuneEventsError(.corruptLog, "the line's CRC does not match its bytes (damaged or edited); restore the log from a backup or cut it before this line",
                                  location: location)
        }
        do {
            return try EventCodec.decode(line)
        } catch {
            throw LogReader.decodingError(error, location: location)
        }
    }
}
