import Synchronization

/// Path-level system calls: creating files, `stat`, `mkdir -p`, `rename`,
/// `unlink`, directory `fsync`, free space.
///
/// Like `FileDescriptor`, everything here retries on `EINTR`; functions that
/// know enough context throw `DuneEventsError` directly.
package enum FileSystem {
    /// The directory holding `path`: `"."` for a bare file name, `"/"` for a
    /// file in the root. Trailing slashes are ignored.
    package static func parentDirectory(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
        var parent = bytes[..<slash]
        while parent.count > 1, parent.last == UInt8(ascii: "/") { parent.removeLast() }
        return parent.isEmpty ? "/" : String(decoding: parent, as: UTF8.self)
    }

    /// `stat(2)`, or `lstat(2)` when `followingSymbolicLinks` is false (a
    /// symbolic link then describes itself: ``FileStatus/isSymbolicLink``).
    ///
    /// - Returns: The status, or `nil` if nothing exists at `path` (or, when
    ///   following, a symbolic link there names nothing).
    package static func status(ofPath path: String, followingSymbolicLinks: Bool = true) throws(Errno) -> FileStatus? {
        do {
            return try retryingOnInterrupt { followingSymbolicLinks ? system_stat(path) : system_lstat(path) }
        } catch .noSuchFile {
            return nil
        }
    }

    /// `mkdir -p` with `permissions` for every directory it creates, each made
    /// durable by an `fsync` of its parent.
    ///
    /// - Throws: `DuneEventsError` `.io` if a directory cannot be created or a
    ///   path component exists and is not a directory.
    static func createDirectories(_ path: String, permissions: UInt32 = 0o700,
                                  fileSystem: FileSystemWitness = .system) throws(DuneEventsError) {
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
        if parent != path { try createDirectories(parent, permissions: permissions, fileSystem: fileSystem) }
        while fileSystem.operations.makeDirectory(path, permissions) == -1 {
            let failure = Errno.current
            if failure == .fileExists { return }  // created concurrently: fine
            if failure != .interrupted { throw DuneEventsError(failure, during: .createDirectory, path: path) }
        }
        // mkdir applies the umask; make the mode exactly what was asked.
        _ = system_chmod(path, permissions)
        do throws(Errno) {
            try syncDirectory(parent, fileSystem: fileSystem)
        } catch {
            throw DuneEventsError(error, during: .syncDirectory, path: parent)
        }
    }

    /// Makes the entries of directory `path` durable: `open(O_RDONLY | O_DIRECTORY)`,
    /// `fsync`, `close`. Needed after creating, renaming or removing a file in it.
    static func syncDirectory(_ path: String, fileSystem: FileSystemWitness = .system) throws(Errno) {
        let directory = try FileDescriptor.open(path, .directory, fileSystem: fileSystem)
        do throws(Errno) {
            try directory.sync()
        } catch {
            try? directory.close()
            throw error
        }
        try directory.close()
    }

    // MARK: - Creating files

    /// What ``createFile(_:access:ifExists:protection:applyProtection:)`` does when `path` exists.
    package enum ExistingFile: Sendable {
        /// Fail with `EEXIST` (`O_EXCL`): the log, side files.
        case fail
        /// Empty it (`O_TRUNC`): temporary files, exports.
        case truncate
    }

    /// Creates a file: the one way DuneEvents creates every file it writes
    /// (the log, its checkpoint, torn-tail side files, temporary files, read
    /// models, exports, snapshots).
    ///
    /// The file is created with mode 0600 (health data; the umask can only
    /// make it stricter) and `O_CLOEXEC`, then given `protection`. The caller
    /// makes the new entry durable with ``syncDirectory(_:)`` when it needs to.
    ///
    /// - Parameters:
    ///   - path: The file to create.
    ///   - access: `.readWriteAppend` (the log) or `.writeOnly`.
    ///   - ifExists: Fail, or truncate an existing file.
    ///   - protection: The Data Protection class; applied on iOS, watchOS,
    ///     tvOS and visionOS, accepted and ignored on macOS, Mac Catalyst and
    ///     Linux, and where the file system refuses classes with `ENOTSUP`.
    ///   - applyProtection: The `fcntl` call (the real one unless testing).
    /// - Returns: The open descriptor; the caller closes it.
    /// - Throws: `Errno` from `open(2)` or `fcntl(2)`; on a failed `fcntl`
    ///   the new file is closed and removed.
    package static func createFile(_ path: String, access: FileDescriptor.Access, ifExists: ExistingFile, protection: FileProtection,
                           applyProtection: FileDescriptor.ProtectionFunction = FileDescriptor.systemSetProtection,
                           fileSystem: FileSystemWitness = .system) throws(Errno) -> FileDescriptor {
        let operations = fileSystem.operations
        let raw = try retryingOnInterrupt { operations.open(path, access, creating: ifExists, permissions: 0o600) }
        let descriptor = FileDescriptor(rawValue: raw, fileSystem: fileSystem)
        do throws(Errno) {
            try descriptor.setProtection(protection, using: applyProtection)
        } catch {
            try? descriptor.close()
            _ = operations.unlink(path)
            throw error
        }
        return descriptor
    }

    /// Writes `bytes` to a temporary file beside `path`, `durableSync`s it,
    /// renames it over `path` and syncs the directory: readers see the old
    /// file or the new one, never a part.
    ///
    /// - Throws: `Errno` from any step; the temporary file is removed.
    static func writeAtomically(_ bytes: [UInt8], to path: String, protection: FileProtection,
                                fileSystem: FileSystemWitness = .system) throws(Errno) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try writeAtomically([ByteView(buffer)], to: path, protection: protection, fileSystem: fileSystem) }
        }.get()
    }

    /// ``writeAtomically(_:to:protection:fileSystem:)`` of `parts`, one after
    /// the other, from the memory that holds them (nothing is joined first).
    static func writeAtomically(_ parts: [ByteView], then streamed: AtomicFile.StreamedBytes = { _ in }, to path: String, protection: FileProtection,
                                fileSystem: FileSystemWitness = .system) throws(Errno) {
        let temporary = try writeTemporary(parts, then: streamed, beside: path, protection: protection, fileSystem: fileSystem)
        do throws(Errno) {
            try rename(temporary, to: path, fileSystem: fileSystem)
        } catch {
            _ = fileSystem.operations.unlink(temporary)
            throw error
        }
        try syncDirectory(parentDirectory(of: path), fileSystem: fileSystem)
    }

    /// Writes `parts`, one after the other, then the pieces `streamed` makes,
    /// to a new file beside `path`
    /// (`<path>.tmp-<pid>-<n>`, numbered so that two writers in one process
    /// never share one) and `durableSync`s it: the first half of
    /// ``writeAtomically(_:to:protection:fileSystem:)``.
    /// - Returns: The temporary file's path.
    /// - Throws: `Errno`; nothing is left behind then.
    static func writeTemporary(_ parts: [ByteView], then streamed: AtomicFile.StreamedBytes = { _ in }, beside path: String, protection: FileProtection,
                               fileSystem: FileSystemWitness = .system) throws(Errno) -> String {
        let number = temporaryCount.withLock { count in
            count += 1
            return count
        }
        let temporary = path + ".tmp-\(ProcessIdentity.current)-\(number)"
        let descriptor = try createFile(temporary, access: .writeOnly, ifExists: .truncate, protection: protection, fileSystem: fileSystem)
        do throws(Errno) {
            for part in parts { try descriptor.writeAll(part.buffer) }
            var failure: Errno?
            streamed { piece in
                guard failure == nil else { return }
                do throws(Errno) { try descriptor.writeAll(piece.buffer) } catch { failure = error }
            }
            if let failure { throw failure }
            try descriptor.durableSync()
            try descriptor.close()
        } catch {
            try? descriptor.close()
            _ = fileSystem.operations.unlink(temporary)
            throw error
        }
        return temporary
    }

    /// How many temporary files this process has written.
    private static let temporaryCount = Mutex<Int>(0)

    // MARK: - Names

    /// `rename(2)`: atomically replaces `destination` with `source`.
    static func rename(_ source: String, to destination: String, fileSystem: FileSystemWitness = .system) throws(Errno) {
        let operations = fileSystem.operations
        _ = try retryingOnInterrupt { operations.rename(source, destination) }
    }

    /// `unlink(2)`; a missing file is not an error.
    static func remove(_ path: String, fileSystem: FileSystemWitness = .system) throws(Errno) {
        while fileSystem.operations.unlink(path) == -1 {
            let failure = Errno.current
            if failure == .noSuchFile { return }
            if failure != .interrupted { throw failure }
        }
    }

    /// The names in directory `path`, sorted by their UTF-8 bytes (so callers
    /// act in the same order everywhere); `nil` if it cannot be listed.
    package static func entries(ofDirectory path: String) -> [String]? {
        system_directoryEntries(path)?.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The identity (device, inode) of the file `path` names now, following
    /// symbolic links; `nil` if nothing is there or it cannot be inspected.
    package static func identity(ofPath path: String) -> FileIdentity? {
        (try? status(ofPath: path))??.identity
    }

    /// The bytes this process may still write on the file system holding
    /// `path` (`statvfs(3)` on Linux, `statfs(2)` on Darwin: see
    /// `system_freeSpace`), or `nil` if it cannot be asked. Declared in
    /// PrivacyInfo.xcprivacy (disk space, E174.1).
    package static func availableBytes(onFileSystemOf path: String) -> Int64? {
        system_freeSpace(path)?.availableBytes
    }
}
