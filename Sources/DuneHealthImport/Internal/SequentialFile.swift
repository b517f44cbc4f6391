import DuneEvents

/// A file read front to back with `read(2)` through the platform layer's
/// `FileDescriptor`, for the Apple Health importer and the command line's
/// input reader (neither imports libc): it works for regular files and for
/// standard input. The callers word the failures; this type only says what went wrong.
///
/// Not `Sendable`: one reader owns it.
package final class SequentialFile {
    /// Why a file could not be opened or read: the `errno` value, which the
    /// importer words by cause (missing, not permitted, a directory).
    package struct Failure: Error, Sendable, Equatable {
        package let code: Errno

        /// The C library's text and number, e.g. "No such file or directory (errno 2)".
        package var cause: String { "\(code.description) (errno \(code.rawValue))" }

        /// The failure in the log layer's standard wording (the one
        /// `DuneEventsError` gives every failed system call), for a file
        /// being opened or read at `path`.
        package func error(opening: Bool, path: String) -> DuneEventsError {
            DuneEventsError(code, during: opening ? .open : .read, path: path)
        }
    }

    /// The file's size when it is a regular file, else `nil` (a pipe, a terminal).
    package let size: Int64?
    /// Whether the descriptor names a directory (`read` would fail with `EISDIR`).
    package let isDirectory: Bool
    private let descriptor: FileDescriptor
    private let ownsDescriptor: Bool
    private var isClosed = false

    /// Opens `path` for reading; `-` is standard input, which is read but never closed.
    ///
    /// - Throws: ``Failure`` when it cannot be opened.
    package init(path: String) throws(Failure) {
        if path == "-" {
            descriptor = FileDescriptor(rawValue: 0)
            ownsDescriptor = false
        } else {
            do throws(Errno) {
                descriptor = try FileDescriptor.open(path, .readOnly)
            } catch {
                throw Failure(code: error)
            }
            ownsDescriptor = true
        }
        let status = try? descriptor.status()
        isDirectory = status?.isDirectory ?? false
        size = status.flatMap { $0.isRegularFile ? Int64($0.size) : nil }
    }

    deinit {
        close()
    }

    /// Closes the file (never standard input). Idempotent; reading after it fails.
    package func close() {
        guard !isClosed else { return }
        isClosed = true
        if ownsDescriptor { try? descriptor.close() }
    }

    /// Reads up to `count` bytes into `buffer`; `0` means end of file.
    ///
    /// - Throws: ``Failure`` when the read fails.
    package func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(Failure) -> Int {
        do throws(Errno) {
            return try descriptor.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
        } catch {
            throw Failure(code: error)
        }
    }
}
