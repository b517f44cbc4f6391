import DuneEvents

// The NATS core text protocol (https://docs.nats.io/reference/reference-protocols/nats-protocol),
// the part a publishing client needs: the server's INFO, MSG, HMSG, PING, PONG, +OK and -ERR are
// parsed by `NatsParser` from bytes fed in any split; the client's CONNECT, PUB, HPUB, SUB and
// PING/PONG are written by `NatsEncoder`.

/// One thing the server sent.
package enum NatsFrame: Sendable, Equatable {
    /// `INFO {json}`: the server's description of itself (the JSON text as sent).
    case info([UInt8])
    /// `MSG` or `HMSG`: a message for one of the client's subscriptions.
    case message(NatsMessage)
    case ping
    case pong
    case ok
    /// `-ERR 'text'`: the text without its quotes.
    case error(String)
}

/// A message delivered by `MSG` (no headers) or `HMSG`.
package struct NatsMessage: Sendable, Equatable {
    package var subject: String
    package var subscription: Int
    package var replyTo: String?
    /// The header block (`NATS/1.0…\r\n\r\n`) as sent; empty for `MSG`.
    package var headerBlock: [UInt8]
    package var payload: [UInt8]

    package init(subject: String, subscription: Int, replyTo: String?, headerBlock: [UInt8], payload: [UInt8]) {
        self.subject = subject
        self.subscription = subscription
        self.replyTo = replyTo
        self.headerBlock = headerBlock
        self.payload = payload
    }

    /// The parsed header block (no fields and no status for `MSG`).
    package var headers: NatsHeaders { NatsHeaders(parsing: headerBlock) }

    /// The inline status of the header block (`NATS/1.0 503`), read without parsing the fields.
    package var status: Int? { NatsHeaders.status(of: headerBlock) }

    /// The value of header `name` as the server spells it (JetStream's own headers), found
    /// without parsing the whole block.
    package func headerValue(_ name: StaticString) -> Substring? {
        NatsHeaders.value(of: name, in: headerBlock)
    }
}

