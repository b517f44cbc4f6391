import Dispatch
import DuneEvents
import DuneTools

/// What `ship` is asked to do.
package struct ShipOptions: Sendable {
    package var logPath: String
    package var url: NatsURL
    package var subject: String
    /// A stream to create (file storage, capturing `subject`) when it does not exist;
    /// `nil`: the stream that captures `subject` must exist.
    package var stream: String?
    /// Lines per atomic batch (the server's limit is 1000).
    package var window = 1000
    /// How long one wait for the server may last.
    package var timeoutMilliseconds = 30_000
    package var clientName = "dune-replay ship"

    package init(logPath: String, url: NatsURL, subject: String, stream: String? = nil) {
        self.logPath = logPath
        self.url = url
        self.subject = subject
        self.stream = stream
    }
}

/// What one ship did.
package struct ShipSummary: Sendable, Equatable {
    package var stream = ""
    package var subject = ""
    /// Complete lines in the log.
    package var logLines = 0
    /// Lines the subject held already (after a purge: none).
    package var alreadyHeld = 0
    /// Lines published now.
    package var published = 0
    /// Whether the subject was purged because it held lines the log now holds redacted (a forget).
    package var replacedRedacted = false
    /// Messages purged for that.
    package var purged = 0
    /// Messages holding a line now redacted, erased (overwritten in the server's storage) before the purge.
    package var erased = 0
    /// The log's forget generation (its `data.forgotten` events), the last part of each `Nats-Msg-Id`.
    package var forgetGeneration = 0
    /// How lines were published (docs/shipping.md, "Pipelining").
    package var mode = PublishMode.none
}

/// How a ship publishes, chosen by the stream (docs/shipping.md, "Pipelining").
package enum PublishMode: String, Sendable, Equatable {
    /// Nothing was published.
    case none
    /// A stream of this subject alone: a pipeline of plain publishes, each naming the stream
    /// sequence before it (`Nats-Expected-Last-Sequence`), acknowledged every `window` lines.
    case chained
    /// A stream shared with other subjects, with atomic publishing: one atomic batch of
    /// `window` lines at a time, its first message naming the subject's last sequence.
    case atomicBatches
    /// A shared stream without atomic publishing: one acknowledged publish per line.
    case oneByOne
}

