import DuneEvents

/// Writes to stdout and stderr without Foundation's `FileHandle` (which traps on error).
enum Terminal {
    /// Writes `text` to stdout.
    static func out(_ text: String) {
        write(fd: 1, text)
    }

    /// Writes bytes to stdout.
    static func out(bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { writeAll(fd: 1, $0) }
    }

    /// Writes `text` to stderr.
    static func err(_ text: String) {
        write(fd: 2, text)
    }

    /// Whether `fd` is a terminal.
    static func isTerminal(_ fd: Int32) -> Bool {
        StandardStreams.isTerminal(fd)
    }

    /// Whether colour may be used on `fd` (a terminal, and `NO_COLOR` unset).
    static func colorEnabled(_ fd: Int32) -> Bool {
        isTerminal(fd) && ProcessEnvironment.value(of: "NO_COLOR") == nil
    }

    private static func write(fd: Int32, _ text: String) {
        var text = text
        _ = text.withUTF8 { writeAll(fd: fd, UnsafeRawBufferPointer($0)) }
    }

    /// Writes every byte; stops quietly when the stream is closed (e.g. `| head`).
    @discardableResult
    static func writeAll(fd: Int32, _ buffer: UnsafeRawBufferPointer) -> Bool {
        StandardStreams.write(buffer, to: fd)
    }
}

/// Buffers stdout writes into large chunks (history and tail print many lines).
struct OutputBuffer {
    private var bytes: [UInt8] = []

    init() {
        bytes.reserveCapacity(1 << 16)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
        if bytes.count >= 1 << 16 { flush() }
    }

    mutating func append(bytes more: some Sequence<UInt8>) {
        bytes.append(contentsOf: more)
        if bytes.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !bytes.isEmpty else { return }
        Terminal.out(bytes: bytes)
        bytes.removeAll(keepingCapacity: true)
    }
}
