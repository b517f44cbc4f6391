import DuneEvents

/// Checks a whole log without trusting any of it: every line's CRC and JSON,
/// `seq` gapless from 1, and event ids unique. Used by `dune-replay verify`.
package enum LogVerifier {
    /// One problem found, with its place in the file.
    package struct Problem: Sendable, Hashable, CustomStringConvertible {
        package var line: Int
        package var byteOffset: Int
        package var reason: String

        package var description: String { "line \(line), byte \(byteOffset): \(reason)" }
    }

    /// What `verify` found.
    package struct Report: Sendable {
        package var path: String
        package var lines = 0
        package var bytes = 0
        package var lastSeq = 0
        /// Bytes after the last `\n` (a torn tail the next writer will quarantine).
        package var trailingBytes = 0
        /// Whether another process held the writer lock when the read ended: the
        /// trailing bytes are then a batch being appended, not a torn tail.
        package var writerActive = false
        /// Problems in file order; at most ``maximumProblems`` are kept.
        package var problems: [Problem] = []
        /// All problems counted, including those not kept.
        package var problemCount = 0
        /// Intact events with a timestamp outside ``TimestampWindow`` (written by an
        /// older version): not damage — every projection skips them — but worth a
        /// look. At most ``maximumProblems`` are kept, in file order.
        package var warnings: [Problem] = []
        /// All such events counted, including those not kept.
        package var warningCount = 0
        /// Intact lines of a newer version than this build reads (a later
        /// version wrote them): not damage, but nothing here can interpret
        /// them. At most ``maximumProblems`` are kept, in file order.
        package var newerLines: [Problem] = []
        /// All such lines counted, including those not kept.
        package var newerCount = 0

        /// No damaged line, and no torn tail (bytes after the last `\n` while no writer is appending).
        package var isIntact: Bool { problemCount == 0 && (trailingBytes == 0 || writerActive) }
    }

    /// Problems kept in a report (all are counted).
    package static let maximumProblems = 100

    /// Verifies the log at `path`.
    ///
    /// - Throws: `inputUnavailable` when the file cannot be opened or read.
    /// - Complexity: O(n) time; memory O(events) for the id set.
    package static func verify(path: String) throws -> Report {
        let file = try LogFile.openForReading(path: path)
        defer { try? file.close() }
        var report = Report(path: path)
        var expectedSeq = 1
        // After damaged lines, how many events they held is unknown: a flipped byte
        // can make or unmake a newline, splitting one line or joining two. The next
        // intact line then only has to go forward; counting resumes from it.
        var afterDamage = false
        var ids: [String: Int] = [:]
        func note(_ line: Int, _ offset: Int, _ reason: String) {
            report.problemCount += 1
            if report.problems.count < maximumProblems {
                report.problems.append(Problem(line: line, byteOffset: offset, reason: reason))
            }
        }
        let end = try LogLineReader(file: file).forEachLine { line in
            report.lines += 1
            guard StoredLine.isIntact(line.bytes) else {
                note(line.number, line.byteOffset, StoredLine.payloadLength(of: line.bytes) == nil
                     ? "no CRC trailer: the line is cut or edited"
                     : "CRC mismatch: the line's bytes changed after it was written")
                afterDamage = true
                return
            }
            let decoded = Result { () throws(EventCodec.DecodeError) in try EventCodec.decode(line.bytes) }
            let seq: Int, id: String
            var decodedEvent: RecordedEvent?
            switch decoded {
            case .success(let event):
                (seq, id, decodedEvent) = (event.seq, event.id, event)
            case .failure(let error):
                // A newer version: its envelope is still checked; its data is not read.
                guard let newer = error.newer, let envelope = StoredEnvelope(line.bytes) else {
                    note(line.number, line.byteOffset, "CRC is valid but the line cannot be decoded: \(error.reason)")
                    afterDamage = true
                    return
                }
                report.newerCount += 1
                if report.newerLines.count < maximumProblems {
                    report.newerLines.append(Problem(line: line.number, byteOffset: line.byteOffset, reason: newer.reason))
                }
                (seq, id) = (envelope.seq, envelope.id)
            }
            if afterDamage ? seq <= report.lastSeq : seq != expectedSeq {
                let expected = afterDamage ? "more than \(report.lastSeq)" : "\(expectedSeq)"
                note(line.number, line.byteOffset, "seq \(seq) where \(expected) was expected (gap or reordering)")
            }
            afterDamage = false
            if let event = decodedEvent, event.isOutsideTimestampWindow {
                report.warningCount += 1
                if report.warnings.count < maximumProblems {
                    report.warnings.append(Problem(line: line.number, byteOffset: line.byteOffset,
                                                   reason: outsideWindowReason(event)))
                }
            }
            if let first = ids[id] {
                note(line.number, line.byteOffset, "event id \(id) repeats the id of line \(first)")
            } else {
                ids[id] = line.number
            }
            report.lastSeq = seq
            expectedSeq = seq + 1
        }
        report.bytes = end.endOffset + end.trailingByteCount
        report.trailingBytes = end.trailingByteCount
        if report.trailingBytes > 0 { report.writerActive = file.hasActiveWriter() }
        return report
    }

    /// "seq 7 (sample.ingested): start 0001-01-01T00:00:00+14:00 is outside …".
    static func outsideWindowReason(_ event: RecordedEvent) -> String {
        var named: [(String, Timestamp)] = []
        switch event.payload {
        case .sampleIngested(let sample): named = [("start", sample.start), ("end", sample.end)]
        case .sampleDeleted(let deletion): named = [("at", deletion.at)]
        case .refreshRequested(let record): named = [("at", record.at)]
        case .task(let record): named = [("at", record.at)]
        case .profileUpdated(let update): named = [("at", update.at)]
        case .redacted, .dataForgotten, .syncAnchored: named = []
        }
        let outside = named.filter { !TimestampWindow.contains($0.1) }.map { "\($0.0) \($0.1.text)" }
        return "seq \(event.seq) (\(event.type.rawValue)): \(outside.joined(separator: " and ")) outside \(TimestampWindow.description);"
            + " stored by an older version, skipped by every read model"
    }
}
