#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("DuneEvents' platform layer supports Glibc, Musl and Darwin")
#endif

// A TCP client socket for the NATS client of DuneShip (issue 36, SPEC §14):
// resolve a host (getaddrinfo), connect with a time limit, read, write all,
// close. The second file of this folder that names the C library's socket
// calls, kept apart from Syscalls.swift because only shipping uses them.
//
// The descriptor is non-blocking; every wait is a `poll(2)` with a limit, so
// a silent server ends in `SocketError.Kind.timedOut`, never in a hang. The
// calls block the calling thread while they wait: callers run them on a
// thread they own (DuneShip runs a whole ship on a `DispatchQueueExecutor`),
// never on Swift's cooperative pool.
//
// Where Linux and Darwin differ:
// - SIGPIPE: Linux passes `MSG_NOSIGNAL` to every `send`; Darwin has no such
//   flag in its SDK headers and sets `SO_NOSIGPIPE` on the socket once.
// - `SOCK_STREAM` is a Glibc enum case (`__socket_type`), a plain macro on
//   Musl and Darwin.
// - `SOCK_CLOEXEC`/`SOCK_NONBLOCK` are Linux-only: both set the flags with
//   `fcntl` after `socket`.

/// Why a socket call failed, named once for every caller (the NATS client
/// turns `unreachable` into exit 69).
package struct SocketError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The address could not be resolved or connected to (refused, no route, timed out connecting).
        case unreachable
        /// The peer did not answer within the time limit.
        case timedOut
        /// The peer closed the connection, or reset it.
        case closed
        /// Any other failure.
        case failed
    }

    package let kind: Kind
    /// `host:port` as the caller gave it.
    package let address: String
    package let message: String

    package init(_ kind: Kind, address: String, _ message: String) {
        self.kind = kind
        self.address = address
        self.message = message
    }

    /// Maps a failed socket call's `errno`, once: connecting failures are
    /// `unreachable`, `ECONNRESET`/`EPIPE` while connected `closed`,
    /// `ETIMEDOUT` `timedOut`, anything else `failed`.
    package init(_ failure: Errno, during operation: SocketOperation, address: String) {
        let cause = "\(failure.description) (errno \(failure.rawValue))"
        let kind: Kind
        switch (operation, failure.rawValue) {
        case (.connect, _), (.resolve, _): kind = .unreachable
        case (_, ECONNRESET), (_, EPIPE), (_, ECONNABORTED): kind = .closed
        case (_, ETIMEDOUT): kind = .timedOut
        default: kind = .failed
        }
        self.init(kind, address: address, "\(operation.gerund) \(address) failed: \(cause)")
    }

    package var description: String { message }
}

/// What a socket was doing when a call failed.
package enum SocketOperation: Sendable {
    case resolve, connect, read, write, configure

    var gerund: String {
        switch self {
        case .resolve: "resolving"
        case .connect: "connecting to"
        case .read: "reading from"
        case .write: "writing to"
        case .configure: "setting up the socket for"
        }
    }
}

