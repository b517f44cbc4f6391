// Linux only (the project's platform): Glibc, as STYLE.md says.
@preconcurrency import Glibc

/// Path-level system calls: `stat`, `mkdir -p`, directory `fsync`.
///
/// Like `FileDescriptor`, everything here retries on `EINTR`; functions that
/// know enough context throw `DuneEventsError` directly.
enum FileSystem {
    /// The directory holding `path`: `"."` for a bare file name, `"/"` for a
    /// file in the root. Trailing slashes are ignored.
    static func parentDirectory(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        var parent = bytes[..<slash]
        while parent.count > 1, parent.last == UInt8(ascii: "/") { parent.removeLast() }
        return parent.isEmpty ? "/" : String(decoding: parent, as: UTF8.self)
    }

    /// `stat(2)` (follows symbolic links).
    ///
    /// - Returns: The status, or `nil` if nothing exists at `path`.
    static func status(ofPath path: String) throws(Errno) -> FileStatus? {
        var info = stat()
        while stat(path, &info) == -1 {
            let failure = Errno.current
            if failure == .noSuchFile { return nil }
            if failure != .interrupted { throw failure }
        }
        return FileStatus(info)
    }

    /// `mkdir -p` with `permissions` for every directory it creates, each made
    /// durable by an `fsync` of its parent.
    ///
    /// - Throws: `DuneEventsError` `.io` if a directory cannot be created or a
    ///   path component exists and is not a directory.
    static func createDirectories(_ path: String, permissions: mode_t = 0o700) throws(DuneEventsError) {
        let existing: FileStatus?
        do throws(Errno) {
            existing = try status(ofPath: path)
        } catch {
            throw DuneEventsError(error, during: .createDirectory, path: path)
        }
        if let existing {
            guard existing.isDirectory else {
                throw DuneEventsError(.io, "cannot create the directory '\(path)': a file with that name exists; move it or choose another path",
                                      location: .init(path: path))
            }
            return
        }
        let parent = parentDirectory(of: path)
        if parent != path { try createDirectories(parent, permissions: permissions) }
        while mkdir(path, permissions) == -1 {
            let failure = Errno.current
            if failure == .fileExists { return }  // created concurrently: fine
            if failure != .interrupted { throw DuneEventsError(failure, during: .createDirectory, path: path) }
        }
        // mkdir applies the umask; make the mode exactly what was asked.
        _ = chmod(path, permissions)
        do throws(Errno) {
            try syncDirectory(parent)
        } catch {
            throw DuneEventsError(error, during: .syncDirectory, path: parent)
        }
    }

    /// Makes the entries of directory `path` durable: `open(O_RDONLY | O_DIRECTORY)`,
    /// `fsync`, `close`. Needed after creating, renaming or removing a file in it.
    static func syncDirectory(_ path: String) throws(Errno) {
        let directory = try FileDescriptor.open(path, O_RDONLY | O_DIRECTORY)
        do throws(Errno) {
            try directory.sync()
        } catch {
            try? directory.close()
            throw error
        }
        try directory.close()
    }
}
