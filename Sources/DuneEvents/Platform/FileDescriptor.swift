/// An open file descriptor and the handful of system calls the log needs
/// (swift-system's `FileDescriptor`, cut down to what `LogFile` uses).
///
/// Every call retries on `EINTR` and throws `Errno`; mapping to
/// `DuneEventsError` happens one level up, where the path is known. The value
/// does not own the descriptor: whoever opened it closes it (`LogFile`).
///
/// Its pointer-taking calls hand a buffer's base and exact count to the
/// system call and nothing else; everything outside the platform layer uses
/// the overloads that take arrays, a ``ByteView`` or a ``MutableByteView``.
package struct FileDescriptor: Sendable, Hashable {
    package let rawValue: CInt
    /// Where its writes, truncations, syncs and `close` go: the system calls,
    /// unless a test recording a crash's possible states opened it.
    let fileSystem: FileSystemWitness

    package init(rawValue: CInt, fileSystem: FileSystemWitness = .system) {
        self.rawValue = rawValue
        self.fileSystem = fileSystem
    }

    package static func == (lhs: FileDescriptor, rhs: FileDescriptor) -> Bool { lhs.rawValue == rhs.rawValue }

    package func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    // MARK: - Open and close

    /// How a file is opened; the platform's `O_*` flags stay in this folder.
    package enum Access: Sendable {
        /// `O_RDONLY`.
        case readOnly
        /// `O_RDONLY | O_NONBLOCK`: the open itself cannot block on a FIFO.
        case readOnlyNonBlocking
        /// `O_RDWR | O_APPEND`: the log's writer.
        case readWriteAppend
        /// `O_WRONLY`.
        case writeOnly
        /// `O_RDONLY | O_DIRECTORY`: to `fsync` a directory.
        case directory
    }

    /// Opens an existing file with `O_CLOEXEC` (always: a log descriptor must
    /// never leak into a child process, where it would keep the lock alive).
    /// Files are created only by ``FileSystem/createFile(_:access:ifExists:protection:applyProtection:)``.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - access: Read, append, write or directory.
    ///   - fileSystem: The file system the descriptor's writes go to.
    package static func open(_ path: String, _ access: Access, fileSystem: FileSystemWitness = .system) throws(Errno) -> FileDescriptor {
        let operations = fileSystem.operations
        let raw = try retryingOnInterrupt { operations.open(path, access, creating: nil, permissions: 0) }
        return FileDescriptor(rawValue: raw, fileSystem: fileSystem)
    }

    /// Closes the descriptor. Never retried: on Linux the descriptor is
    /// released even when `close` fails, and a retry could close a file some
    /// other thread has just opened.
    package func close() throws(Errno) {
        if fileSystem.operations.close(rawValue) == -1 {
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
        return try retryingOnInterrupt { system_pread(rawValue, base, buffer.count, offset) }
    }

    /// One `read(2)` at the file offset (for pipes and stdin, which `pread`
    /// cannot read).
    ///
    /// - Returns: The number of bytes read; `0` at end of file.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retryingOnInterrupt { system_read(rawValue, base, buffer.count) }
    }

    /// One `write(2)`.
    ///
    /// - Returns: The number of bytes written, possibly fewer than asked.
    func write(_ buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let operations = fileSystem.operations
        return try retryingOnInterrupt { operations.write(rawValue, base, buffer.count) }
    }

    /// One `pwrite(2)` at `offset`: the file offset does not move.
    ///
    /// - Returns: The number of bytes written, possibly fewer than asked.
    func write(_ buffer: UnsafeRawBufferPointer, atOffset offset: Int) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let operations = fileSystem.operations
        return try retryingOnInterrupt { operations.write(rawValue, base, buffer.count, at: offset) }
    }

    /// `pwrite`s every byte of `buffer` at `offset`, looping over short writes.
    func writeAll(_ buffer: UnsafeRawBufferPointer, atOffset offset: Int) throws(Errno) {
        var written = 0
        while written < buffer.count {
            let count = try write(UnsafeRawBufferPointer(rebasing: buffer[written...]), atOffset: offset + written)
            guard count > 0 else { throw Errno.ioError }
            written += count
        }
    }

    /// A single-call write function, the seam `LogFile` uses so tests can
    /// make a write fail part-way.
    package typealias WriteFunction = @Sendable (FileDescriptor, UnsafeRawBufferPointer) throws(Errno) -> Int

    /// The real `write(2)`.
    package static let systemWrite: WriteFunction = { descriptor, buffer throws(Errno) in
        try descriptor.write(buffer)
    }

    /// Writes every byte of `buffer`, looping over short writes.
    ///
    /// A short write followed by a failing one (disk full, `EFBIG` past the
    /// file size limit, `EIO`) throws the failure; some bytes may already be
    /// in the file, and the caller decides how to roll back.
    ///
    /// - Parameter write: The single-call write (the real one unless testing).
    package func writeAll(_ buffer: UnsafeRawBufferPointer, using write: WriteFunction = systemWrite) throws(Errno) {
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

    /// Writes every byte of `bytes`, looping over short writes, like
    /// ``writeAll(_:using:)`` with the real `write(2)`: the safe signature for
    /// callers that hold the bytes in an array.
    package func writeAll(_ bytes: [UInt8], using write: WriteFunction = systemWrite) throws(Errno) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try writeAll(buffer, using: write) }
        }.get()
    }

    /// `pwrite`s every byte of `bytes` at `offset`, looping over short writes.
    func writeAll(_ bytes: [UInt8], atOffset offset: Int) throws(Errno) {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try writeAll(buffer, atOffset: offset) }
        }.get()
    }

    /// One `write(2)` of the bytes in view.
    ///
    /// - Returns: The number of bytes written, possibly fewer than asked.
    func write(_ bytes: ByteView) throws(Errno) -> Int {
        try write(bytes.buffer)
    }

    /// One `pread(2)` into the view's bytes at `offset`.
    ///
    /// - Returns: The number of bytes read; `0` at end of file.
    func read(into view: MutableByteView, atOffset offset: Int) throws(Errno) -> Int {
        try read(into: view.buffer, atOffset: offset)
    }

    /// `pread`s exactly `view.count` bytes at `offset` into the view.
    ///
    /// - Throws: `Errno` on failure, `EIO` if the file ends first.
    func readExactly(into view: MutableByteView, atOffset offset: Int) throws(Errno) {
        try readExactly(into: view.buffer, atOffset: offset)
    }

    /// `pread`s exactly `bytes.count` bytes at `offset` into the array.
    ///
    /// - Throws: `Errno` on failure, `EIO` if the file ends first.
    func readExactly(into bytes: inout [UInt8], atOffset offset: Int) throws(Errno) {
        try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in try readExactly(into: buffer, atOffset: offset) }
        }.get()
    }

    /// One `pread(2)` of up to `count` bytes at `offset`.
    ///
    /// - Returns: The bytes read: fewer than `count` at end of file, none past it.
    package func read(upTo count: Int, atOffset offset: Int) throws(Errno) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        let read = try bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(Errno) in try self.read(into: buffer, atOffset: offset) }
        }.get()
        bytes.removeLast(count - read)
        return bytes
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

    /// Data and metadata on stable storage: `fsync(2)` on Linux; on Darwin
    /// `fcntl(F_FULLFSYNC)` with an `fsync` fallback (see `system_fullSync`).
    func sync() throws(Errno) {
        let operations = fileSystem.operations
        _ = try retryingOnInterrupt { operations.sync(rawValue, .full) }
    }

    /// Puts the file's data on stable storage, the platform's strongest way:
    /// `fdatasync(2)` on Linux; `fcntl(F_FULLFSYNC)`, falling back to `fsync`
    /// when the file system refuses it, on Darwin (see `system_durableSync`).
    /// An acknowledged append is one this returned for.
    func durableSync() throws(Errno) {
        let operations = fileSystem.operations
        _ = try retryingOnInterrupt { operations.sync(rawValue, .data) }
    }

    /// Applies a Data Protection class (iOS, watchOS, tvOS, visionOS);
    /// accepted and ignored on macOS, Mac Catalyst and Linux, and where the
    /// file system has no classes (`ENOTSUP`, see `Errno.meansNoProtectionClasses`).
    ///
    /// - Parameter apply: The `fcntl` call (the real one unless testing).
    func setProtection(_ protection: FileProtection, using apply: ProtectionFunction = systemSetProtection) throws(Errno) {
        do throws(Errno) {
            try apply(self, protection)
        } catch {
            if error.meansNoProtectionClasses { return }
            throw error
        }
    }

    /// Applies a protection class to a descriptor: the seam tests use to
    /// make `F_SETPROTECTIONCLASS` fail as it does on Apple platforms.
    package typealias ProtectionFunction = @Sendable (FileDescriptor, FileProtection) throws(Errno) -> Void

    /// The real `fcntl(F_SETPROTECTIONCLASS)` (`system_setProtectionClass`).
    package static let systemSetProtection: ProtectionFunction = { descriptor, protection throws(Errno) in
        _ = try retryingOnInterrupt { system_setProtectionClass(descriptor.rawValue, protection.protectionClass) }
    }

    /// Makes writes through this descriptor bypass the page cache, or go
    /// through it again (`O_DIRECT` on Linux, `F_NOCACHE` on Darwin; see
    /// `system_setWritesBypassCache`). For a large file written once and not
    /// read soon: its pages would cost as much to set up as to write, and push
    /// other files out of the cache.
    ///
    /// While on, on Linux, every write's buffer address, length and file
    /// offset must be multiples of ``uncachedWriteAlignment``; a write that is
    /// not, or a device with larger blocks, fails with `EINVAL`.
    ///
    /// - Throws: `Errno` when the platform or the file system offers no such
    ///   mode (`EINVAL`), or the flag cannot be changed.
    func setWritesBypassCache(_ bypass: Bool) throws(Errno) {
        _ = try retryingOnInterrupt { system_setWritesBypassCache(rawValue, bypass) }
    }

    /// The alignment ``setWritesBypassCache(_:)`` writes keep: 4096 bytes,
    /// a multiple of the usual logical block sizes (512 and 4096).
    static let uncachedWriteAlignment = 4096

    /// `ftruncate(2)`.
    func resize(to size: Int) throws(Errno) {
        let operations = fileSystem.operations
        _ = try retryingOnInterrupt { operations.truncate(rawValue, size) }
    }

    /// `fstat(2)`.
    package func status() throws(Errno) -> FileStatus {
        try retryingOnInterrupt { system_fstat(rawValue) }
    }

    /// Whether another open file description holds an exclusive `flock` on
    /// this file right now: asks for `LOCK_SH | LOCK_NB` and gives it back
    /// at once. `false` when the file is not locked or cannot be asked.
    func isLockedExclusivelyElsewhere() -> Bool {
        if system_flock(rawValue, .sharedNonBlocking) == 0 {
            _ = system_flock(rawValue, .unlock)
            return false
        }
        return Errno.current == .wouldBlock
    }

    /// `flock(2)` with `LOCK_EX`, or `LOCK_EX | LOCK_NB` when `blocking` is false.
    ///
    /// `flock` locks belong to the open file description: a second `open` of
    /// the same file, even in the same process, conflicts with this one.
    ///
    /// - Throws: `Errno.wouldBlock` when not blocking and another description
    ///   holds the lock.
    func lockExclusive(blocking: Bool) throws(Errno) {
        _ = try retryingOnInterrupt { system_flock(rawValue, blocking ? .exclusive : .exclusiveNonBlocking) }
    }

    /// `flock(2)` with `LOCK_UN`: gives the lock of this open file description back.
    func unlock() {
        _ = try? retryingOnInterrupt { system_flock(rawValue, .unlock) }
    }

    /// `fchmod(2)`.
    func setPermissions(_ permissions: UInt32) throws(Errno) {
        _ = try retryingOnInterrupt { system_fchmod(rawValue, permissions) }
    }
}

// MARK: - File status

/// The parts of `struct stat` the log looks at (from `system_fstat`, `system_stat` and `system_lstat`).
package struct FileStatus: Sendable, Equatable {
    package var size = 0
    /// Whether `st_mode`'s type is `S_IFREG`.
    package var isRegularFile = false
    /// Whether `st_mode`'s type is `S_IFDIR`.
    package var isDirectory = false
    /// Whether `st_mode`'s type is `S_IFLNK` (only from `lstat`).
    package var isSymbolicLink = false
    /// The permission bits (`0o7777`) of `st_mode`.
    var permissions: UInt32 = 0
    /// Which file this is: device and inode.
    var identity = FileIdentity(device: 0, inode: 0)

    package init() {}
}

// MARK: - File identity

/// Which file a descriptor or path names: its device and inode numbers.
///
/// Two paths, or a path and an open descriptor, name the same file exactly
/// when their identities are equal; a log replaced by `mv` or recreated gets
/// a new identity. `tail --follow` uses it to notice a replaced log, and
/// snapshots are stamped with it.
package struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
    /// `st_dev`.
    package var device: UInt64
    /// `st_ino`.
    package var inode: UInt64

    package init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    package var description: String { "device \(device), inode \(inode)" }
}
