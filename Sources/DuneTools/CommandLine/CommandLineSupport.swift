import DuneEvents

/// The standard streams, for `dune-replay`: through the platform layer's
/// `ProcessCalls` (as are the environment, signals, exit, free space and a
/// folder's files), so the CLI never imports libc.
package enum StandardStreams {
    /// Standard output's descriptor number.
    package static let output: Int32 = 1
    /// Standard error's descriptor number.
    package static let error: Int32 = 2

    /// Writes every byte of `buffer` to descriptor `stream` (`write(2)`,
    /// retried on `EINTR` and short writes).
    ///
    /// - Returns: `false` when the stream is closed or failing (e.g. `| head`
    ///   exited): nothing more can be said there.
    @discardableResult
    package static func write(_ buffer: UnsafeRawBufferPointer, to stream: Int32) -> Bool {
        (try? ProcessCalls.writeAll(buffer, toDescriptor: stream, name: "")) != nil
    }
}

/// What a path names, for commands that check a path before using it.
package enum PathKind: Sendable, Equatable {
    case regularFile
    case directory
    /// A symbolic link (only from ``entry(_:)``, which does not follow it).
    case symbolicLink
    case other

    /// The kind of what `path` names (following symbolic links), or `nil`
    /// when nothing is there or it cannot be inspected.
    package static func of(_ path: String) -> PathKind? {
        guard let status = (try? FileSystem.status(ofPath: path)) ?? nil else { return nil }
        return PathKind(status)
    }

    /// The kind of the directory entry `path` itself (`lstat(2)`: a symbolic
    /// link is `.symbolicLink`, not what it points to), or `nil` when nothing
    /// is there or it cannot be inspected.
    package static func entry(_ path: String) -> PathKind? {
        var status = FileStatus()
        while system_lstat(path, &status) == -1 {
            if Errno.current != .interrupted { return nil }
        }
        return PathKind(status)
    }

    private init(_ status: FileStatus) {
        self = status.isSymbolicLink ? .symbolicLink : status.isRegularFile ? .regularFile : status.isDirectory ? .directory : .other
    }
}
