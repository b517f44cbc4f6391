import DuneEvents
import DuneTools
import Synchronization

/// Writes to stdout and stderr without Foundation's `FileHandle` (which traps on error).
///
/// Every stdout write is checked: the first one that fails or is cut short (a
/// full disk, a file size limit) is remembered, later output is dropped, and
/// ``DuneReplay`` ends the command with exit 74 and the reason
/// (``outputFailure``), so a cut-off output is never reported as success.
/// A closed pipe is not a failure: the reader (`head`) has read enough, so
/// the process ends at once, printing nothing, with status 141 (128 +
/// SIGPIPE, what a shell reports for `seq 1000000000 | head`). Everything it
/// made durable before stays durable; it is what SIGPIPE's default action
/// would have done, without a half-written line on any file but stdout.
/// Failed stderr writes are ignored: there is nowhere left to report them.
enum Terminal {
    /// The exit status when stdout's reader has gone away: 128 + SIGPIPE (13).
    static let closedPipeStatus: Int32 = 141

    /// The first failed stdout write, if any.
    private static let failure = Mutex<DuneEventsError?>(nil)

    /// Why stdout could not be written, or `nil` while every write succeeded.
    static var outputFailure: DuneEventsError? {
        failure.withLock { $0 }
    }

    /// Whether a stdout write has failed: long loops stop producing output.
    static var outputFailed: Bool { outputFailure != nil }

    /// Writes `text` to stdout.
    static func out(_ text: String) {
        var text = text
        _ = text.withUTF8 { out(buffer: UnsafeRawBufferPointer($0)) }
    }

    /// Writes bytes to stdout; `false` when this or an earlier write failed.
    @discardableResult
    static func out(bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { out(buffer: $0) }
    }

    /// Writes every byte to stdout; `false` when this or an earlier write failed.
    @discardableResult
    static func out(buffer: UnsafeRawBufferPointer) -> Bool {
        guard !outputFailed else { return false }
        do throws(DuneEventsError) {
            guard try ProcessCalls.writeStandardOutput(buffer) else { system_exit(closedPipeStatus) }
            return true
        } catch {
            failure.withLock { if $0 == nil { $0 = error } }
            return false
        }
    }

    /// Writes `text` to stderr (a failure is ignored: see above).
    static func err(_ text: String) {
        var text = text
        _ = text.withUTF8 { try? ProcessCalls.writeAll(UnsafeRawBufferPointer($0), toDescriptor: 2, name: "") }
    }

    /// Whether colour may be used on `fd`: a terminal, and `NO_COLOR` unset or
    /// empty (no-color.org: only a non-empty value turns colour off).
    static func colorEnabled(_ fd: Int32) -> Bool {
        system_isatty(fd) && (system_environment("NO_COLOR") ?? "").isEmpty
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