/// Ships a log to a JetStream subject (docs/shipping.md): every stored line the subject
/// does not hold yet, in seq order, exactly once.
///
/// Blocking: every call waits on the log file and the socket. Run it on a
/// thread the caller owns (`run(on:)` does, on a `DispatchQueueExecutor`),
/// never on Swift's cooperative pool. One owner at a time (not `Sendable`).
///
/// How a failure mid-way keeps the guarantees (docs/shipping.md, "Pipelining"):
/// lines go in atomic batches of `window` lines (nats-server 2.12+,
/// `allow_atomic`): the server stores a batch whole at its commit or not at
/// all, and the batch's first message carries
/// `Nats-Expected-Last-Subject-Sequence`, the subject's last stream sequence
/// before the batch, so a batch lands only right after the lines it follows.
/// One batch is in flight at a time; within it, messages are pipelined
/// without waiting. On a stream without atomic publishing every line is its
/// own acknowledged publish with that header.
package final class LogShipper {
    package let options: ShipOptions
    private let connection: NatsConnection
    private let jetStream: JetStream
    private var streamInfo: JetStream.StreamInfo?

    /// Test hooks: make a publish fail mid-window.
    package enum Fault: Sendable, Equatable {
        /// Write the first `count` messages of this ship, then drop the connection
        /// (as a crash or a network failure would), before the batch's commit.
        case dropConnection(afterMessages: Int)
        /// Give message `number` (1-based, counted in this ship) an expectation the
        /// server refuses (`Nats-Expected-Last-Sequence` 1 on a stream past it).
        case refuseMessage(number: Int)
        /// Write the first `count` messages, flush them, print `ship: paused after
        /// <count> messages` on stderr and wait there 300 s, so a test can kill the
        /// process mid-ship at a known point (`DUNE_SHIP_PAUSE_AFTER`, read only by `dune-replay ship`).
        case pause(afterMessages: Int)
    }
    package var fault: Fault?
    private var messagesThisShip = 0

    private init(options: ShipOptions, connection: NatsConnection) {
        self.options = options
        self.connection = connection
        jetStream = JetStream(connection)
    }

    /// Connects to the server of `options.url`.
    ///
    /// - Throws: `ShipError` `.unavailable` (with the URL) when it cannot be reached.
    package static func connect(_ options: ShipOptions, warn: (String) -> Void) throws(ShipError) -> LogShipper {
        do {
            let connection = try NatsConnection.connect(options.url, name: options.clientName,
                                                        timeoutMilliseconds: options.timeoutMilliseconds, warn: warn)
            return LogShipper(options: options, connection: connection)
        } catch {
            throw ShipError(error)
        }
    }

    package func close() {
        connection.close()
    }

    // MARK: - One ship

    /// Publishes what the subject lacks; see the type's documentation.
    ///
    /// - Throws: `ShipError`: `.damagedLog` before anything is published when a
    ///   line fails its CRC or a seq is out of order; `.conflict` with nothing
    ///   published when the subject holds lines the log does not;
    ///   `.unavailable` when the server stops answering.
    package func ship() throws(ShipError) -> ShipSummary {
        messagesThisShip = 0
        do {
            // A ship killed a moment ago may still have messages in the server's queues, stored
            // after this ship read where the subject ends: its chain then breaks at once ("wrong
            // last sequence"). Reading the subject again and resuming is what a re-run would do.
            var attempt = 1
            while true {
                do {
                    return try shipOrThrow()
                } catch let error as NatsError where error.kind == .jetStream(code: 400, errorCode: 10071) && attempt < 3 && fault == nil {
                    attempt += 1
                }
            }
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

    private func shipOrThrow() throws -> ShipSummary {
        let stream = try resolveStream()
        let subject = options.subject
        var summary = ShipSummary(stream: stream.name, subject: subject)
        let scan = try LogScan(path: options.logPath)
        summary.logLines = scan.lineEnds.count
        summary.forgetGeneration = scan.forgetGeneration

        let held = try jetStream.streamInfo(stream.name, subjectsFilter: subject)?.subjectCounts[subject] ?? 0
        var start = 1
        var expectedSubjectSequence: UInt64 = 0
        if held > 0, let last = try jetStream.lastMessage(stream.name, subject: subject) {
            let lastFields = StoredLineFields(last.payload)
            let lastGeneration = last.headers["Nats-Msg-Id"].flatMap { $0.split(separator: ":").last.flatMap { Int($0) } }
            if let lastFields, lastFields.seq == held, held <= scan.lineEnds.count, lastGeneration == scan.forgetGeneration,
               try scan.line(held) == last.payload {
                // The common case: the subject is this log's first `held` lines, shipped since the last forget.
                start = held + 1
                expectedSubjectSequence = last.sequence
            } else {
                switch try compareSubject(stream, with: scan) {
                case .prefix(let count, let lastSequence):
                    start = count + 1
                    expectedSubjectSequence = lastSequence
                case .holdsRedacted(let sequences):
                    // Erase first: the purge alone leaves the bytes in blocks shared with other subjects.
                    try jetStream.erase(stream.name, sequences: sequences)
                    summary.erased = sequences.count
                    summary.purged = try jetStream.purge(stream.name, subject: subject)
                    summary.replacedRedacted = true
                }
            }
        }
        summary.alreadyHeld = start - 1
        guard start <= scan.lineEnds.count else { return summary }
        if stream.subjects == [subject] {
            // A stream of this subject alone: every stream sequence is predictable, and each message can name its predecessor.
            summary.mode = .chained
            let lastSequence = try jetStream.streamInfo(stream.name)?.lastSequence ?? 0
            summary.published = try publishChained(from: start, scan: scan, streamLastSequence: lastSequence)
        } else {
            summary.mode = stream.allowsAtomicPublish ? .atomicBatches : .oneByOne
            summary.published = try publish(from: start, scan: scan, stream: stream, expectedSubjectSequence: expectedSubjectSequence)
        }
        return summary
    }

    private func resolveStream() throws -> JetStream.StreamInfo {
        if let streamInfo { return streamInfo }
        let info: JetStream.StreamInfo
        if let name = options.stream {
            if let existing = try jetStream.streamInfo(name) {
                info = existing
            } else {
                info = try jetStream.createStream(name, subject: options.subject)
            }
        } else {
            guard let name = try jetStream.streamName(capturing: options.subject), let existing = try jetStream.streamInfo(name) else {
                throw ShipError(.inputUnavailable,
                                "no stream on \(options.url) captures the subject '\(options.subject)'; pass --stream NAME to create one (file storage)")
            }
            info = existing
        }
        streamInfo = info
        return info
    }

    // MARK: - Comparing a subject with the log

    private enum Comparison {
        /// The subject holds the log's first `count` lines exactly; its last has stream sequence `lastSequence`.
        case prefix(count: Int, lastSequence: UInt64)
        /// The subject holds lines the log holds redacted (a forget since the last ship), at these stream
        /// sequences: erase them, purge the subject and publish again.
        case holdsRedacted([UInt64])
    }

    /// Reads every message of the subject and compares it with the log's line of the same position.
    private func compareSubject(_ stream: JetStream.StreamInfo, with scan: LogScan) throws -> Comparison {
        var count = 0
        var lastSequence: UInt64 = 0
        var redacted: [UInt64] = []
        try SubjectReader(jetStream: jetStream, stream: stream, subject: options.subject).forEach { message in
            count += 1
            lastSequence = message.sequence
            guard count <= scan.lineEnds.count else {
                throw ShipError(.conflict, "the subject '\(options.subject)' holds more lines than the log '\(options.logPath)' (\(scan.lineEnds.count)): it holds another history; nothing was published")
            }
            let line = try scan.line(count)
            if line == message.payload { return }
            if let shipped = StoredLineFields(message.payload), let now = StoredLineFields(line), StoredLineFields.isRedacted(line),
               shipped.seq == now.seq, shipped.id == now.id, shipped.type == now.type, shipped.recordedAt == now.recordedAt {
                redacted.append(message.sequence)
                return
            }
            throw ShipError(.conflict, "the subject '\(options.subject)' holds another history than the log '\(options.logPath)': its message \(count) (stream sequence \(message.sequence)) is not line \(count) of the log; nothing was published")
        }
        return !redacted.isEmpty ? .holdsRedacted(redacted) : .prefix(count: count, lastSequence: lastSequence)
    }

    // MARK: - Publishing

    /// Publishes lines `start…` of the scan; returns how many were stored.
    private func publish(from start: Int, scan: LogScan, stream: JetStream.StreamInfo, expectedSubjectSequence: UInt64) throws -> Int {
        let subject = options.subject
        let atomic = stream.allowsAtomicPublish
        let window = atomic ? max(1, min(options.window, 1000)) : 1
        let total = scan.lineEnds.count
        let generation = scan.forgetGeneration
        var expected = expectedSubjectSequence
        var published = 0
        var inWindow = 0
        var batchID = ""
        var batchNumber = 0
        var header: [UInt8] = []
        header.reserveCapacity(512)
        let reader = LogLineReader(file: scan.file)
        _ = try reader.forEachLine(startingAt: scan.offset(ofLine: start), firstLineNumber: start) { line in
            guard line.number <= total else { return }
            guard let fields = StoredLineFields(line.bytes.buffer), fields.seq == line.number else {
                throw ShipError(.damagedLog, "the log '\(options.logPath)' changed while it was shipped: line \(line.number) is not seq \(line.number); ship again")
            }
            if inWindow == 0 {
                batchNumber += 1
                batchID = "\(String(UInt64.random(in: 0...UInt64.max), radix: 36))-\(batchNumber)"
            }
            inWindow += 1
            messagesThisShip += 1
            let commits = inWindow == window || line.number == total
            // The header block, written straight into one reused buffer (this runs once per line).
            header.removeAll(keepingCapacity: true)
            header.append(contentsOf: "NATS/1.0\r\nNats-Msg-Id: ".utf8)
            header.append(contentsOf: fields.id)
            header.append(UInt8(ascii: ":"))
            header.append(contentsOf: fields.crc)
            header.append(contentsOf: ":\(generation)\r\n".utf8)
            if atomic {
                header.append(contentsOf: "Nats-Batch-Id: \(batchID)\r\nNats-Batch-Sequence: \(inWindow)\r\n".utf8)
                if commits { header.append(contentsOf: "Nats-Batch-Commit: 1\r\n".utf8) }
            }
            if inWindow == 1 { header.append(contentsOf: "Nats-Expected-Last-Subject-Sequence: \(expected)\r\n".utf8) }
            if fault == .refuseMessage(number: messagesThisShip) { header.append(contentsOf: "Nats-Expected-Last-Sequence: 1\r\n".utf8) }
            header.append(contentsOf: "\r\n".utf8)
            let reply = commits ? connection.newReplySubject() : nil
            try connection.publish(subject: subject, replyTo: reply, headerBlock: header, payload: line.bytes.buffer)
            try applyFault()
            if connection.queuedByteCount >= 256 * 1024 { try connection.flush() }
            guard let reply else { return }
            try connection.flush()
            let ack = try JetStream.publishAck(try connection.awaitReply(reply).payload)
            expected = ack.sequence
            published += inWindow
            inWindow = 0
        }
        return published
    }

    /// The test hooks that act after a message is written: ``Fault/dropConnection(afterMessages:)``
    /// and ``Fault/pause(afterMessages:)``.
    private func applyFault() throws {
        switch fault {
        case .dropConnection(let after)? where messagesThisShip == after:
            try connection.flush()
            connection.close()
            throw ShipError(.unavailable, "test fault: the connection to \(options.url) was dropped after \(after) messages, before their acknowledgement")
        case .pause(let after)? where messagesThisShip == after:
            try connection.flush()
            var line = "ship: paused after \(after) messages\n"
            _ = line.withUTF8 { try? ProcessCalls.writeAll(UnsafeRawBufferPointer($0), toDescriptor: 2, name: "stderr") }
            SystemClock.sleep(seconds: 300)  // on the ship's own queue, never the cooperative pool
        default:
            return
        }
    }

    /// Publishes lines `start…` as a pipeline of plain publishes on a stream that holds only this
    /// subject: line *n*'s message carries `Nats-Expected-Last-Sequence` = the stream sequence of line
    /// *n − 1*'s, so when the server refuses one message (or one is lost), it refuses every later one
    /// too, and the subject stays a prefix of the log. Every `window`-th message (and the last) asks
    /// for an acknowledgement; up to `windowsInFlight` windows are unacknowledged at a time.
    private func publishChained(from start: Int, scan: LogScan, streamLastSequence: UInt64) throws -> Int {
        let subject = options.subject
        let window = max(1, options.window)
        let windowsInFlight = 8
        let total = scan.lineEnds.count
        let generation = scan.forgetGeneration
        // Stream sequence of line n: base + n.
        let base = streamLastSequence &- UInt64(start - 1)
        var acknowledged = start - 1
        var outstanding: [(reply: String, line: Int)] = []
        var header: [UInt8] = []
        header.reserveCapacity(256)

        /// Waits for the oldest outstanding acknowledgement and checks it.
        func awaitOldest() throws {
            let (reply, line) = outstanding.removeFirst()
            let ack = try JetStream.publishAck(try connection.awaitReply(reply).payload)
            guard ack.sequence == base &+ UInt64(line) else {
                throw ShipError(.conflict, "the stream \(ack.stream) stored line \(line) at sequence \(ack.sequence), not \(base &+ UInt64(line)): another writer publishes to it; ship again")
            }
            acknowledged = line
        }

        let reader = LogLineReader(file: scan.file)
        _ = try reader.forEachLine(startingAt: scan.offset(ofLine: start), firstLineNumber: start) { line in
            guard line.number <= total else { return }
            guard let fields = StoredLineFields(line.bytes.buffer), fields.seq == line.number else {
                throw ShipError(.damagedLog, "the log '\(options.logPath)' changed while it was shipped: line \(line.number) is not seq \(line.number); ship again")
            }
            messagesThisShip += 1
            var previous = base &+ UInt64(line.number - 1)
            if fault == .refuseMessage(number: messagesThisShip) { previous &+= 1_000_000 }
            header.removeAll(keepingCapacity: true)
            header.append(contentsOf: "NATS/1.0\r\nNats-Msg-Id: ".utf8)
            header.append(contentsOf: fields.id)
            header.append(UInt8(ascii: ":"))
            header.append(contentsOf: fields.crc)
            header.append(contentsOf: ":\(generation)\r\nNats-Expected-Last-Sequence: \(previous)\r\n\r\n".utf8)
            let acknowledges = (line.number - start + 1) % window == 0 || line.number == total
            let reply = acknowledges ? connection.newReplySubject() : nil
            try connection.publish(subject: subject, replyTo: reply, headerBlock: header, payload: line.bytes.buffer)
            try applyFault()
            if let reply { outstanding.append((reply, line.number)) }
            if connection.queuedByteCount >= 256 * 1024 || reply != nil { try connection.flush() }
            while outstanding.count >= windowsInFlight { try awaitOldest() }
        }
        try connection.flush()
        while !outstanding.isEmpty { try awaitOldest() }
        return acknowledged - (start - 1)
    }

    // MARK: - Following

    /// Ships, then ships again after each change of the log file, until
    /// `shouldStop` says so (checked after each change) or a ship fails.
    /// Waits on the store's file-change watcher (`FileChangeWatcher`).
    ///
    /// - Parameter report: Called after each ship that published something.
    package func follow(report: (ShipSummary) -> Void, shouldStop: () -> Bool = { false }) throws(ShipError) {
        let changed = DispatchSemaphore(value: 0)
        let watcher: FileChangeWatcher
        do {
            watcher = try FileChangeWatcher(path: options.logPath) { changed.signal() }
        } catch {
            throw ShipError(error)
        }
        defer { watcher.cancel() }
        while true {
            let summary = try ship()
            if summary.published > 0 || summary.replacedRedacted { report(summary) }
            // A change while shipping has signalled already: the wait returns at once and ships it.
            changed.wait()
            if shouldStop() { return }
        }
    }
}

/// One pass over the log before anything is published: every complete line
/// intact (its CRC) and `seq` equal to its line number, the forget generation
/// counted, and where each line ends (to read any line again).
struct LogScan {
    let file: LogFile
    let path: String
    /// `lineEnds[n - 1]`: the offset after line `n`'s `\n`.
    var lineEnds: [Int] = []
    var forgetGeneration = 0

    init(path: String) throws {
        self.path = path
        file = try LogFile.openForReading(path: path)
        var ends: [Int] = []
        var generation = 0
        _ = try LogLineReader(file: file).forEachLine { line in
            guard StoredLine.isIntact(line.bytes) else {
                throw ShipError(.damagedLog, "the log '\(path)' is damaged at line \(line.number), byte \(line.byteOffset): the line fails its CRC; run 'dune-replay verify --log \(path)'; nothing was published")
            }
            guard let fields = StoredLineFields(line.bytes.buffer), fields.seq == line.number else {
                throw ShipError(.damagedLog, "the log '\(path)' is damaged at line \(line.number), byte \(line.byteOffset): its seq is not \(line.number); run 'dune-replay verify --log \(path)'; nothing was published")
            }
            if fields.isForgetRecord { generation += 1 }
            ends.append(line.endOffset)
        }
        lineEnds = ends
        forgetGeneration = generation
    }

    /// Where line `number` (1-based) starts.
    func offset(ofLine number: Int) -> Int {
        number <= 1 ? 0 : lineEnds[number - 2]
    }

    /// Line `number`'s bytes, without its `\n`.
    func line(_ number: Int) throws -> [UInt8] {
        let start = offset(ofLine: number)
        return try file.bytes(upTo: lineEnds[number - 1] - 1 - start, at: start)
    }
}

/// Reads a subject's messages in stream order: batched direct gets where the
/// stream allows them, else one `STREAM.MSG.GET` per message.
struct SubjectReader {
    let jetStream: JetStream
    let stream: JetStream.StreamInfo
    let subject: String
    var batch = 1000

    func forEach(_ body: (JetStream.StoredMessage) throws -> Void) throws {
        var next: UInt64 = 1
        while true {
            if stream.allowsDirectGet {
                let messages = try jetStream.directBatch(stream.name, subject: subject, from: next, batch: batch)
                guard let last = messages.last else { return }
                for message in messages { try body(message) }
                next = last.sequence + 1
            } else {
                guard let message = try jetStream.nextMessage(stream.name, subject: subject, from: next) else { return }
                try body(message)
                next = message.sequence + 1
            }
        }
    }
}
