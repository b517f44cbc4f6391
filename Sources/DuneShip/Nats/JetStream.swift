import DuneEvents

/// JetStream's API over request-reply (`$JS.API.…`): the calls shipping and
/// mirroring make. Blocking, like the connection it uses.
package struct JetStream {
    package let connection: NatsConnection

    package init(_ connection: NatsConnection) {
        self.connection = connection
    }

    /// What a stream's info says that shipping needs.
    package struct StreamInfo: Sendable, Equatable {
        package var name: String
        package var subjects: [String]
        /// Atomic batch publishing (nats-server 2.12+, `allow_atomic`).
        package var allowsAtomicPublish: Bool
        /// Direct get (`allow_direct`): batched reads without a consumer.
        package var allowsDirectGet: Bool
        /// Messages per subject, for the `subjects_filter` asked (absent subjects hold none).
        package var subjectCounts: [String: Int]
        /// The stream's last sequence (it stays where it was after a purge).
        package var lastSequence: UInt64 = 0
    }

    /// One stored message.
    package struct StoredMessage: Sendable, Equatable {
        package var sequence: UInt64
        package var subject: String
        /// The message's header block, as stored (with the server's own headers for a direct get).
        package var headerBlock: [UInt8]
        package var payload: [UInt8]

        /// The parsed header block.
        package var headers: NatsHeaders { NatsHeaders(parsing: headerBlock) }
    }

    /// A publish acknowledgement: where the (last) message went.
    package struct PublishAck: Sendable, Equatable {
        package var stream: String
        package var sequence: UInt64
        package var duplicate: Bool
    }

    // MARK: - Streams

    /// The stream's info, with per-subject counts for `subjectsFilter`; `nil` when there is no such stream.
    package func streamInfo(_ name: String, subjectsFilter: String? = nil) throws(NatsError) -> StreamInfo? {
        var request = JSONObject()
        if let subjectsFilter { request["subjects_filter"] = .string(subjectsFilter) }
        let reply: JSONObject
        do {
            reply = try call("$JS.API.STREAM.INFO.\(name)", request)
        } catch where error.kind == .jetStream(code: 404, errorCode: 10059) {
            return nil
        }
        return try Self.streamInfo(reply)
    }

    /// Creates stream `name` capturing `subject`: file storage, atomic publish and direct get allowed.
    package func createStream(_ name: String, subject: String) throws(NatsError) -> StreamInfo {
        let config = JSONObject([
            JSONMember("name", .string(name)), JSONMember("subjects", .array([.string(subject)])),
            JSONMember("storage", .string("file")), JSONMember("retention", .string("limits")),
            JSONMember("allow_atomic", .bool(true)), JSONMember("allow_direct", .bool(true)),
        ])
        return try Self.streamInfo(try call("$JS.API.STREAM.CREATE.\(name)", config))
    }

    /// The name of the stream that captures `subject`, if any.
    package func streamName(capturing subject: String) throws(NatsError) -> String? {
        let reply = try call("$JS.API.STREAM.NAMES", JSONObject([JSONMember("subject", .string(subject))]))
        guard case .array(let names)? = reply["streams"] else { return nil }
        for case .string(let name) in names { return name }
        return nil
    }

    /// Removes every message of `subject` from `stream`; returns how many went.
    @discardableResult
    package func purge(_ stream: String, subject: String) throws(NatsError) -> Int {
        let reply = try call("$JS.API.STREAM.PURGE.\(stream)", JSONObject([JSONMember("filter", .string(subject))]))
        if case .number(let purged)? = reply["purged"] { return Int(purged) }
        return 0
    }

    /// Deletes message `sequence` and overwrites its bytes in the server's storage
    /// (`$JS.API.STREAM.MSG.DELETE` without `no_erase`): a purge only drops the
    /// message from the index, and a block that still holds other subjects'
    /// messages keeps its bytes until it is compacted.
    package func erase(_ stream: String, sequence: UInt64) throws(NatsError) {
        _ = try call("$JS.API.STREAM.MSG.DELETE.\(stream)", JSONObject([JSONMember("seq", .number(Double(sequence)))]))
    }

    /// `erase` of every sequence, pipelined: up to 256 requests are written before their replies
    /// are read (the replies may come in any order).
    package func erase(_ stream: String, sequences: [UInt64]) throws(NatsError) {
        var start = 0
        while start < sequences.count {
            let chunk = sequences[start..<min(start + 256, sequences.count)]
            start += chunk.count
            var pending: Set<String> = []
            for sequence in chunk {
                let reply = connection.newReplySubject()
                pending.insert(reply)
                let request = JSONObject([JSONMember("seq", .number(Double(sequence)))])
                try connection.publish(subject: "$JS.API.STREAM.MSG.DELETE.\(stream)", replyTo: reply,
                                       payload: Array(JSONWriter.string(.object(request)).utf8))
            }
            try connection.flush()
            while !pending.isEmpty {
                let message = try connection.nextMessage()
                guard pending.remove(message.subject) != nil else { continue }
                if message.status == 503 {
                    throw NatsError(.noResponders, "nothing at \(connection.url) answers JetStream's API (is JetStream enabled?)")
                }
                _ = try Self.decodeReply(message.payload, subject: "$JS.API.STREAM.MSG.DELETE.\(stream)")
            }
        }
    }

    // MARK: - Messages

    /// The subject's last message, or `nil` when it holds none (`$JS.API.STREAM.MSG.GET`, `last_by_subj`).
    package func lastMessage(_ stream: String, subject: String) throws(NatsError) -> StoredMessage? {
        try getMessage(stream, JSONObject([JSONMember("last_by_subj", .string(subject))]))
    }

    /// The subject's first message at or after stream sequence `sequence`, or `nil`.
    package func nextMessage(_ stream: String, subject: String, from sequence: UInt64) throws(NatsError) -> StoredMessage? {
        try getMessage(stream, JSONObject([JSONMember("seq", .number(Double(sequence))), JSONMember("next_by_subj", .string(subject))]))
    }

    private func getMessage(_ stream: String, _ request: JSONObject) throws(NatsError) -> StoredMessage? {
        let reply: JSONObject
        do {
            reply = try call("$JS.API.STREAM.MSG.GET.\(stream)", request)
        } catch where error.kind == .jetStream(code: 404, errorCode: 10037) {
            return nil
        }
        guard case .object(let message)? = reply["message"], case .number(let sequence)? = message["seq"],
              case .string(let subject)? = message["subject"] else {
            throw NatsError(.protocolViolation, "JetStream's message reply has no message: \(JSONWriter.string(.object(reply)).prefix(200))")
        }
        var payload: [UInt8] = []
        if case .string(let data)? = message["data"] {
            guard let decoded = Base64.decode(data) else { throw NatsError(.protocolViolation, "JetStream sent a message whose data is not base64") }
            payload = decoded
        }
        var headerBlock: [UInt8] = []
        if case .string(let block)? = message["hdrs"], let decoded = Base64.decode(block) {
            headerBlock = decoded
        }
        return StoredMessage(sequence: UInt64(sequence), subject: subject, headerBlock: headerBlock, payload: payload)
    }

    /// Up to `batch` messages of `subject` from stream sequence `sequence` on, by one direct get
    /// (`$JS.API.DIRECT.GET`, needs `allow_direct`): the server streams them to the reply subject and
    /// ends with status 204 (or 404 when there are none). Returns them in stream order.
    package func directBatch(_ stream: String, subject: String, from sequence: UInt64, batch: Int) throws(NatsError) -> [StoredMessage] {
        let request = JSONObject([
            JSONMember("seq", .number(Double(sequence))), JSONMember("batch", .number(Double(batch))),
            JSONMember("next_by_subj", .string(subject)),
        ])
        let reply = connection.newReplySubject()
        try connection.publish(subject: "$JS.API.DIRECT.GET.\(stream)", replyTo: reply, payload: Array(JSONWriter.string(.object(request)).utf8))
        try connection.flush()
        var messages: [StoredMessage] = []
        while true {
            let message = try connection.awaitReply(reply)
            switch message.status {
            case 204?, 404?: return messages
            case nil:
                guard let text = message.headerValue("Nats-Sequence"), let stored = UInt64(text) else {
                    throw NatsError(.protocolViolation, "a direct get reply has no Nats-Sequence header")
                }
                messages.append(StoredMessage(sequence: stored, subject: message.headerValue("Nats-Subject").map(String.init) ?? subject,
                                              headerBlock: message.headerBlock, payload: message.payload))
            case let status?:
                throw NatsError(.jetStream(code: status, errorCode: 0), "JetStream's direct get failed: \(status) \(message.headers.statusDescription)")
            }
        }
    }

    // MARK: - Calls

    /// One API request with a JSON body; the reply's `error` member is thrown.
    package func call(_ subject: String, _ request: JSONObject) throws(NatsError) -> JSONObject {
        let reply = try connection.request(subject: subject, payload: Array(JSONWriter.string(.object(request)).utf8))
        return try Self.decodeReply(reply.payload, subject: subject)
    }

    /// Parses an API or publish reply; throws its `error` member as `.jetStream`.
    package static func decodeReply(_ payload: [UInt8], subject: String) throws(NatsError) -> JSONObject {
        guard case .object(let object)? = try? JSONParser.parse(payload) else {
            throw NatsError(.protocolViolation, "JetStream's reply to '\(subject)' is not a JSON object: '\(String(decoding: payload.prefix(200), as: UTF8.self))'")
        }
        if case .object(let error)? = object["error"] {
            var code = 0, errorCode = 0, text = ""
            if case .number(let value)? = error["code"] { code = Int(value) }
            if case .number(let value)? = error["err_code"] { errorCode = Int(value) }
            if case .string(let value)? = error["description"] { text = value }
            throw NatsError(.jetStream(code: code, errorCode: errorCode), "JetStream refused '\(subject)': \(text) (\(code), error \(errorCode))")
        }
        return object
    }

    /// A publish acknowledgement from its reply payload.
    package static func publishAck(_ payload: [UInt8]) throws(NatsError) -> PublishAck {
        let object = try decodeReply(payload, subject: "publish")
        guard case .string(let stream)? = object["stream"], case .number(let sequence)? = object["seq"] else {
            throw NatsError(.protocolViolation, "a publish acknowledgement without stream and seq: '\(String(decoding: payload.prefix(200), as: UTF8.self))'")
        }
        var duplicate = false
        if case .bool(let value)? = object["duplicate"] { duplicate = value }
        return PublishAck(stream: stream, sequence: UInt64(sequence), duplicate: duplicate)
    }

    private static func streamInfo(_ reply: JSONObject) throws(NatsError) -> StreamInfo {
        guard case .object(let config)? = reply["config"], case .string(let name)? = config["name"] else {
            throw NatsError(.protocolViolation, "JetStream's stream info has no config")
        }
        var subjects: [String] = []
        if case .array(let values)? = config["subjects"] {
            for case .string(let subject) in values { subjects.append(subject) }
        }
        var counts: [String: Int] = [:]
        var lastSequence: UInt64 = 0
        if case .object(let state)? = reply["state"] {
            if case .object(let perSubject)? = state["subjects"] {
                for member in perSubject.members {
                    if case .number(let count) = member.value { counts[member.key] = Int(count) }
                }
            }
            if case .number(let last)? = state["last_seq"] { lastSequence = UInt64(last) }
        }
        return StreamInfo(name: name, subjects: subjects, allowsAtomicPublish: config["allow_atomic"] == .bool(true),
                          allowsDirectGet: config["allow_direct"] == .bool(true), subjectCounts: counts, lastSequence: lastSequence)
    }
}

/// Standard base64 (RFC 4648 §4), for the `data` and `hdrs` of JetStream's message replies.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count / 4 * 3)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text.utf8 {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            case UInt8(ascii: "="), UInt8(ascii: "\n"), UInt8(ascii: "\r"): continue
            default: return nil
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }
}
