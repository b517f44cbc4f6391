import DuneEvents

/// Why talking to a NATS server failed.
package struct NatsError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The server could not be reached (resolve, connect, or no INFO).
        case unreachable
        /// The server refused the credentials (or their absence).
        case authorization
        /// The server sent `-ERR` for another reason.
        case serverError
        /// A message larger than the server's `max_payload`.
        case maxPayload
        /// The connection closed while the client waited for the server.
        case closed
        /// The server did not answer within the time limit.
        case timedOut
        /// Bytes that are not the NATS protocol, or a reply that is not what the API documents.
        case protocolViolation
        /// A request that no subscriber (no JetStream) answered: status 503.
        case noResponders
        /// A JetStream API error: `code` (HTTP-like) and `errorCode` (JetStream's own number).
        case jetStream(code: Int, errorCode: Int)
    }

    package let kind: Kind
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package var description: String { message }
}

/// A `nats://[user:password@|token@]host[:port]` address.
package struct NatsURL: Sendable, Equatable, CustomStringConvertible {
    package var host: String
    package var port: Int
    package var user: String?
    package var password: String?
    package var token: String?

    /// Parses `text`; `nil` with no scheme other than `nats://`, an empty host or a bad port.
    /// An IPv6 host is written in brackets: `nats://[::1]:4222`.
    package init?(_ text: String) {
        guard text.hasPrefix("nats://") else { return nil }
        var rest = Substring(text.dropFirst("nats://".count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = Self.percentDecoded(credentials[..<colon])
                password = Self.percentDecoded(credentials[credentials.index(after: colon)...])
            } else {
                token = Self.percentDecoded(credentials)
            }
        }
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return nil }
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            portText = rest[rest.index(after: colon)...]
        } else {
            host = String(rest)
        }
        port = 4222
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value) else { return nil }
            port = value
        }
        guard !host.isEmpty, !host.contains("/") else { return nil }
    }

    /// Whether the host is this machine's loopback (plain-text credentials never leave it).
    package var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    package var hasCredentials: Bool { user != nil || password != nil || token != nil }

    /// The address without credentials, for messages: `nats://host:port`.
    package var description: String {
        host.contains(":") ? "nats://[\(host)]:\(port)" : "nats://\(host):\(port)"
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var index = text.utf8.startIndex
        let utf8 = text.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%"), let high = utf8.index(index, offsetBy: 1, limitedBy: utf8.endIndex), high < utf8.endIndex,
               let low = utf8.index(index, offsetBy: 2, limitedBy: utf8.endIndex), low < utf8.endIndex,
               let value = UInt8(String(decoding: [utf8[high], utf8[low]], as: UTF8.self), radix: 16) {
                bytes.append(value)
                index = utf8.index(after: low)
            } else {
                bytes.append(byte)
                index = utf8.index(after: index)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// A blocking NATS client connection: one owner thread at a time (not
/// `Sendable`), never a cooperative-pool thread — every call may wait on the
/// socket up to the time limit. `LogShipper` and `LogMirror` run it on a
/// `DispatchQueueExecutor`'s queue.
package final class NatsConnection {
    package let url: NatsURL
    /// The server's `max_payload`: the largest header block plus payload it accepts.
    package private(set) var maxPayload = 1024 * 1024
    /// The server's version, as its INFO says.
    package private(set) var serverVersion = ""
    /// How long one wait for the server may last.
    package let timeoutMilliseconds: Int

    private let socket: TCPSocket
    private var parser = NatsParser()
    private var output: [UInt8] = []
    private var readBuffer = [UInt8](repeating: 0, count: 256 * 1024)
    /// Reply subjects are `<inbox>.<n>`; one subscription (sid 1) receives them all.
    private let inbox: String
    private var requestCounter = 0
    /// Test hook: when set, called before each flush with the bytes about to be written.
    package var beforeFlush: ((inout [UInt8]) throws(NatsError) -> Void)?

    private init(url: NatsURL, socket: TCPSocket, timeoutMilliseconds: Int) {
        self.url = url
        self.socket = socket
        self.timeoutMilliseconds = timeoutMilliseconds
        inbox = "_INBOX.dune.\(String(UInt64.random(in: 0...UInt64.max), radix: 36))"
    }

    /// Connects, reads INFO, sends CONNECT with the URL's credentials, and
    /// waits for the server's PONG to the first PING (so a refused login fails here).
    ///
    /// - Parameter warn: Receives a warning when credentials would cross a
    ///   non-loopback address in plain text.
    /// - Throws: `.unreachable` (with the URL), `.authorization`, `.timedOut`, `.protocolViolation`.
    package static func connect(_ url: NatsURL, name: String, timeoutMilliseconds: Int = 10_000,
                                warn: (String) -> Void) throws(NatsError) -> NatsConnection {
        let socket: TCPSocket
        do {
            socket = try TCPSocket.connect(host: url.host, port: url.port, timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw NatsError(.unreachable, "cannot reach the NATS server at \(url): \(error.message)")
        }
        let connection = NatsConnection(url: url, socket: socket, timeoutMilliseconds: timeoutMilliseconds)
        guard case .info(let info)? = try? connection.nextFrame() else {
            throw NatsError(.unreachable, "\(url) did not greet as a NATS server (no INFO)")
        }
        connection.noteInfo(info)
        if url.hasCredentials, !url.isLoopback {
            warn("warning: the credentials in the NATS URL cross \(url) in plain text; put TLS in front (a proxy or a leaf node, docs/shipping.md)")
        }
        var fields: [JSONMember] = [
            JSONMember("verbose", .bool(false)), JSONMember("pedantic", .bool(false)), JSONMember("tls_required", .bool(false)),
            JSONMember("name", .string(name)), JSONMember("lang", .string("swift")), JSONMember("version", .string("0.1.0")),
            JSONMember("protocol", .number(1)), JSONMember("headers", .bool(true)), JSONMember("no_responders", .bool(true)),
        ]
        if let token = url.token { fields.append(JSONMember("auth_token", .string(token))) }
        if let user = url.user { fields.append(JSONMember("user", .string(user))) }
        if let password = url.password { fields.append(JSONMember("pass", .string(password))) }
        NatsEncoder.append("CONNECT \(JSONWriter.string(.object(JSONObject(fields))))\r\nPING\r\n", to: &connection.output)
        NatsEncoder.append("SUB \(connection.inbox).* 1\r\n", to: &connection.output)
        try connection.flush()
        while true {
            switch try connection.nextFrame() {
            case .pong: return connection
            case .error(let text): throw connection.serverError(text)
            case .info(let info): connection.noteInfo(info)
            default: continue
            }
        }
    }

    private func noteInfo(_ info: [UInt8]) {
        guard case .object(let object)? = try? JSONParser.parse(info) else { return }
        if case .number(let size)? = object["max_payload"] { maxPayload = Int(size) }
        if case .string(let version)? = object["version"] { serverVersion = version }
    }

    private func serverError(_ text: String) -> NatsError {
        let lowered = text.lowercased()
        if lowered.contains("authorization") || lowered.contains("authentication") {
            return NatsError(.authorization, "\(url) refused the login: '\(text)'; check the user and password or token in the URL")
        }
        if lowered.contains("maximum payload") {
            return NatsError(.maxPayload, "\(url) refused a message larger than its max_payload (\(maxPayload) bytes): '\(text)'")
        }
        return NatsError(.serverError, "\(url) reported an error: '\(text)'")
    }

    /// Closes the socket; further calls fail with `.closed`.
    package func close() {
        socket.close()
    }

    // MARK: - Writing

    /// A new reply subject on the connection's inbox.
    package func newReplySubject() -> String {
        requestCounter += 1
        return "\(inbox).\(requestCounter)"
    }

    /// Queues a PUB or HPUB (written by the next `flush`).
    ///
    /// - Throws: `.maxPayload` when headers and payload exceed the server's `max_payload`.
    package func publish(subject: String, replyTo: String?, headerBlock: [UInt8], payload: UnsafeRawBufferPointer) throws(NatsError) {
        guard headerBlock.count + payload.count <= maxPayload else {
            throw NatsError(.maxPayload, "a message of \(headerBlock.count + payload.count) bytes to '\(subject)' exceeds \(url)'s max_payload of \(maxPayload) bytes")
        }
        NatsEncoder.publish(subject: subject, replyTo: replyTo, headerBlock: headerBlock, payload: payload, into: &output)
    }

    package func publish(subject: String, replyTo: String?, headerBlock: [UInt8] = [], payload: [UInt8]) throws(NatsError) {
        guard headerBlock.count + payload.count <= maxPayload else {
            throw NatsError(.maxPayload, "a message of \(headerBlock.count + payload.count) bytes to '\(subject)' exceeds \(url)'s max_payload of \(maxPayload) bytes")
        }
        payload.withUnsafeBytes { raw in
            NatsEncoder.publish(subject: subject, replyTo: replyTo, headerBlock: headerBlock, payload: raw, into: &output)
        }
    }

    /// Bytes queued and not yet written.
    package var queuedByteCount: Int { output.count }

    /// Writes everything queued.
    package func flush() throws(NatsError) {
        guard !output.isEmpty else { return }
        try beforeFlush?(&output)
        do {
            try output.withUnsafeBytes { raw in
                try socket.writeAll(raw, timeoutMilliseconds: timeoutMilliseconds)
            }
        } catch let error as SocketError {
            throw Self.map(error, url: url)
        } catch {
            throw NatsError(.closed, "writing to \(url) failed: \(error)")
        }
        output.removeAll(keepingCapacity: true)
    }

    private static func map(_ error: SocketError, url: NatsURL) -> NatsError {
        switch error.kind {
        case .unreachable: NatsError(.unreachable, "cannot reach the NATS server at \(url): \(error.message)")
        case .timedOut: NatsError(.timedOut, "the NATS server at \(url) did not answer in time: \(error.message)")
        case .closed: NatsError(.closed, "the NATS server at \(url) closed the connection: \(error.message)")
        case .failed: NatsError(.closed, "the connection to \(url) failed: \(error.message)")
        }
    }

    // MARK: - Reading

    /// The next frame from the server, waiting at most the time limit for bytes.
    package func nextFrame() throws(NatsError) -> NatsFrame {
        while true {
            if let frame = try parser.next() { return frame }
            let count: Int
            do {
                count = try readBuffer.withUnsafeMutableBytes { raw in
                    try socket.read(into: raw, timeoutMilliseconds: timeoutMilliseconds)
                }
            } catch let error as SocketError {
                throw Self.map(error, url: url)
            } catch {
                throw NatsError(.closed, "reading from \(url) failed: \(error)")
            }
            guard count > 0 else { throw NatsError(.closed, "the NATS server at \(url) closed the connection") }
            readBuffer.withUnsafeBytes { parser.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
    }

    /// The next message for one of the connection's subscriptions, answering
    /// the server's PINGs on the way; `-ERR` throws.
    package func nextMessage() throws(NatsError) -> NatsMessage {
        while true {
            switch try nextFrame() {
            case .message(let message): return message
            case .ping:
                NatsEncoder.append("PONG\r\n", to: &output)
                try flush()
            case .error(let text): throw serverError(text)
            case .info(let info): noteInfo(info)
            case .pong, .ok: continue
            }
        }
    }

    /// The next message on reply subject `reply`, skipping late replies to earlier requests.
    package func awaitReply(_ reply: String) throws(NatsError) -> NatsMessage {
        while true {
            let message = try nextMessage()
            guard message.subject == reply else { continue }
            if message.status == 503 {
                throw NatsError(.noResponders, "nothing at \(url) answers requests on this subject (is JetStream enabled: 'nats-server -js'?)")
            }
            return message
        }
    }

    /// Publishes a request and waits for its one reply.
    package func request(subject: String, payload: [UInt8], headerBlock: [UInt8] = []) throws(NatsError) -> NatsMessage {
        let reply = newReplySubject()
        try publish(subject: subject, replyTo: reply, headerBlock: headerBlock, payload: payload)
        try flush()
        return try awaitReply(reply)
    }
}
