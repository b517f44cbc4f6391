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

    package let file: LogFile

    /// A reader over an open log file.
    package init(file: LogFile) {
        self.file = file
    }

    /// Opens the log at `path` for reading.
    ///
    /// - Throws: `inputUnavailable` when the file is missing or unreadable.
    package init(path: String) throws(DuneEventsError) {
        self.init(file: try LogFile.openForReading(path: path))
    }
}

extension LogReader {
    /// Which events a replay reads.
    package struct Range: Sendable, Equatable {
        /// Skip events with `seq` ≤ this.
        package var after: Int
        /// Stop after this seq.
        package var throughSeq: Int
        /// Stop before the first event recorded after this time: the log as it
        /// was at that moment. Appends only add later `recordedAt`s, so this
        /// equals truncating the log there (as long as the writer's clock never
        /// stepped back).
        package var asOf: Timestamp?

        package init(after: Int = 0, throughSeq: Int = .max, asOf: Timestamp? = nil) {
            self.after = after
            self.throughSeq = throughSeq
            self.asOf = asOf
        }
    }
}
