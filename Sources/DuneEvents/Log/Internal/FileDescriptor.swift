// Linux only (the project's platform): Glibc, as STYLE.md says.
@preconcurrency import Glibc

/// An open file descriptor and the handful of system calls the log needs
/// (swift-system's `FileDescriptor`, cut down to what `LogFile` uses).
///
/// Every call retries on `EINTR` and throws `Errno`; mapping to
/// `DuneEventsError` happens one level up, where the path is known. The value
/// does not own the descriptor: whoever opened it closes it (`LogFile`).
struct FileDescriptor: Sendable, Hashable {
    let rawValue: CInt

    init(rawValue: CInt) {
        self.rawValue = rawValue
    }

    // MARK: - Open and close

    /// Opens `path` with `flags | O_CLOEXEC` (always: a log descriptor must
    /// never leak into a child process, where it would keep the lock alive).
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - flags: `O_RDONLY`, `O_RDWR | O_APPEND | O_CREAT`, …
    ///   - permissions: The mode for a created file (before the umask).
    static func open(_ path: String, _ flags: CInt, permissions: mode_t = 0o600) throws(Errno) -> FileDescriptor {
        let raw = try retryingOnInterrupt { Glibc.open(path, flags | O_CLOEXEC, permissions) }
        return FileDescriptor(rawValue: raw)
    }

    /// Closes the descriptor. Never retried: on Linux the descriptor is
    /// released even when `close` fails, and a retry could close a file some
    /// other thread has just opened.
    func close() throws(Errno) {
        if Glibc.close(rawValue) == -1 {
            let failure = Errno.current
            if failure != .interrupted { throw failure }
        }
    }

    // MARK: - Read and write

    /// One `pread(2)`: reads up to `buffer.count` bytes at `offset` without
    /// moving the file offset.
    ///
    /// - Returns: The number of bytes read; `0` at end of file.
    func read(into buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retryingOnInterrupt { pread(rawValue, base, buffer.count, off_t(offset)) }
    }

    /// One `write(2)`.
    ///
    /// - Returns: The number of bytes written, possibly fewer than asked.
    func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retryingOnInterrupt { Glibc.write(rawValue, base, buffer.count) }
    }

    /// A single-call write function, the seam `LogFile` uses so tests can
    /// make a write fail part-way.
    typealias WriteFunction = @Sendable (FileDescriptor, UnsafeRawBufferPointer) throws(Errno) -> Int

    /// The real `write(2)`.
    static let systemWrite: WriteFunction = { descriptor, buffer throws(Errno) in
        try descriptor.write(buffer)
    }

    /// Writes every byte of `buffer`, looping over short writes.
    ///
    /// A short write followed by a failing one (disk full, `EFBIG` past the
    /// file size limit, `EIO`) throws the failure; some bytes may already be
    /// in the file, and the caller decides how to roll back.
    ///
    /// - Parameter write: The single-call write (the real one unless testing).
    func writeAll(_ buffer: UnsafeRawBufferPointer, using write: WriteFunction = systemWrite) throws(Errno) {
        var written = 0
        while written < buffer.count {
            let rest = UnsafeRawBufferPointer(rebasing: buffer[written...])
            let count = try write(self, rest)
            // A regular file never accepts 0 bytes of a non-empty write; treat
            // it as an I/O error instead of spinning.
            guard count > 0 else { throw Errno.ioError }
            written += count
        }
    }

    /// `pread`s exactly `buffer.count` bytes at `offset`.
    ///
    /// - Throws: `Errno` on failure, `EIO` if the file ends first (it shrank
    ///   under us).
    func readExactly(into buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int) throws(Errno) {
        var done = 0
        while done < buffer.count {
            let count = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), atOffset: offset + done)
            guard count > 0 else { throw Errno.ioError }
            done += count
        }
    }

    // MARK: - Durability, size, locks

    /// `fsync(2)`: data and metadata on stable storage.
    func sync() throws(Errno) {
        _ = try retryingOnInterrupt { fsync(rawValue) }
    }

    /// `fdatasync(2)`: data and the metadata needed to read it back (the file
    /// size included), which is all an append needs.
    func syncData() throws(Errno) {
        _ = try retryingOnInterrupt { fdatasync(rawValue) }
    }

    /// `ftruncate(2)`.
    func resize(to size: Int) throws(Errno) {
        _ = try retryingOnInterrupt { ftruncate(rawValue, off_t(size)) }
    }

    /// `fstat(2)`.
    func status() throws(Errno) -> FileStatus {
        var info = stat()
        _ = try retryingOnInterrupt { fstat(rawValue, &info) }
        return FileStatus(info)
    }

    /// `flock(2)` with `LOCK_EX`, or `LOCK_EX | LOCK_NB` when `blocking` is false.
    ///
    /// `flock` locks belong to the open file description: a second `open` of
    /// the same file, even in the same process, conflicts with this one.
    ///
    /// - Throws: `Errno.wouldBlock` when not blocking and another description
    ///   holds the lock.
    func lockExclusive(blocking: Bool) throws(Errno) {
        let operation = blocking ? LOCK_EX : LOCK_EX | LOCK_NB
        _ = try retryingOnInterrupt { flock(rawValue, operation) }
    }

    /// `fchmod(2)`.
    func setPermissions(_ permissions: mode_t) throws(Errno) {
        _ = try retryingOnInterrupt { fchmod(rawValue, permissions) }
    }
}

// MARK: - File status

/// The parts of `struct stat` the log looks at.
struct FileStatus: Sendable, Equatable {
    var size: Int
    /// The file type bits (`S_IFMT`) of `st_mode`.
    var type: mode_t
    /// The permission bits (`0o7777`) of `st_mode`.
    var permissions: mode_t

    init(_ info: stat) {
        size = Int(info.st_size)
        type = info.st_mode & S_IFMT
        permissions = info.st_mode & 0o7777
    }

    var isRegularFile: Bool { type == S_IFREG }
    var isDirectory: Bool { type == S_IFDIR }
}