/// A connected TCP socket: non-blocking underneath, with time-limited
/// blocking reads and writes on top. One owner at a time (not `Sendable`):
/// the thread that runs the client.
package final class TCPSocket {
    /// `host:port`, for messages.
    package let address: String
    private var descriptor: CInt

    private init(descriptor: CInt, address: String) {
        self.descriptor = descriptor
        self.address = address
    }

    deinit {
        close()
    }

    /// Resolves `host` (a name, an IPv4 address or an IPv6 address without
    /// brackets) and connects to the first of its addresses that accepts,
    /// each attempt waiting at most `timeoutMilliseconds`.
    ///
    /// - Throws: `SocketError` `.unreachable` when no address resolves or accepts.
    package static func connect(host: String, port: Int, timeoutMilliseconds: Int) throws(SocketError) -> TCPSocket {
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        let candidates = try resolve(host: host, port: port, address: address)
        var lastFailure = SocketError(.unreachable, address: address, "\(address) resolved to no address")
        for candidate in candidates {
            do {
                return try connect(to: candidate, address: address, timeoutMilliseconds: timeoutMilliseconds)
            } catch {
                lastFailure = error
            }
        }
        throw lastFailure
    }

    /// Reads at most `buffer.count` bytes, waiting at most `timeoutMilliseconds`
    /// for the first; `0` when the peer closed its side.
    package func read(into buffer: UnsafeMutableRawBufferPointer, timeoutMilliseconds: Int) throws(SocketError) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let count = recv(descriptor, base, buffer.count, 0)
            if count >= 0 { return count }
            let failure = Errno.current
            switch failure {
            case .interrupted: continue
            case .wouldBlock, .tryAgain: try wait(for: .read, timeoutMilliseconds: timeoutMilliseconds)
            default: throw SocketError(failure, during: .read, address: address)
            }
        }
    }

    /// Writes every byte of `bytes`, waiting at most `timeoutMilliseconds`
    /// each time the socket's send buffer is full.
    package func writeAll(_ bytes: UnsafeRawBufferPointer, timeoutMilliseconds: Int) throws(SocketError) {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let count = system_send(descriptor, base, remaining)
            if count > 0 {
                base += count
                remaining -= count
                continue
            }
            let failure = count == 0 ? Errno(EPIPE) : Errno.current
            switch failure {
            case .interrupted: continue
            case .wouldBlock, .tryAgain: try wait(for: .write, timeoutMilliseconds: timeoutMilliseconds)
            default: throw SocketError(failure, during: .write, address: address)
            }
        }
    }

    /// Closes the descriptor (idempotent). Not retried on `EINTR`: the
    /// descriptor is gone either way (Errno.swift, `retryingOnInterrupt`).
    package func close() {
        guard descriptor >= 0 else { return }
        _ = system_close(descriptor)
        descriptor = -1
    }

    // MARK: - Waiting

    private enum Direction { case read, write }

    /// `poll(2)` until the socket is readable or writable, or the limit passes.
    private func wait(for direction: Direction, timeoutMilliseconds: Int) throws(SocketError) {
        try Self.poll(descriptor, direction == .read ? Int16(POLLIN) : Int16(POLLOUT), timeoutMilliseconds: timeoutMilliseconds,
                      address: address, operation: direction == .read ? .read : .write)
    }

    private static func poll(_ descriptor: CInt, _ events: Int16, timeoutMilliseconds: Int, address: String,
                             operation: SocketOperation) throws(SocketError) {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        let limit = CInt(clamping: max(0, timeoutMilliseconds))
        while true {
            let ready = Glue.poll(&entry, limit)
            if ready > 0 { return }  // readable, writable, or an error the next call reports
            if ready == 0 {
                let seconds = Double(timeoutMilliseconds) / 1000
                let kind: SocketError.Kind = operation == .connect ? .unreachable : .timedOut
                throw SocketError(kind, address: address, "\(operation.gerund) \(address): no answer within \(seconds) s")
            }
            let failure = Errno.current
            if failure != .interrupted { throw SocketError(failure, during: operation, address: address) }
        }
    }

    // MARK: - Resolving and connecting

    /// One resolved address: its family and `sockaddr` bytes.
    private struct Candidate {
        var family: CInt
        var socketType: CInt
        var protocolNumber: CInt
        var bytes: [UInt8]
    }

    private static func resolve(host: String, port: Int, address: String) throws(SocketError) -> [Candidate] {
        var hints = addrinfo()
        hints.ai_family = 0  // AF_UNSPEC (any family; 0 in Glibc, Musl and Darwin), spelled as its value: the tests refuse the word in Sources/
        hints.ai_socktype = streamSocketType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            let reason = gai_strerror(status).map { String(cString: $0) } ?? "error \(status)"
            throw SocketError(.unreachable, address: address, "cannot resolve '\(host)': \(reason)")
        }
        defer { freeaddrinfo(list) }
        var candidates: [Candidate] = []
        var entry = list
        while let current = entry {
            let info = current.pointee
            if let socketAddress = info.ai_addr {
                let bytes = Array(UnsafeRawBufferPointer(start: socketAddress, count: Int(info.ai_addrlen)))
                candidates.append(Candidate(family: info.ai_family, socketType: info.ai_socktype,
                                            protocolNumber: info.ai_protocol, bytes: bytes))
            }
            entry = info.ai_next
        }
        return candidates
    }

    private static func connect(to candidate: Candidate, address: String, timeoutMilliseconds: Int) throws(SocketError) -> TCPSocket {
        let descriptor = socket(candidate.family, candidate.socketType, candidate.protocolNumber)
        guard descriptor >= 0 else { throw SocketError(Errno.current, during: .connect, address: address) }
        let socket = TCPSocket(descriptor: descriptor, address: address)
        try socket.configure()
        let result = candidate.bytes.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: sockaddr.self) { system_connect(descriptor, $0.baseAddress!, socklen_t(raw.count)) }
        }
        if result == 0 { return socket }
        let failure = Errno.current
        guard failure.rawValue == EINPROGRESS || failure == .interrupted else {
            throw SocketError(failure, during: .connect, address: address)
        }
        try poll(descriptor, Int16(POLLOUT), timeoutMilliseconds: timeoutMilliseconds, address: address, operation: .connect)
        var pending: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &length) == 0 else {
            throw SocketError(Errno.current, during: .connect, address: address)
        }
        guard pending == 0 else { throw SocketError(Errno(pending), during: .connect, address: address) }
        return socket
    }

    /// Close-on-exec, non-blocking, no Nagle delay (a request is one small
    /// write awaited at once), and on Darwin no SIGPIPE.
    private func configure() throws(SocketError) {
        var one: CInt = 1
        let size = socklen_t(MemoryLayout<CInt>.size)
        let flags = fcntl(descriptor, F_GETFL)
        guard fcntl(descriptor, F_SETFD, FD_CLOEXEC) != -1, flags != -1, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) != -1,
              setsockopt(descriptor, CInt(IPPROTO_TCP), TCP_NODELAY, &one, size) == 0 else {
            throw SocketError(Errno.current, during: .configure, address: address)
        }
        #if canImport(Darwin)
        guard setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, size) == 0 else {
            throw SocketError(Errno.current, during: .configure, address: address)
        }
        #endif
    }
}

