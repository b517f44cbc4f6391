/// A C `errno` value from a failed system call (swift-system's `Errno`, cut down).
///
/// The wrapper in this folder throws `Errno`; the one place that turns it into
/// a user-facing `DuneEventsError` is `DuneEventsError.init(_:during:path:)`
/// below, so every syscall failure reads the same way.
package struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    package let rawValue: CInt

    package init(_ rawValue: CInt) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno`, read right after a failed call.
    package static var current: Errno { Errno(system_errno()) }

    /// The C library's text for this error, e.g. "No space left on device".
    package var description: String {
        system_strerror(rawValue)
    }

    // The named values (`.interrupted`, `.noSpace`, …) are in Syscalls.swift, with the C library's constants.
}

/// Calls `body` until it does not fail with `EINTR`.
///
/// `body` follows the C convention: `-1` means failure, with the cause in
/// `errno`. Do not use this for `close(2)`: on Linux the descriptor is gone
/// even when `close` reports `EINTR`, and retrying could close another file.
@inline(__always)
package func retryingOnInterrupt<Result: FixedWidthInteger>(_ body: () -> Result) throws(Errno) -> Result {
    while true {
        let result = body()
        if result != -1 { return result }
        let failure = Errno.current
        if failure != .interrupted { throw failure }
    }
}

/// Calls `body` until it returns a value or fails with an error other than
/// `EINTR`: for the calls that return a value, or `nil` with `errno` set.
///
/// - Throws: The `errno` of the last failure.
package func retryingOnInterrupt<Value>(_ body: () -> Value?) throws(Errno) -> Value {
    while true {
        if let value = body() { return value }
        let failure = Errno.current
        if failure != .interrupted { throw failure }
    }
}

// MARK: - Operations

/// What the log layer was doing when a system call failed; it chooses the
/// error code and the wording of the message.
package enum FileOperation: Sendable, Equatable {
    /// Opening a file (the log, a side file); `ENOENT`/`EACCES`/`EISDIR` here
    /// mean the input is unavailable.
    case open
    case read
    case write
    case sync
    case truncate
    case lock
    case status
    case createDirectory
    case syncDirectory
    case rename
    case remove
    case close

    /// The gerund used in messages: "while writing 'Logs/events.jsonl'".
    var gerund: String {
        switch self {
        case .open: "opening"
        case .read: "reading"
        case .write: "writing"
        case .sync: "flushing (fsync)"
        case .truncate: "truncating"
        case .lock: "locking"
        case .status: "inspecting (fstat)"
        case .createDirectory: "creating the directory"
        case .syncDirectory: "flushing (fsync) the directory"
        case .rename: "renaming"
        case .remove: "removing"
        case .close: "closing"
        }
    }
}

// MARK: - Mapping errno to DuneEventsError

extension DuneEventsError {
    /// Maps a failed system call to the module's error, once, for every caller.
    ///
    /// - `open`: `ENOENT`, `EACCES`/`EPERM`, `EISDIR`, `ENOTDIR` → `.inputUnavailable`.
    /// - `read` failures → `.inputUnavailable` (the file could not be read).
    /// - everything else (write, fsync, truncate, lock, …), including `ENOSPC`
    ///   ("disk full") and `EFBIG` ("file size limit exceeded") → `.io`.
    ///
    /// The message names the path, the C library's text and what to do.
    package init(_ failure: Errno, during operation: FileOperation, path: String) {
        let location = Location(path: path)
        let quoted = "'\(path)'"
        let cause = "\(failure.description) (errno \(failure.rawValue))"
        switch (operation, failure) {
        case (.open, .noSuchFile):
            self.init(.inputUnavailable, "\(quoted) does not exist: \(cause); check the path", location: location)
        case (.open, .permissionDenied), (.open, .notPermitted):
            self.init(.inputUnavailable,
                      "cannot open \(quoted): \(cause); check the file's owner and permissions (logs are created 0600 for the user that writes them)",
                      location: location)
        case (.open, .isDirectory), (.read, .isDirectory):
            self.init(.inputUnavailable,
                      "\(quoted) is a directory, not a log file; pass the path of the log file itself, e.g. '\(path)/events.jsonl'",
                      location: location)
        case (.open, .notDirectory):
            self.init(.inputUnavailable, "cannot open \(quoted): a component of the path is not a directory (\(cause)); check the path",
                      location: location)
        case (.read, _):
            self.init(.inputUnavailable, "cannot read \(quoted): \(cause); check the disk and the file's permissions", location: location)
        case (_, .noSpace):
            self.init(.io, "disk full while \(operation.gerund) \(quoted): \(cause); free some space and retry", location: location)
        case (_, .quotaExceeded):
            self.init(.io, "disk quota exceeded while \(operation.gerund) \(quoted): \(cause); free some space or raise the quota and retry",
                      location: location)
        case (_, .fileTooLarge):
            self.init(.io,
                      "file size limit exceeded while \(operation.gerund) \(quoted): \(cause); raise the limit ('ulimit -f') or the file system's maximum file size, or start a new log",
                      location: location)
        case (_, .readOnlyFileSystem):
            self.init(.io, "cannot write \(quoted): the file system is read-only (\(cause)); remount it read-write or use a log elsewhere",
                      location: location)
        case (_, .ioError):
            self.init(.io, "I/O error while \(operation.gerund) \(quoted): \(cause); the disk may be failing, check the system log (dmesg)",
                      location: location)
        default:
            self.init(.io, "\(operation.gerund) \(quoted) failed: \(cause)", location: location)
        }
    }
}
