import DuneEvents

/// A file written from its start in pieces, for output too large to hold at
/// once (a multi-gigabyte Apple Health export for a benchmark): created or
/// truncated (mode 0600), each piece written in full, closed when released.
/// Not atomic and not synced: for fixtures, never for the log or read models.
package final class OutputFile {
    /// The file's path.
    package let path: String
    private let descriptor: FileDescriptor

    /// Creates `path`, or truncates it when it exists.
    /// - Throws: `DuneEventsError(.io)` when the file cannot be created.
    package init(creating path: String) throws(DuneEventsError) {
        self.path = path
        do throws(Errno) {
            descriptor = try FileSystem.createFile(path, access: .writeOnly, ifExists: .truncate, protection: .default)
        } catch {
            throw Self.ioError(error, "create", path)
        }
    }

    deinit {
        try? descriptor.close()
    }

    /// Appends every byte of `bytes`.
    /// - Throws: `DuneEventsError(.io)` when a write fails (a full disk, …).
    package func write(_ bytes: [UInt8]) throws(DuneEventsError) {
        do throws(Errno) {
            try descriptor.writeAll(bytes)
        } catch {
            throw Self.ioError(error, "write", path)
        }
    }

    private static func ioError(_ code: Errno, _ verb: String, _ path: String) -> DuneEventsError {
        DuneEventsError(.io, "cannot \(verb) '\(path)': \(code.description) (errno \(code.rawValue)); check the directory and free space",
                        location: .init(path: path))
    }
}
