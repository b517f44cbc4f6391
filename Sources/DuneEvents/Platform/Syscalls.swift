#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("DuneEvents' platform layer supports Glibc, Musl and Darwin")
#endif

// The raw system calls DuneEvents makes, one thin function each, in the
// manner of swift-system's `Internals/Syscalls.swift`: the only file that
// imports the C library and names its functions and constants (the other
// files of this folder call these). They return the C result
// (`-1` with `errno` set on failure); `retryingOnInterrupt` and `Errno`
// (Errno.swift) turn that into Swift errors, once.
//
// Where Linux and Darwin differ, the comment says so; README.md ("Platforms")
// lists each such call.

/// `open(2)` with `O_CLOEXEC` always (a log descriptor must never leak into a
/// child process, where it would keep the lock alive); with `creating`,
/// `O_CREAT` and `O_EXCL` or `O_TRUNC`.
func system_open(_ path: UnsafePointer<CChar>, _ access: FileDescriptor.Access,
                 creating existing: FileSystem.ExistingFile?, permissions: UInt32) -> CInt {
    var flags: CInt = switch access {
    case .readOnly: O_RDONLY
    case .readOnlyNonBlocking: O_RDONLY | O_NONBLOCK
    case .readWriteAppend: O_RDWR | O_APPEND
    case .writeOnly: O_WRONLY
    case .directory: O_RDONLY | O_DIRECTORY
    }
    switch existing {
    case .fail?: flags |= O_CREAT | O_EXCL
    case .truncate?: flags |= O_CREAT | O_TRUNC
    case nil: break
    }
    return open(path, flags | O_CLOEXEC, mode_t(permissions))
}

@inline(__always)
func system_close(_ fd: CInt) -> CInt {
    close(fd)
}

@inline(__always)
func system_read(_ fd: CInt, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

@inline(__always)
func system_pread(_ fd: CInt, _ buffer: UnsafeMutableRawPointer, _ count: Int, _ offset: Int) -> Int {
    pread(fd, buffer, count, off_t(offset))
}

@inline(__always)
func system_write(_ fd: CInt, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}

/// `pwrite(2)`: writes at `offset` without moving the file offset.
@inline(__always)
func system_pwrite(_ fd: CInt, _ buffer: UnsafeRawPointer, _ count: Int, _ offset: Int) -> Int {
    pwrite(fd, buffer, count, off_t(offset))
}

/// Data *and* metadata on stable storage (a truncation, a new side file, a
/// directory's entries).
///
/// - Linux: `fsync(2)`.
/// - Darwin: `fcntl(fd, F_FULLFSYNC)`, falling back to `fsync(2)` when the
///   file system refuses it: plain `fsync` leaves the data in the drive's
///   cache, where a power loss can drop it or reorder it after later writes.
@inline(__always)
func system_fullSync(_ fd: CInt) -> CInt {
    #if canImport(Darwin)
    if fcntl(fd, F_FULLFSYNC) != -1 { return 0 }
    return fsync(fd)
    #else
    return fsync(fd)
    #endif
}

/// The cheapest call that puts an appended file's data on stable storage.
///
/// - Linux: `fdatasync(2)`: the data and the metadata needed to read it back
///   (the size), which is all an append needs.
/// - Darwin: `fsync(2)` only moves data to the drive, whose cache may still
///   lose it on power failure; `fcntl(fd, F_FULLFSYNC)` asks the drive to
///   flush its cache too (fcntl(2), "F_FULLFSYNC"). Some file systems (network
///   and FUSE mounts, some external drives) refuse it; then fall back to
///   `fsync`, as SQLite's `PRAGMA fullfsync` does.
@inline(__always)
func system_durableSync(_ fd: CInt) -> CInt {
    #if canImport(Darwin)
    return system_fullSync(fd)  // Darwin has no fdatasync
    #else
    return fdatasync(fd)
    #endif
}

/// Turns the page cache off (`bypass` true) or back on for the writes
/// through `fd`; returns -1 with `errno` set when it cannot.
///
/// - Linux: the `O_DIRECT` status flag (`fcntl(F_SETFL)`). Glibc and Musl
///   declare `O_DIRECT` only for `_GNU_SOURCE`, which Swift does not set, so
///   the kernel's value is spelled here: `040000` on x86 and `0200000` on Arm
///   (the kernel's `asm-generic` and `arm64` `fcntl.h`). Other architectures
///   get `EINVAL`, and the caller writes through the cache. A file system
///   without direct I/O refuses the flag with `EINVAL` too. With the flag
///   on, a write's buffer address, length and file offset must be multiples
///   of the device's logical block size, or it fails with `EINVAL`.
/// - Darwin: `fcntl(F_NOCACHE)` (fcntl(2)), which has no alignment rule.
func system_setWritesBypassCache(_ fd: CInt, _ bypass: Bool) -> CInt {
    #if canImport(Darwin)
    return fcntl(fd, F_NOCACHE, bypass ? 1 : 0)
    #else
    #if arch(x86_64) || arch(i386)
    let direct: CInt = 0o40000
    #elseif arch(arm64) || arch(arm)
    let direct: CInt = 0o200000
    #else
    errno = EINVAL
    return -1
    #endif
    let flags = fcntl(fd, F_GETFL)
    guard flags != -1 else { return -1 }
    return fcntl(fd, F_SETFL, bypass ? flags | direct : flags & ~direct)
    #endif
}

@inline(__always)
func system_ftruncate(_ fd: CInt, _ size: Int) -> CInt {
    ftruncate(fd, off_t(size))
}

func system_fstat(_ fd: CInt, _ status: inout FileStatus) -> CInt {
    var info = stat()
    let result = fstat(fd, &info)
    if result == 0 { status = FileStatus(info) }
    return result
}

func system_stat(_ path: UnsafePointer<CChar>, _ status: inout FileStatus) -> CInt {
    var info = stat()
    let result = stat(path, &info)
    if result == 0 { status = FileStatus(info) }
    return result
}

extension FileStatus {
    init(_ info: stat) {
        size = Int(info.st_size)
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        isDirectory = info.st_mode & S_IFMT == S_IFDIR
        permissions = UInt32(info.st_mode & 0o7777)
        // `st_dev` is a 32-bit signed `dev_t` on Darwin, 64-bit unsigned on Linux.
        identity = FileIdentity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino))
    }
}