/// A parsed header block: `NATS/1.0[ status[ description]]` and `Key: Value` lines.
package struct NatsHeaders: Sendable, Equatable {
    /// The inline status (`503` no responders, `404` not found, `204` end of a batch), if any.
    package var status: Int?
    package var statusDescription = ""
    package var fields: [(name: String, value: String)] = []

    package init(status: Int? = nil, fields: [(name: String, value: String)] = []) {
        self.status = status
        self.fields = fields
    }

    package init(parsing block: [UInt8]) {
        var lines = String(decoding: block, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: true)
        guard let first = lines.first, first.hasPrefix("NATS/") else { return }
        lines.removeFirst()
        let statusParts = first.split(separator: " ", maxSplits: 2)
        if statusParts.count > 1 { status = Int(statusParts[1]) }
        if statusParts.count > 2 { statusDescription = String(statusParts[2]) }
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon])
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            fields.append((name, String(value)))
        }
    }

    /// The inline status of a header block, from its first line alone.
    package static func status(of block: [UInt8]) -> Int? {
        // "NATS/1.0 503…": the status is the three digits after the version and a space.
        guard block.count >= 12, block[8] == 32 else { return nil }
        var value = 0
        for byte in block[9..<12] {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    /// The first value of the field spelled exactly `name` in `block`, found by a scan of its bytes.
    package static func value(of name: StaticString, in block: [UInt8]) -> Substring? {
        let key = UnsafeRawBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        var index = 0
        while let lineEnd = block[index...].firstIndex(of: 10) {
            let line = index
            index = lineEnd + 1
            guard lineEnd - line > key.count, block[line + key.count] == UInt8(ascii: ":"),
                  key.elementsEqual(block[line..<(line + key.count)]) else { continue }
            let valueEnd = lineEnd > 0 && block[lineEnd - 1] == 13 ? lineEnd - 1 : lineEnd
            let text = String(decoding: block[(line + key.count + 1)..<valueEnd], as: UTF8.self)
            return text.drop { $0 == " " }
        }
        return nil
    }

    /// The first value of header `name` (names compare case-insensitively, as NATS does).
    package subscript(name: String) -> String? {
        let wanted = name.lowercased()
        return fields.first { $0.name.lowercased() == wanted }?.value
    }

    package static func == (left: NatsHeaders, right: NatsHeaders) -> Bool {
        left.status == right.status && left.statusDescription == right.statusDescription
            && left.fields.map(\.name) == right.fields.map(\.name) && left.fields.map(\.value) == right.fields.map(\.value)
    }
}

/// The server side of the protocol as a state machine fed bytes: `feed` adds
/// what the socket read (any split: a frame may arrive one byte at a time),
/// `next` returns each complete frame once, or `nil` until more bytes come.
package struct NatsParser {
    /// The longest control line accepted (an INFO with many cluster URLs is a few KiB).
    package static let maximumControlLine = 64 * 1024
    /// The largest message accepted (the protocol's own limit is the server's max_payload, at most 64 MiB).
    package static let maximumMessage = 64 * 1024 * 1024

    private var buffer: [UInt8] = []
    private var position = 0

    package init() {}

    /// Appends bytes read from the connection.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    package mutating func feed(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { feed($0) }
    }

    /// Bytes fed but not yet returned as a frame.
    package var pendingCount: Int { buffer.count - position }

    private mutating func compact() {
        if position > 0, position == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            position = 0
        } else if position > 1 << 20, position * 2 > buffer.count {
            buffer.removeSubrange(0..<position)
            position = 0
        }
    }

    /// The next complete frame, or `nil` when the bytes fed so far end inside one.
    ///
    /// - Throws: `NatsError` `.protocolViolation` for bytes that are not the
    ///   server's protocol (an unknown operation, a malformed MSG line, a
    ///   payload not followed by `\r\n`, a control line or message over the limits).
    package mutating func next() throws(NatsError) -> NatsFrame? {
        guard let lineEnd = findLineEnd() else {
            if pendingCount > Self.maximumControlLine {
                throw NatsError(.protocolViolation, "the server sent a control line longer than \(Self.maximumControlLine) bytes")
            }
            return nil
        }
        let afterLine = lineEnd + 2
        // MSG and HMSG, by far the most frequent, are read from the bytes without building the line's text.
        if let operation = messageOperation(at: position, lineEnd: lineEnd) {
            return try message(from: position + operation, lineEnd: lineEnd, headers: operation == 5, payloadStart: afterLine)
        }
        let line = String(decoding: buffer[position..<lineEnd], as: UTF8.self)
        let operation = line.prefix { $0 != " " && $0 != "\t" }.uppercased()
        switch operation {
        case "PING":
            position = afterLine
            return .ping
        case "PONG":
            position = afterLine
            return .pong
        case "+OK":
            position = afterLine
            return .ok
        case "-ERR":
            position = afterLine
            var text = line.dropFirst(4).drop { $0 == " " }
            if text.hasPrefix("'"), text.hasSuffix("'"), text.count >= 2 { text = text.dropFirst().dropLast() }
            return .error(String(text))
        case "INFO":
            position = afterLine
            return .info(Array(line.dropFirst(4).drop { $0 == " " }.utf8))
        default:
            throw NatsError(.protocolViolation, "the server sent an unknown operation: '\(line.prefix(80))'")
        }
    }

    /// `4` after `MSG ` (or a tab), `5` after `HMSG `, case-insensitively; `nil` for other operations.
    private func messageOperation(at start: Int, lineEnd: Int) -> Int? {
        func upper(_ byte: UInt8) -> UInt8 { byte >= 97 && byte <= 122 ? byte - 32 : byte }
        func isBlank(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 }
        if lineEnd - start > 4, upper(buffer[start]) == 77, upper(buffer[start + 1]) == 83, upper(buffer[start + 2]) == 71,
           isBlank(buffer[start + 3]) {
            return 4
        }
        if lineEnd - start > 5, upper(buffer[start]) == 72, upper(buffer[start + 1]) == 77, upper(buffer[start + 2]) == 83,
           upper(buffer[start + 3]) == 71, isBlank(buffer[start + 4]) {
            return 5
        }
        return nil
    }

    /// A `MSG subject sid [reply] size` or `HMSG subject sid [reply] headerSize totalSize` frame (its
    /// arguments from `start` to `lineEnd`), once its payload and the `\r\n` after it are all here.
    private mutating func message(from start: Int, lineEnd: Int, headers: Bool, payloadStart: Int) throws(NatsError) -> NatsFrame? {
        var fields: [Range<Int>] = []
        var index = start
        while index < lineEnd, fields.count < 6 {
            while index < lineEnd, buffer[index] == 32 || buffer[index] == 9 { index += 1 }
            let fieldStart = index
            while index < lineEnd, buffer[index] != 32, buffer[index] != 9 { index += 1 }
            if index > fieldStart { fields.append(fieldStart..<index) }
        }
        func text() -> String { String(decoding: buffer[(start - (headers ? 5 : 4))..<lineEnd].prefix(200), as: UTF8.self) }
        func number(_ range: Range<Int>) -> Int? {
            guard !range.isEmpty, range.count < 19 else { return nil }
            var value = 0
            for byte in buffer[range] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        let sizes = headers ? 2 : 1
        guard index == lineEnd, fields.count == 2 + sizes || fields.count == 3 + sizes, let subscription = number(fields[1]) else {
            throw NatsError(.protocolViolation, "the server sent a malformed message line: '\(text())'")
        }
        guard let total = number(fields[fields.count - 1]), total <= Self.maximumMessage else {
            throw NatsError(.protocolViolation, "the server sent a malformed message size: '\(text())'")
        }
        var headerSize = 0
        if headers {
            guard let size = number(fields[fields.count - 2]), size <= total else {
                throw NatsError(.protocolViolation, "the server sent a malformed header size: '\(text())'")
            }
            headerSize = size
        }
        let end = payloadStart + total
        guard buffer.count >= end + 2 else { return nil }
        guard buffer[end] == UInt8(ascii: "\r"), buffer[end + 1] == UInt8(ascii: "\n") else {
            throw NatsError(.protocolViolation, "a message from the server is not followed by CRLF: '\(text())'")
        }
        let replyTo = fields.count == 3 + sizes ? String(decoding: buffer[fields[2]], as: UTF8.self) : nil
        let message = NatsMessage(subject: String(decoding: buffer[fields[0]], as: UTF8.self), subscription: subscription, replyTo: replyTo,
                                  headerBlock: Array(buffer[payloadStart..<payloadStart + headerSize]),
                                  payload: Array(buffer[payloadStart + headerSize..<end]))
        position = end + 2
        return .message(message)
    }

    /// The index of the `\r` of the first `\r\n` at or after `position`.
    private func findLineEnd() -> Int? {
        buffer.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress else { return nil }
            var from = position
            while from < raw.count {
                guard let found = system_memchr(base + from, UInt8(ascii: "\n"), raw.count - from) else { return nil }
                let index = found - base
                if index > position, raw[index - 1] == UInt8(ascii: "\r") { return index - 1 }
                from = index + 1
            }
            return nil
        }
    }
}

