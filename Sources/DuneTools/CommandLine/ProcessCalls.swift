import DuneEvents

/// The file calls that only the command line makes: writing a standard stream,
/// whether a path is missing, a file written through a path, a file's first
/// bytes. Built on the platform layer's `package` wrappers (`FileDescriptor`,
/// `FileSystem`, `system_*`, which the command line also calls directly for the
/// environment, signals and exit), so that it never imports libc; not in
/// DuneEvents, since an app has no use for them.
package enum ProcessCalls {
    /// Writes every byte of `buffer` to descriptor `descriptor` (`write(2)`,
    /// retried on `EINTR` and short writes).
    ///
    /// - Throws: `DuneEventsError` `.io` naming `name` and the C library's
    ///   text: a full disk, a file size limit, a closed pipe (`EPIPE`), …
    package static func writeAll(_ buffer: UnsafeRawBufferPointer, toDescriptor descriptor: Int32,
                                 name: String) throws(DuneEventsError) {
        do throws(Errno) {
            try FileDescriptor(rawValue: descriptor).writeAll(buffer)
        } catch {
            throw DuneEventsError(error, during: .write, path: name)
        }
    }

    /// ``writeAll(_:toDescriptor:name:)`` for standard output, telling a
    /// reader that went away apart from a failed write: `false` when the
    /// pipe's reading end is closed (`EPIPE`, as `head` leaves it), which is
    /// how a reader says it has read enough, not an error.
    ///
    /// - Throws: `DuneEventsError` `.io` for every other failure (a full disk, a file size limit).
    package static func writeStandardOutput(_ buffer: UnsafeRawBufferPointer) throws(DuneEventsError) -> Bool {
        do throws(Errno) {
            try FileDescriptor(rawValue: 1).writeAll(buffer)
            return true
        } catch where error == .brokenPipe {
            return false
        } catch {
            throw DuneEventsError(error, during: .write, path: "standard output")
        }
    }

    /// Whether nothing is at `path` (`stat(2)` fails with `ENOENT` or
    /// `ENOTDIR`); `false` when something is there or it cannot be asked.
    package static func isMissing(_ path: String) -> Bool {
        do throws(Errno) {
            return try FileSystem.status(ofPath: path) == nil
        } catch {
            return false
        }
    }

    /// Opens `path` for writing (following a symbolic link; created with mode
    /// 0600 when nothing is there; a regular file is truncated), writes every
    /// byte of `bytes`, and closes it. Not atomic and not synced.
    ///
    /// - Throws: `DuneEventsError` when it cannot be opened or written.
    package static func writeThrough(_ bytes: [UInt8], to path: String) throws(DuneEventsError) {
        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = FileDescriptor(rawValue: try retryingOnInterrupt {
                system_open(path, .writeOnly, creating: .truncate, permissions: 0o600)
            })
        } catch {
            throw DuneEventsError(error, during: .open, path: path)
        }
        let written = Result { () throws(Errno) in try descriptor.writeAll(bytes) }
        let closed = Result { () throws(Errno) in try descriptor.close() }
        do throws(Errno) {
            try written.get()
            try closed.get()
        } catch {
            throw DuneEventsError(error, during: .write, path: path)
        }
    }

    /// Up to `count` bytes from the start of the regular file `path`; `nil` if it cannot be read.
    package static func prefix(of path: String, count: Int) -> [UInt8]? {
        guard let status = (try? FileSystem.status(ofPath: path)) ?? nil, status.isRegularFile,
              let descriptor = try? FileDescriptor.open(path, .readOnlyNonBlocking)
        else { return nil }
        defer { try? descriptor.close() }
        return try? descriptor.read(upTo: count, atOffset: 0)
    }
}
