import Synchronization

/// One log file at the byte level: open, lock, append whole batches, sync,
/// truncate, read at an offset (docs/log-format.md). It knows nothing about JSON.
///
/// There is one writer at a time across processes: `openForAppend` takes an
/// exclusive `flock` that lasts until the file is closed. Readers open with
/// `openForReading`, take no lock and never wait.
///
/// ```swift
/// let log = try LogFile.openForAppend(path: "Logs/events.jsonl", create: true, lock: .failIfLocked)
/// if case .quarantined(let report) = try log.quarantineTornTail() { warn(report.description) }
/// try log.append(batch, sync: true)   // all of `batch`, or nothing
/// ```
///
/// ## Concurrency
///
/// `LogFile` is `Sendable` without `@unchecked`: its only mutable state, the
/// descriptor, lives in a `Mutex`, and every operation runs under that lock,
/// so calls from different tasks are serialized (an append's size-then-write-
/// then-rollback can never interleave with another call). An actor such as
/// `EventLog` can own one and call it synchronously.
///
/// The descriptor is closed by `close()` or, at the latest, when the last
/// reference goes away; closing releases the writer lock.
package final class LogFile: Sendable {
    /// What `openForAppend` does when another writer holds the lock.
    package enum LockMode: Sendable, Equatable {
        /// Fail at once with `DuneEventsError.Code.logLocked` (`flock` with `LOCK_NB`).
        case failIfLocked
        /// Block until the other writer closes the log.
        case wait
        /// Take no lock now: the caller takes it around each write
        /// (``lock(_:isCancelled:)``, ``unlock()``), as a store does.
        case deferred
    }

    /// The path the file was opened with.
    package let path: String

    /// Whether this is the writer: opened by `openForAppend`, holding the lock.
    package let isWriter: Bool

    /// The open descriptor; `nil` once closed.
    private let descriptor: Mutex<FileDescriptor?>

    /// The Data Protection class of the files this writer creates beside the
    /// log (torn-tail side files); `.default` for a reader.
    package let protection: FileProtection

    /// The single-call `write(2)`; a seam for tests of partial writes.
    private let writeOnce: FileDescriptor.WriteFunction

    /// The file system this writer's files are written through (the log,
    /// side files, the synced-length record): ``FileSystemWitness/system``
    /// unless a test records the calls.
    package let fileSystem: FileSystemWitness

    /// The writer's `<log>.synced` record (LogFile+SyncedLength.swift).
    let syncedRecord = Mutex(SyncedLengthRecord.State())

    init(path: String, descriptor: FileDescriptor, isWriter: Bool, protection: FileProtection,
         write: @escaping FileDescriptor.WriteFunction, fileSystem: FileSystemWitness = .system) {
        self.path = path
        self.isWriter = isWriter
        self.protection = protection
        self.descriptor = Mutex(descriptor)
        self.writeOnce = write
        self.fileSystem = fileSystem
    }

    deinit {
        descriptor.withLock { descriptor in
            if let open = descriptor {
                try? open.close()
                descriptor = nil
            }
        }
        closeSyncedRecord()
    }

    // MARK: - Opening

    /// Opens the log for appending and takes the writer lock.
    ///
    /// The file is opened `O_RDWR | O_APPEND | O_CLOEXEC`. When it does not
    /// exist and `create` is true, missing parent directories are created
    /// with mode 0700, the file with mode 0600 (health data; exact, whatever
    /// the umask), and the parent directory is `fsync`ed so the new file
    /// survives a crash.
    ///
    /// - Parameters:
    ///   - path: The log file.
    ///   - create: Whether to create the file (and its directories) if missing.
    ///   - lock: Fail at once or wait when another writer holds the lock.
    ///     The lock is an `flock(LOCK_EX)` on this open file description, so a
    ///     second `openForAppend` of the same file conflicts even in the same
    ///     process.
    ///   - protection: The Data Protection class of a file this call
    ///     creates (and of its side files); applied on iOS, watchOS, tvOS and
    ///     visionOS, accepted and ignored on macOS and Linux.
    /// - Returns: The writer, holding the lock until it is closed.
    /// - Throws: `DuneEventsError` — `.logLocked` when another writer holds
    ///   the lock and `lock` is `.failIfLocked`; `.inputUnavailable` when the
    ///   file is missing (and `create` is false), not readable, a directory or
    ///   not a regular file; `.io` when a directory or the file cannot be
    ///   created or synced.
    package static func openForAppend(path: String, create: Bool = true, lock: LockMode = .failIfLocked,
                                     protection: FileProtection = .default,
                                     fileSystem: FileSystemWitness = .system) throws(DuneEventsError) -> LogFile {
        try openForAppend(path: path, create: create, lock: lock, protection: protection, write: FileDescriptor.systemWrite,
                          fileSystem: fileSystem)
    }

    /// `openForAppend` with an injectable single-call write, for tests.
    static func openForAppend(path: String, create: Bool, lock: LockMode, protection: FileProtection = .default,
                              write: @escaping FileDescriptor.WriteFunction,
                              fileSystem: FileSystemWitness = .system) throws(DuneEventsError) -> LogFile {
        for _ in 0..<maximumReopens {
            let descriptor = try openOrCreate(path, create: create, protection: protection, fileSystem: fileSystem)
            let file = LogFile(path: path, descriptor: descriptor, isWriter: true, protection: protection, write: write,
                               fileSystem: fileSystem)
            // From here on `file` owns the descriptor: a throw closes it (deinit).
            try file.requireRegularFile()
            if lock == .deferred { return file }
            do throws(Errno) {
                try descriptor.lockExclusive(blocking: lock == .wait)
            } catch {
                if error == .wouldBlock || error == .tryAgain {
                    throw DuneEventsError(.logLocked,
                                          "log '\(path)' is in use by another writer",
                                          location: .init(path: path))
                }
                throw DuneEventsError(error, during: .lock, path: path)
            }
            // `flock` belongs to an inode, not a path: while this writer waited, the log
            // may have been replaced (`forget` renames a rewritten log over it). Append
            // only to the file the path names now: otherwise drop this one (closing it
            // releases its lock) and open the path again.
            if let held = try? file.identity, FileSystem.identity(ofPath: path) == held { return file }
        }
        throw DuneEventsError(.io, "log '\(path)' was replaced \(maximumReopens) times while this writer waited for its lock; try again",
                              location: .init(path: path))
    }

    /// How often `openForAppend` opens the path again when the file it locked
    /// was replaced meanwhile, before it gives up.
    static let maximumReopens = 64

    /// Whether another process holds the writer lock of this file right now.
    ///
    /// Readers use it to tell a line a writer is still appending from a torn
    /// tail: asks for a shared `flock` without blocking and gives it back at once.
    /// `false` when the file is not locked (or cannot be asked).
    package func hasActiveWriter() -> Bool {
        let locked = try? withDescriptor(.lock) { descriptor in
            descriptor.isLockedExclusivelyElsewhere()
        }
        return locked ?? false
    }

    /// Opens the log for reading: no lock, never blocks, never writes.
    ///
    /// `O_NONBLOCK` keeps the open itself from blocking when the path is a
    /// FIFO (a plain `O_RDONLY` open waits for a writer forever); such a path
    /// is then refused as not a regular file. On a regular file the flag
    /// changes nothing.
    ///
    /// - Parameter path: The log file.
    /// - Returns: A reader; `append` and `truncate` on it throw.
    /// - Throws: `DuneEventsError.Code.inputUnavailable` when the file is
    ///   missing, unreadable, a directory or not a regular file.
    package static func openForReading(path: String) throws(DuneEventsError) -> LogFile {
        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = try FileDescriptor.open(path, .readOnlyNonBlocking)
        } catch {
            throw DuneEventsError(error, during: .open, path: path)
        }
        let file = LogFile(path: path, descriptor: descriptor, isWriter: false, protection: .default, write: FileDescriptor.systemWrite)
        try file.requireRegularFile()
        return file
    }

    /// Opens `path`, creating it (and its directories) when allowed and missing.
    private static func openOrCreate(_ path: String, create: Bool, protection: FileProtection,
                                     fileSystem: FileSystemWitness) throws(DuneEventsError) -> FileDescriptor {
        while true {
            do throws(Errno) {
                return try FileDescriptor.open(path, .readWriteAppend, fileSystem: fileSystem)
            } catch {
                guard create, error == .noSuchFile else { throw DuneEventsError(error, during: .open, path: path) }
            }
            let directory = FileSystem.parentDirectory(of: path)
            try FileSystem.createDirectories(directory, fileSystem: fileSystem)
            let created: FileDescriptor
            do throws(Errno) {
                created = try FileSystem.createFile(path, access: .readWriteAppend, ifExists: .fail, protection: protection,
                                                    fileSystem: fileSystem)
            } catch {
                if error == .fileExists { continue }  // another process won the race: open its file
                throw DuneEventsError(error, during: .open, path: path)
            }
            do throws(Errno) {
                try created.setPermissions(0o600)  // the umask may have removed bits we want exact
                try FileSystem.syncDirectory(directory, fileSystem: fileSystem)
            } catch {
                try? created.close()
                throw DuneEventsError(error, during: .syncDirectory, path: directory)
            }
            return created
        }
    }

    /// Throws unless the open file is a regular file.
    private func requireRegularFile() throws(DuneEventsError) {
        let status = try status()
        guard status.isRegularFile else {
            let what = status.isDirectory ? "a directory" : "not a regular file"
            throw DuneEventsError(.inputUnavailable,
                                  "'\(path)' is \(what), not a log file; pass the path of the log file itself",
                                  location: .init(path: path))
        }
    }

    // MARK: - Running a call on the open descriptor

    /// Runs `body` with the open descriptor, under the lock.
    ///
    /// - Parameter operation: Names the call in the error for a closed file.
    func withDescriptor<Result: Sendable>(
        _ operation: FileOperation,
        _ body: (FileDescriptor) throws(DuneEventsError) -> Result
    ) throws(DuneEventsError) -> Result {
        try descriptor.withLock { (descriptor: inout FileDescriptor?) throws(DuneEventsError) -> Result in
            guard let open = descriptor else {
                throw DuneEventsError(.io, "cannot go on \(operation.gerund) '\(path)': the log file was already closed; open it again",
                                      location: .init(path: path))
            }
            return try body(open)
        }
    }

    /// Throws unless this is the writer.
    private func requireWriter(_ operation: FileOperation) throws(DuneEventsError) {
        guard isWriter else {
            throw DuneEventsError(.io, "cannot go on \(operation.gerund) '\(path)': it was opened for reading; open it with LogFile.openForAppend",
                                  location: .init(path: path))
        }
    }

    /// `fstat` of the open file.
    func status() throws(DuneEventsError) -> FileStatus {
        try withDescriptor(.status) { descriptor throws(DuneEventsError) in
            try Self.status(of: descriptor, path: path)
        }
    }

    static func status(of descriptor: FileDescriptor, path: String) throws(DuneEventsError) -> FileStatus {
        do throws(Errno) {
            return try descriptor.status()
        } catch {
            throw DuneEventsError(error, during: .status, path: path)
        }
    }

    // MARK: - Size, reading

    /// The file's current size in bytes (`fstat`), including any bytes a
    /// concurrent writer has written so far.
    ///
    /// - Throws: `DuneEventsError` `.io` if `fstat` fails or the file is closed.
    package var size: Int {
        get throws(DuneEventsError) { try status().size }
    }

    /// The `count` bytes at `offset`, read with as many `pread`s as it takes:
    /// fewer only where the file ends first, none at or past its end.
    ///
    /// - Throws: `DuneEventsError` `.inputUnavailable` if a read fails.
    package func bytes(upTo count: Int, at offset: Int) throws(DuneEventsError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let start = filled
            let read = try MutableByteView.with(&bytes) { view in
                Result { () throws(DuneEventsError) in try self.read(into: view.subview(start..<view.count), at: offset + start) }
            }.get()
            if read == 0 { break }
            filled += read
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// Reads up to `buffer.count` bytes at `offset` with one `pread` (the
    /// file offset does not move; safe next to appends).
    ///
    /// - Parameters:
    ///   - buffer: Where to put the bytes.
    ///   - offset: The byte offset in the file, `0` or more.
    /// - Returns: The number of bytes read: fewer than asked only near the
    ///   end of the file, `0` at or past it.
    /// - Throws: `DuneEventsError` `.inputUnavailable` if the read fails.
    package func read(into buffer: MutableByteView, at offset: Int) throws(DuneEventsError) -> Int {
        try withDescriptor(.read) { descriptor throws(DuneEventsError) in
            do throws(Errno) {
                return try descriptor.read(into: buffer, atOffset: offset)
            } catch {
                throw DuneEventsError(error, during: .read, path: path)
            }
        }
    }

    // MARK: - Appending

    /// Appends a whole batch, or nothing.
    ///
    /// The bytes go out in one `write` (looped only over short writes), then,
    /// if `sync` is true, one durable sync (`FileDescriptor.durableSync`: the
    /// platform's way to put the data and the new file size on stable
    /// storage, the drive's cache included). If the write fails part-way — disk
    /// full (`ENOSPC`), file size limit (`EFBIG`: the process's `ulimit -f`
    /// with `SIGXFSZ` ignored, or the file system's maximum), `EIO` — or the
    /// sync fails, the file is truncated back to its size before the call, so
    /// no partial line and no unacknowledged batch is left behind, and the
    /// error is thrown.
    ///
    /// A reader running at the same moment may already have seen lines of a
    /// batch that is then rolled back; they were never acknowledged. An empty
    /// batch does nothing (not even the sync; call `sync()` for that).
    ///
    /// - Parameters:
    ///   - bytes: Whole lines, each ending with `\n` (not checked here).
    ///   - sync: Whether to make the batch durable before returning.
    /// - Throws: `DuneEventsError` `.io` with "disk full", "file size limit
    ///   exceeded", … and what to do; the message also says whether the
    ///   rollback succeeded. Also `.io` if this `LogFile` is not the writer.
    package func append(_ bytes: [UInt8], sync: Bool) throws(DuneEventsError) {
        try append(parts: [bytes], sync: sync)
    }

    /// Appends a whole batch held in several buffers (`parts`, in order), or
    /// nothing: as ``append(_:sync:)`` of their
    /// bytes back to back — one rollback point before the first, one sync
    /// after the last — without copying them into one buffer first.
    package func append(parts: [[UInt8]], sync: Bool) throws(DuneEventsError) {
        try appendBatch(isEmpty: parts.allSatisfy(\.isEmpty), sync: sync) { descriptor throws(Errno) in
            for part in parts {
                try descriptor.writeAll(part, using: writeOnce)
            }
        }
    }

    /// The one append: `write` puts the batch's bytes after the file's end;
    /// a failed write or sync truncates the file back to where it began.
    private func appendBatch(isEmpty: Bool, sync: Bool,
                             write: (FileDescriptor) throws(Errno) -> Void) throws(DuneEventsError) {
        try requireWriter(.write)
        try withDescriptor(.write) { descriptor throws(DuneEventsError) in
            guard !isEmpty else { return }
            let sizeBefore = try Self.status(of: descriptor, path: path).size
            do throws(Errno) {
                try write(descriptor)
            } catch {
                throw rollBack(descriptor, to: sizeBefore, after: DuneEventsError(error, during: .write, path: path))
            }
            guard sync else { return }
            do throws(Errno) {
                try descriptor.durableSync()
            } catch {
                throw rollBack(descriptor, to: sizeBefore, after: DuneEventsError(error, during: .sync, path: path))
            }
            if let synced = try? descriptor.status().size { noteSynced(length: synced, descriptor) }
        }
    }


    /// Truncates the file back to `size` after a failed append and says so in
    /// the returned error.
    private func rollBack(_ descriptor: FileDescriptor, to size: Int, after failure: DuneEventsError) -> DuneEventsError {
        var reported = failure
        reported.location.byteOffset = size
        do throws(Errno) {
            try descriptor.resize(to: size)
            // Best effort: make the shorter size durable too, so a crash now
            // cannot bring back a prefix of the failed batch.
            try? descriptor.durableSync()
            reported.message += ". Nothing of this batch was kept: the log was truncated back to \(size) bytes"
        } catch {
            reported.message += ". Rolling back also failed (\(error.description)): the log may end with part of this batch;"
                + " the next open moves it aside as a torn tail"
        }
        return reported
    }

    // MARK: - Truncate, sync, close

    /// Truncates the file to `size` bytes. Not durable until `sync()`.
    ///
    /// - Parameter size: The new size, at most the current size.
    /// - Throws: `DuneEventsError` `.io` if `ftruncate` fails or this is not
    ///   the writer.
    package func truncate(to size: Int) throws(DuneEventsError) {
        try requireWriter(.truncate)
        try withDescriptor(.truncate) { descriptor throws(DuneEventsError) in
            do throws(Errno) {
                // The record must never claim bytes that are about to be replaced.
                try lowerSyncedRecord(to: size, descriptor)
                try descriptor.resize(to: size)
            } catch {
                throw DuneEventsError(error, during: .truncate, path: path)
            }
        }
    }

    /// `fsync`: everything written so far, and the file's metadata, on disk.
    ///
    /// - Throws: `DuneEventsError` `.io` if `fsync` fails.
    package func sync() throws(DuneEventsError) {
        try withDescriptor(.sync) { descriptor throws(DuneEventsError) in
            do throws(Errno) {
                try descriptor.sync()
            } catch {
                throw DuneEventsError(error, during: .sync, path: path)
            }
            if isWriter, let synced = try? descriptor.status().size { noteSynced(length: synced, descriptor) }
        }
    }

    /// Closes the file now, releasing the writer lock. Calling it again does
    /// nothing; any other call after it throws.
    ///
    /// - Throws: `DuneEventsError` `.io` if `close` reports an error (the
    ///   descriptor is released anyway).
    package func close() throws(DuneEventsError) {
        closeSyncedRecord()
        let failure = descriptor.withLock { (descriptor: inout FileDescriptor?) -> Errno? in
            guard let open = descriptor else { return nil }
            descriptor = nil
            do throws(Errno) {
                try open.close()
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw DuneEventsError(failure, during: .close, path: path) }
    }
}