/// Writes the client's side of the protocol.
package enum NatsEncoder {
    package static func append(_ text: String, to output: inout [UInt8]) {
        output.append(contentsOf: text.utf8)
    }

    /// `PUB subject [reply] size\r\npayload\r\n`, or `HPUB … headerSize totalSize` when `headerBlock` is not empty.
    package static func publish(subject: String, replyTo: String?, headerBlock: [UInt8], payload: UnsafeRawBufferPointer,
                                into output: inout [UInt8]) {
        let reply = replyTo.map { " " + $0 } ?? ""
        if headerBlock.isEmpty {
            append("PUB \(subject)\(reply) \(payload.count)\r\n", to: &output)
        } else {
            append("HPUB \(subject)\(reply) \(headerBlock.count) \(headerBlock.count + payload.count)\r\n", to: &output)
            output.append(contentsOf: headerBlock)
        }
        output.append(contentsOf: payload)
        output.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
    }

    /// A header block: `NATS/1.0\r\n` then `Name: value\r\n` per field, then `\r\n`.
    package static func headerBlock(_ fields: [(name: String, value: String)]) -> [UInt8] {
        var block = Array("NATS/1.0\r\n".utf8)
        for field in fields {
            block.append(contentsOf: "\(field.name): \(field.value)\r\n".utf8)
        }
        block.append(contentsOf: [UInt8(ascii: "\r"), UInt8(ascii: "\n")])
        return block
    }
}