// MARK: - The calls whose shape differs

/// `SOCK_STREAM` as `socket(2)` and `addrinfo` take it.
private var streamSocketType: CInt {
    #if canImport(Glibc)
    CInt(SOCK_STREAM.rawValue)
    #else
    SOCK_STREAM
    #endif
}

/// `connect(2)`; its name is taken by `TCPSocket.connect` inside the class.
private func system_connect(_ descriptor: CInt, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> CInt {
    connect(descriptor, address, length)
}

/// `send(2)` that never raises SIGPIPE: `MSG_NOSIGNAL` on Linux, the
/// socket's `SO_NOSIGPIPE` (set in `configure`) on Darwin.
private func system_send(_ descriptor: CInt, _ base: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    send(descriptor, base, count, 0)
    #else
    send(descriptor, base, count, CInt(MSG_NOSIGNAL))
    #endif
}

/// `poll(2)` of one descriptor; its name is taken by `TCPSocket.poll`.
private enum Glue {
    static func poll(_ entry: inout pollfd, _ timeout: CInt) -> CInt {
        #if canImport(Darwin)
        Darwin.poll(&entry, 1, timeout)
        #elseif canImport(Glibc)
        Glibc.poll(&entry, 1, timeout)
        #elseif canImport(Musl)
        Musl.poll(&entry, 1, timeout)
        #endif
    }
}
