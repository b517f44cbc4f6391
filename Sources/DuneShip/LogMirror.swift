import DuneEvents
import DuneTools

/// What one mirror did.
package struct MirrorSummary: Sendable, Equatable {
    package var stream = ""
    package var subject = ""
    /// Lines the output held already (a prefix of the subject).
    package var alreadyHeld = 0
    /// Lines appended now.
    package var appended = 0
}

/// Writes a subject's lines into a log file byte for byte: the
/// output is the shipped log, so `verify` passes and `rebuild` gives the same bytes.
///
/// The output is a log like any other: created 0600, appended under its
/// writer lock, synced before `mirror` returns. An existing output must be a
/// prefix of the subject's lines; mirror appends the rest. Blocking, like
/// `LogShipper`: run it on a thread the caller owns.
package enum LogMirror {
    package static func mirror(url: NatsURL, subject: String, outputPath: String, timeoutMilliseconds: Int = 30_000,
                               warn: (String) -> Void) throws(ShipError) -> MirrorSummary {
        do {
            return try mirrorOrThrow(url: url, subject: subject, outputPath: outputPath, timeoutMilliseconds: timeoutMilliseconds, warn: warn)
        } catch let error as ShipError {
            throw error
        } catch let error as NatsError {
            throw ShipError(error)
        } catch let error as DuneEventsError {
            throw ShipError(error)
        } catch {
            throw ShipError(.failed, "\(error)")
        }
    }

    private static func mirrorOrThrow(url: NatsURL, subject: String, outputPath: String, timeoutMilliseconds: Int,
                                      warn: (String) -> Void) throws -> MirrorSummary {
        let connection = try NatsConnection.connect(url, name: "dune-replay mirror", timeoutMilliseconds: timeoutMilliseconds, warn: warn)
        defer { connection.close() }
        let jetStream = JetStream(connection)
        guard let name = try jetStream.streamName(capturing: subject), let stream = try jetStream.streamInfo(name) else {
            throw ShipError(.inputUnavailable, "no stream on \(url) captures the subject '\(subject)'; nothing to mirror")
        }
        var summary = MirrorSummary(stream: stream.name, subject: subject)

        let output = try LogFile.openForAppend(path: outputPath, create: true, lock: .failIfLocked)
        defer { try? output.close() }
        // The lines the output holds already: where each ends, to compare them with the subject's first ones.
        var existingEnds: [Int] = []
        let end = try LogLineReader(file: output).forEachLine { line in existingEnds.append(line.endOffset) }
        if end.trailingByteCount > 0 {
            throw ShipError(.conflict, "'\(outputPath)' ends in an unfinished line (\(end.trailingByteCount) bytes after the last newline): it is not a prefix of the subject '\(subject)'; nothing was written")
        }

        var count = 0
        var pending: [UInt8] = []
        pending.reserveCapacity(4 << 20)
        try SubjectReader(jetStream: jetStream, stream: stream, subject: subject).forEach { message in
            count += 1
            if count <= existingEnds.count {
                let start = count == 1 ? 0 : existingEnds[count - 2]
                let held = try output.bytes(upTo: existingEnds[count - 1] - 1 - start, at: start)
                guard held == message.payload else {
                    throw ShipError(.conflict, "'\(outputPath)' is not a prefix of the subject '\(subject)': its line \(count) differs from the subject's message \(count) (stream sequence \(message.sequence)); nothing was written")
                }
                return
            }
            guard StoredLine.isIntact(message.payload), let fields = StoredLineFields(message.payload), fields.seq == count else {
                // The lines before it are a log's prefix: keep them, durably.
                try output.append(pending, sync: true)
                throw ShipError(.conflict, "the subject '\(subject)' is not a DuneEvents log: its message \(count) (stream sequence \(message.sequence)) is not an intact stored line with seq \(count); the output holds the \(count - 1) lines before it")
            }
            pending.append(contentsOf: message.payload)
            pending.append(UInt8(ascii: "\n"))
            summary.appended += 1
            if pending.count >= 4 << 20 {
                try output.append(pending, sync: false)
                pending.removeAll(keepingCapacity: true)
            }
        }
        try output.append(pending, sync: false)
        if count < existingEnds.count {
            throw ShipError(.conflict, "'\(outputPath)' holds \(existingEnds.count) lines, the subject '\(subject)' only \(count): the output is not a prefix of the subject; nothing was written")
        }
        try output.sync()
        summary.alreadyHeld = min(count, existingEnds.count)
        return summary
    }
}
