import DuneEvents

/// The process-level services `dune-replay` needs from the platform layer:
/// standard streams, the environment, signals, exit, a path's kind. Kept here
/// so the CLI never imports libc either: every call goes through the platform
/// layer's ``ProcessCalls``.
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

    /// Writes every byte of `buffer` to descriptor `stream`, like
    /// ``write(_:to:)``, and says why when it cannot.
    ///
    /// - Throws: `DuneEventsError` `.io` naming `name` and the C library's
    ///   text: a full disk, a file size limit, a closed pipe (`EPIPE`), …
    package static func writeAll(_ buffer: UnsafeRawBufferPointer, to stream: Int32, name: String) throws(DuneEventsError) {
        try ProcessCalls.writeAll(buffer, toDescriptor: stream, name: name)
    }

    /// Whether descriptor `stream` is a terminal (`isatty(3)`).
    package static func isTerminal(_ stream: Int32) -> Bool {
        ProcessCalls.isTerminal(stream)
    }
}

/// The process: environment, signals, exit.
package enum ProcessEnvironment {
    /// The value of environment variable `name`; `nil` when unset or not UTF-8.
    package static func value(of name: String) -> String? {
        ProcessCalls.environmentValue(name)
    }

    /// Makes write failures errors instead of signals: `SIGPIPE` (stdout
    /// closed) and `SIGXFSZ` (past `ulimit -f`, so `write` fails with
    /// `EFBIG`) are ignored.
    package static func ignoreWriteSignals() {
        ProcessCalls.ignoreWriteSignals()
    }

    /// Ends the process with `status` (`exit(3)`).
    package static func exit(_ status: Int32) -> Never {
        ProcessCalls.exit(status)
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
        guard let status = ProcessCalls.entryKind(ofPath: path, followingLinks: true) else { return nil }
        return status.isRegularFile ? .regularFile : status.isDirectory ? .directory : .other
    }

    /// The kind of the directory entry `path` itself (`lstat(2)`: a symbolic
    /// link is `.symbolicLink`, not what it points to), or `nil` when nothing
    /// is there or it cannot be inspected.
    package static func entry(_ path: String) -> PathKind? {
        guard let status = ProcessCalls.entryKind(ofPath: path, followingLinks: false) else { return nil }
        if status.isSymbolicLink { return .symbolicLink }
        return status.isRegularFile ? .regularFile : status.isDirectory ? .directory : .other
    }
}

/// Output written into whatever a path names, the way a shell's `>` does:
/// for `report --html PATH` when PATH is a symbolic link, a FIFO or a device,
/// which a temporary file renamed over it would replace.
package enum RedirectedOutput {
    /// Opens `path` for writing (following a symbolic link; created with mode
    /// 0600 when nothing is there; a regular file is truncated), writes every
    /// byte of `bytes`, and closes it. Not atomic and not synced.
    ///
    /// - Throws: `DuneEventsError` when it cannot be opened or written.
    package static func write(_ bytes: [UInt8], to path: String) throws(DuneEventsError) {
        try ProcessCalls.writeThrough(bytes, to: path)
    }
}

/// Free space, for commands that must not start what the disk cannot hold
/// (`forget` rewrites the log beside itself).
package enum DiskSpace {
    /// The bytes this process may still write on the file system holding
    /// `path` (`statvfs(2)`), or `nil` when it cannot be asked.
    package static func availableBytes(onFileSystemOf path: String) -> Int64? {
        ProcessCalls.availableBytes(onFileSystemOf: path)
    }
}

/// Files in a folder, for commands that tidy one (`forget --out DIR`).
package enum FolderContents {
    /// The folder holding `path`: `.` for a bare file name, `/` for a file in the root.
    package static func folder(of path: String) -> String {
        ProcessCalls.folder(of: path)
    }

    /// The names in `directory`, sorted by their UTF-8 bytes; `nil` if it cannot be listed.
    package static func names(in directory: String) -> [String]? {
        ProcessCalls.names(in: directory)
    }

    /// Up to `count` bytes from the start of the regular file `path`; `nil` if it cannot be read.
    package static func prefix(of path: String, count: Int) -> [UInt8]? {
        ProcessCalls.prefix(of: path, count: count)
    }
}