/// The `flock(2)` operations the log uses.
enum FileLockOperation {
    case exclusive, exclusiveNonBlocking, sharedNonBlocking, unlock
}

func system_flock(_ fd: CInt, _ operation: FileLockOperation) -> CInt {
    switch operation {
    case .exclusive: flock(fd, LOCK_EX)
    case .exclusiveNonBlocking: flock(fd, LOCK_EX | LOCK_NB)
    case .sharedNonBlocking: flock(fd, LOCK_SH | LOCK_NB)
    case .unlock: flock(fd, LOCK_UN)
    }
}

@inline(__always)
func system_fchmod(_ fd: CInt, _ permissions: UInt32) -> CInt {
    fchmod(fd, mode_t(permissions))
}

@inline(__always)
func system_chmod(_ path: UnsafePointer<CChar>, _ permissions: UInt32) -> CInt {
    chmod(path, mode_t(permissions))
}

@inline(__always)
func system_mkdir(_ path: UnsafePointer<CChar>, _ permissions: UInt32) -> CInt {
    mkdir(path, mode_t(permissions))
}

@inline(__always)
func system_rename(_ from: UnsafePointer<CChar>, _ to: UnsafePointer<CChar>) -> CInt {
    rename(from, to)
}

@inline(__always)
func system_unlink(_ path: UnsafePointer<CChar>) -> CInt {
    unlink(path)
}

@inline(__always)
func system_isatty(_ fd: CInt) -> Bool {
    isatty(fd) == 1
}

@inline(__always)
func system_getpid() -> CInt {
    getpid()
}

/// `statvfs(2)`: the bytes an unprivileged process may still write on the
/// file system holding `path` (`f_bavail * f_frsize`). The field types differ
/// (Darwin's `f_bavail` is 32-bit), hence the conversions.
func system_availableBytes(_ path: UnsafePointer<CChar>) -> Int64? {
    var info = statvfs()
    guard statvfs(path, &info) == 0 else { return nil }
    return Int64(clamping: UInt64(info.f_bavail) &* UInt64(info.f_frsize))
}

/// Sets a Data Protection class on an open file (fcntl(2)
/// `F_SETPROTECTIONCLASS`). Only iOS, watchOS, tvOS and visionOS devices
/// protect files by class; elsewhere (macOS, Linux, and the simulators, whose
/// files live on the Mac's disk and are not protected by class) this does
/// nothing and returns 0.
@inline(__always)
func system_setProtectionClass(_ fd: CInt, _ protectionClass: CInt) -> CInt {
    #if canImport(Darwin) && (os(iOS) || os(watchOS) || os(tvOS) || os(visionOS)) && !targetEnvironment(simulator)
    return fcntl(fd, F_SETPROTECTIONCLASS, protectionClass)
    #else
    return 0
    #endif
}

/// `errno` of the calling thread.
@inline(__always)
func system_errno() -> CInt {
    errno
}

/// `strerror(3)`.
func system_strerror(_ code: CInt) -> String {
    guard let text = strerror(code) else { return "errno \(code)" }
    return String(cString: text)
}

/// The first `byte` in `base[0..<count]` (`memchr(3)`: vectorized by the C
/// library, several times faster than a Swift byte loop on long lines).
@inline(__always)
func system_memchr(_ base: UnsafeRawPointer, _ byte: UInt8, _ count: Int) -> UnsafeRawPointer? {
    guard let found = memchr(base, CInt(byte), count) else { return nil }
    return UnsafeRawPointer(found)
}

// MARK: - Clocks

/// `clock_gettime(CLOCK_REALTIME)`: seconds and nanoseconds since 1970.
func system_realtime() -> (seconds: Int64, nanoseconds: Int64) {
    var spec = timespec()
    _ = clock_gettime(CLOCK_REALTIME, &spec)
    return (Int64(spec.tv_sec), Int64(spec.tv_nsec))
}

/// `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds.
func system_monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    _ = clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), in nanoseconds.
func system_threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    _ = clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// `nanosleep(2)` for `seconds`, resumed after a signal until the time has passed.
func system_sleep(seconds: Double) {
    var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
    var remaining = timespec()
    while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
}

// MARK: - Process

/// `getenv(3)`, as a `String`; `nil` when unset or not UTF-8.
func system_environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(validatingCString: value)
}

/// Ignores SIGPIPE (a closed stdout becomes an `EPIPE` write error) and
/// SIGXFSZ (a write past `ulimit -f` fails with `EFBIG` instead of killing
/// the process).
func system_ignoreBrokenPipeAndFileSizeSignals() {
    _ = signal(SIGPIPE, SIG_IGN)
    _ = signal(SIGXFSZ, SIG_IGN)
}

/// `exit(3)`.
func system_exit(_ status: CInt) -> Never {
    exit(status)
}

/// `sysconf(_SC_NPROCESSORS_ONLN)`.
func system_processorCount() -> Int {
    sysconf(CInt(_SC_NPROCESSORS_ONLN))
}

/// The names in directory `path` (`opendir(3)`/`readdir(3)`), without `.` and
/// `..`, in the order the file system gives them; `nil` if it cannot be opened.
func system_directoryEntries(_ path: UnsafePointer<CChar>) -> [String]? {
    guard let directory = opendir(path) else { return nil }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != ".", name != ".." { names.append(name) }
    }
    return names
}

// MARK: - Anonymous memory (ZeroedMemory)

/// `mmap(2)` of `byteCount` private, anonymous, zero-filled bytes; `nil` when it fails.
func system_mapZeroedMemory(_ byteCount: Int) -> UnsafeMutableRawPointer? {
    guard let mapped = mmap(nil, byteCount, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
          mapped != MAP_FAILED else { return nil }
    return mapped
}

func system_unmapMemory(_ base: UnsafeMutableRawPointer, _ byteCount: Int) {
    _ = munmap(base, byteCount)
}

/// `madvise(MADV_HUGEPAGE)` on Linux: advice only, a refusal is harmless.
/// Darwin has no such advice; there this does nothing.
func system_adviseHugePages(_ base: UnsafeMutableRawPointer, _ byteCount: Int) {
    #if os(Linux)
    _ = madvise(base, byteCount, MADV_HUGEPAGE)
    #endif
}

// MARK: - errno values

extension Errno {
    static let interrupted = Errno(EINTR)
    static let wouldBlock = Errno(EWOULDBLOCK)
    static let tryAgain = Errno(EAGAIN)
    static let noSuchFile = Errno(ENOENT)
    static let fileExists = Errno(EEXIST)
    static let isDirectory = Errno(EISDIR)
    static let notDirectory = Errno(ENOTDIR)
    static let permissionDenied = Errno(EACCES)
    static let notPermitted = Errno(EPERM)
    static let noSpace = Errno(ENOSPC)
    static let quotaExceeded = Errno(EDQUOT)
    static let fileTooLarge = Errno(EFBIG)
    static let ioError = Errno(EIO)
    static let invalidArgument = Errno(EINVAL)
    static let readOnlyFileSystem = Errno(EROFS)
}
