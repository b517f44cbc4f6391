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
// Where Linux and Darwin differ, the comment says so; docs/platforms.md
// lists each such call.

/// `open(2)` with `O_CLOEXEC` always (a log descriptor must never leak into a
/// child process, where it would keep the lock alive); with `creating`,
/// `O_CREAT` and `O_EXCL` or `O_TRUNC`.
package func system_open(_ path: UnsafePointer<CChar>, _ access: FileDescriptor.Access,
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
/// - Darwin: `fcntl(fd, F_FULLFSYNC)`, falling back to `fsync(2)` only when
///   the file system does not support it (`ENOTSUP`, or `EINVAL` for a file
///   that cannot be flushed so: see `Errno.meansFullSyncUnsupported`): plain
///   `fsync` leaves the data in the drive's cache, where a power loss can drop
///   it or reorder it after later writes. Any other failure (`EIO`, …) is
///   returned, with `errno` set, for the caller to report.
@inline(__always)
func system_fullSync(_ fd: CInt) -> CInt {
    #if canImport(Darwin)
    if fcntl(fd, F_FULLFSYNC) != -1 { return 0 }
    guard Errno.current.meansFullSyncUnsupported else { return -1 }
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

// The three status calls return the status as a value (`nil`, with `errno`
// set, on failure), and their callers retry through `retryingOnInterrupt`.
// They never fill a caller's variable through `inout` inside a retry loop:
// Swift 6.3.1's optimizer (its EarlyCodeMotion pass) moved the stores of
// that shape past the loop's final read, so release builds saw `size == 0`
// and `isRegularFile == false` for every path (docs/development.md,
// "A release-only miscompile").

/// `fstat(2)`.
func system_fstat(_ fd: CInt) -> FileStatus? {
    var info = stat()
    guard fstat(fd, &info) == 0 else { return nil }
    return FileStatus(info)
}

/// `stat(2)`: follows a symbolic link to what it names.
func system_stat(_ path: UnsafePointer<CChar>) -> FileStatus? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    return FileStatus(info)
}

/// `lstat(2)`: like `stat`, but a symbolic link describes itself (`isSymbolicLink`).
func system_lstat(_ path: UnsafePointer<CChar>) -> FileStatus? {
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    return FileStatus(info)
}

extension FileStatus {
    init(_ info: stat) {
        size = Int(info.st_size)
        isRegularFile = info.st_mode & S_IFMT == S_IFREG
        isDirectory = info.st_mode & S_IFMT == S_IFDIR
        isSymbolicLink = info.st_mode & S_IFMT == S_IFLNK
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
package func system_isatty(_ fd: CInt) -> Bool {
    isatty(fd) == 1
}

@inline(__always)
func system_getpid() -> CInt {
    getpid()
}

/// The blocks an unprivileged process may still write on the file system
/// holding `path`, and their size (`FreeSpace` multiplies them).
///
/// - Linux: `statvfs(3)`: `f_bavail` blocks of `f_frsize` bytes (64-bit counts).
/// - Darwin: `statfs(2)`: `f_bavail` blocks of `f_bsize` bytes. Not Darwin's
///   `statvfs`, which Libc emulates over `statfs` by copying the 64-bit counts
///   into a 32-bit `fsblkcnt_t`: wrong above 2³² free blocks (16 TiB of 4 KiB).
func system_freeSpace(_ path: UnsafePointer<CChar>) -> FreeSpace? {
    #if canImport(Darwin)
    var info = statfs()
    guard statfs(path, &info) == 0 else { return nil }
    return FreeSpace(availableBlocks: UInt64(info.f_bavail), blockSize: UInt64(info.f_bsize))
    #else
    var info = statvfs()
    guard statvfs(path, &info) == 0 else { return nil }
    return FreeSpace(availableBlocks: UInt64(info.f_bavail), blockSize: UInt64(info.f_frsize))
    #endif
}

/// Sets a Data Protection class on an open file (fcntl(2)
/// `F_SETPROTECTIONCLASS`). Only iOS, watchOS, tvOS and visionOS devices
/// protect files by class; elsewhere (macOS, Linux, the simulators, whose
/// files live on the Mac's disk, and Mac Catalyst, where `os(iOS)` is true
/// but the files are the Mac's) this does nothing and returns 0. An iPhone or
/// iPad app running on an Apple-silicon Mac is an iOS build, so it makes the
/// call; where the Mac refuses it with `ENOTSUP`, `FileDescriptor.setProtection`
/// takes that as "no protection classes here".
@inline(__always)
func system_setProtectionClass(_ fd: CInt, _ protectionClass: CInt) -> CInt {
    #if canImport(Darwin) && (os(iOS) || os(watchOS) || os(tvOS) || os(visionOS)) && !targetEnvironment(simulator) && !targetEnvironment(macCatalyst)
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
@usableFromInline @inline(__always)
package func system_memchr(_ base: UnsafeRawPointer, _ byte: UInt8, _ count: Int) -> UnsafeRawPointer? {
    guard let found = memchr(base, CInt(byte), count) else { return nil }
    return UnsafeRawPointer(found)
}

// MARK: - Clocks

// Darwin's time.h declares the clocks as `clockid_t` enum constants spelled
// `_CLOCK_*`, with `CLOCK_*` as macros aliasing them; Swift does not import
// those aliases (Scripts/check-darwin.sh, against a transcription of the
// header, reports "cannot find 'CLOCK_REALTIME' in scope"). So Darwin uses the
// enum constants, and Glibc and Musl their macros.
#if canImport(Darwin)
private var realtimeClock: clockid_t { _CLOCK_REALTIME }
private var monotonicClock: clockid_t { _CLOCK_MONOTONIC }
private var threadCPUClock: clockid_t { _CLOCK_THREAD_CPUTIME_ID }
#else
private var realtimeClock: clockid_t { CLOCK_REALTIME }
private var monotonicClock: clockid_t { CLOCK_MONOTONIC }
private var threadCPUClock: clockid_t { CLOCK_THREAD_CPUTIME_ID }
#endif

/// `clock_gettime(CLOCK_REALTIME)`: seconds and nanoseconds since 1970.
func system_realtime() -> (seconds: Int64, nanoseconds: Int64) {
    var spec = timespec()
    _ = clock_gettime(realtimeClock, &spec)
    return (Int64(spec.tv_sec), Int64(spec.tv_nsec))
}

/// `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds.
func system_monotonicNanoseconds() -> UInt64 {
    var spec = timespec()
    _ = clock_gettime(monotonicClock, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`), in nanoseconds.
func system_threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    _ = clock_gettime(threadCPUClock, &spec)
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
package func system_environment(_ name: String) -> String? {
    guard let value = getenv(name) else { return nil }
    return String(validatingCString: value)
}

/// Ignores SIGPIPE (a closed stdout becomes an `EPIPE` write error) and
/// SIGXFSZ (a write past `ulimit -f` fails with `EFBIG` instead of killing
/// the process).
package func system_ignoreBrokenPipeAndFileSizeSignals() {
    _ = signal(SIGPIPE, SIG_IGN)
    _ = signal(SIGXFSZ, SIG_IGN)
}

/// SIGINT (Ctrl-C) and SIGTERM: the signals `InterruptWatch` answers.
package let system_interruptSignals: [CInt] = [SIGINT, SIGTERM]

/// `signal(number, SIG_IGN)`: the default action (ending the process) no
/// longer runs; a Dispatch signal source still sees the signal.
package func system_ignoreSignal(_ number: CInt) {
    _ = signal(number, SIG_IGN)
}

/// `exit(3)`.
package func system_exit(_ status: CInt) -> Never {
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
    guard let nameOffset = MemoryLayout<dirent>.offset(of: \dirent.d_name) else { return nil }
    var names: [String] = []
    while let entry = readdir(directory) {
        // The name is read in place, up to its NUL: an entry may be shorter than
        // `dirent` (the kernel packs them, each as long as its name), so copying
        // the whole `d_name` array can read past the end of the buffer readdir fills.
        let name = String(cString: UnsafeRawPointer(entry).advanced(by: nameOffset).assumingMemoryBound(to: CChar.self))
        if name != ".", name != ".." { names.append(name) }
    }
    return names
}

// MARK: - File change notification (FileChangeWatcher)

/// `stat(2)` of `path`, reduced to what tells the polling fallback of
/// `FileChangeWatcher` that a file changed: which file it is, its size, and
/// its modification and status-change times. `nil` when nothing is there (or
/// it cannot be inspected).
///
/// The times are `st_mtim`/`st_ctim` on Linux, `st_mtimespec`/`st_ctimespec`
/// on Darwin.
func system_changeStamp(_ path: UnsafePointer<CChar>) -> FileChangeStamp? {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    #if canImport(Darwin)
    let modified = info.st_mtimespec
    let changed = info.st_ctimespec
    #else
    let modified = info.st_mtim
    let changed = info.st_ctim
    #endif
    return FileChangeStamp(
        identity: FileIdentity(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino)),
        size: Int64(info.st_size),
        modifiedSeconds: Int64(modified.tv_sec), modifiedNanoseconds: Int64(modified.tv_nsec),
        changedSeconds: Int64(changed.tv_sec), changedNanoseconds: Int64(changed.tv_nsec))
}

#if canImport(Glibc) || canImport(Musl)
/// `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)` (Linux only): a descriptor that
/// reads the kernel's records of the watched folders' changes.
func system_inotifyInit() -> CInt {
    inotify_init1(CInt(IN_NONBLOCK) | CInt(IN_CLOEXEC))
}

/// `inotify_add_watch(2)` on folder `path`, for everything that may change a
/// file named in it: data written (`IN_MODIFY`, `IN_CLOSE_WRITE`, which a
/// truncation also raises), metadata (`IN_ATTRIB`), names coming and going
/// (`IN_CREATE`, `IN_DELETE`, `IN_MOVED_FROM`, `IN_MOVED_TO`), and the folder
/// itself going away (`IN_DELETE_SELF`, `IN_MOVE_SELF`). A watch on the folder,
/// not the file, sees a file created or renamed over the name later.
func system_inotifyWatchFolder(_ inotify: CInt, _ path: UnsafePointer<CChar>) -> CInt {
    let mask = IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO
        | IN_DELETE_SELF | IN_MOVE_SELF
    return inotify_add_watch(inotify, path, UInt32(truncatingIfNeeded: mask))
}

/// Reads every record pending on the non-blocking inotify descriptor (until
/// `EAGAIN`) and sums them up for the file named `name` in the watched folder.
///
/// Each record is a `struct inotify_event` header (`wd`, `mask`, `cookie`,
/// `len`) followed by `len` bytes of name, NUL-padded (inotify(7)). A record
/// for another name is ignored; a queue overflow (`IN_Q_OVERFLOW`) may have
/// dropped one for ours, so it counts as a change. The folder deleted, moved
/// or unmounted (`IN_DELETE_SELF`, `IN_MOVE_SELF`, `IN_UNMOUNT`, `IN_IGNORED`)
/// ends the watch. A read failing otherwise ends it too. The records are read
/// into 4 KiB of scratch space on the stack, aligned for `inotify_event`.
func system_inotifyReadEvents(_ inotify: CInt, concerning name: [UInt8]) -> WatchedEvents {
    withUnsafeTemporaryAllocation(byteCount: 4096, alignment: MemoryLayout<inotify_event>.alignment) { buffer in
        inotifyReadEvents(inotify, concerning: name, using: buffer)
    }
}

/// `system_inotifyReadEvents(_:concerning:)` with its scratch space, at least
/// one record long and aligned for `inotify_event`.
private func inotifyReadEvents(_ inotify: CInt, concerning name: [UInt8],
                               using buffer: UnsafeMutableRawBufferPointer) -> WatchedEvents {
    var events = WatchedEvents()
    guard let base = buffer.baseAddress else { return events }
    let header = MemoryLayout<inotify_event>.size
    let overflow = UInt32(truncatingIfNeeded: IN_Q_OVERFLOW)
    let gone = UInt32(truncatingIfNeeded: IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT | IN_IGNORED)
    while true {
        let count = read(inotify, base, buffer.count)
        if count == -1 {
            if errno == EINTR { continue }
            if errno != EAGAIN && errno != EWOULDBLOCK { events.watchEnded = true }
            return events
        }
        guard count > 0 else { return events }
        var offset = 0
        while offset + header <= count {
            let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameStart = offset + header
            let nameEnd = min(nameStart + length, count)
            if mask & overflow != 0 {
                events.fileMayHaveChanged = true
            } else if mask & gone != 0 {
                events.fileMayHaveChanged = true
                events.watchEnded = true
            } else if length > 0 {
                let recorded = UnsafeRawBufferPointer(rebasing: buffer[nameStart..<nameEnd]).prefix { $0 != 0 }
                if recorded.elementsEqual(name) { events.fileMayHaveChanged = true }
            }
            offset = nameEnd
        }
    }
}
#endif

#if canImport(Darwin)
/// `kqueue(2)` (Darwin only): the queue the watcher's `EVFILT_VNODE` filters
/// report to. A kqueue is not inherited by a child process.
func system_kqueue() -> CInt {
    kqueue()
}

/// `open(2)` with `O_EVTONLY | O_CLOEXEC` (Darwin only, sys/fcntl.h): a
/// descriptor only for change notifications, which does not keep the volume
/// from being unmounted.
func system_openForEvents(_ path: UnsafePointer<CChar>) -> CInt {
    open(path, O_EVTONLY | O_CLOEXEC)
}

/// Registers `descriptor` (opened with `system_openForEvents`) with kqueue
/// `queue`: an `EVFILT_VNODE` filter, `EV_ADD | EV_CLEAR` (reported once per
/// batch of changes). A file reports `NOTE_WRITE`, `NOTE_EXTEND`,
/// `NOTE_ATTRIB` (a truncation raises `NOTE_ATTRIB` and `NOTE_WRITE`),
/// `NOTE_DELETE` and `NOTE_RENAME`; a folder `NOTE_WRITE` (an entry was
/// created, removed or renamed in it: a file created or renamed over the
/// watched name), `NOTE_DELETE` and `NOTE_RENAME` (the folder itself went).
///
/// - Parameter folder: Whether `descriptor` is the watched folder; its
///   events carry `udata` 1, the file's 0.
func system_kqueueWatch(_ queue: CInt, _ descriptor: CInt, folder: Bool) -> CInt {
    let fileEvents = NOTE_WRITE | NOTE_EXTEND | NOTE_ATTRIB | NOTE_DELETE | NOTE_RENAME
    let folderEvents = NOTE_WRITE | NOTE_DELETE | NOTE_RENAME
    var change = kevent(ident: UInt(bitPattern: Int(descriptor)), filter: Int16(EVFILT_VNODE),
                        flags: UInt16(EV_ADD | EV_CLEAR), fflags: UInt32(folder ? folderEvents : fileEvents),
                        data: 0, udata: UnsafeMutableRawPointer(bitPattern: folder ? 1 : 0))
    return kevent(queue, &change, 1, nil, 0, nil)
}

/// Takes every event pending on kqueue `queue` without waiting (a zero
/// timeout) and sums them up: any event may mean a change of the file; the
/// folder's `NOTE_DELETE` or `NOTE_RENAME` ends the folder watch, as does a
/// failing `kevent`.
func system_kqueueReadEvents(_ queue: CInt) -> WatchedEvents {
    var events = WatchedEvents()
    let folderGone = UInt32(NOTE_DELETE | NOTE_RENAME)
    // `[kevent](…)` would name the function kevent(2), not the struct.
    var received: [kevent] = Array(repeating: kevent(), count: 8)
    var noWait = timespec(tv_sec: 0, tv_nsec: 0)
    while true {
        let count = kevent(queue, nil, 0, &received, CInt(received.count), &noWait)
        if count == -1 {
            if errno == EINTR { continue }
            events.watchEnded = true
            return events
        }
        for event in received.prefix(Int(count)) {
            events.fileMayHaveChanged = true
            if event.udata == UnsafeMutableRawPointer(bitPattern: 1), event.fflags & folderGone != 0 { events.watchEnded = true }
        }
        if Int(count) < received.count { return events }
    }
}
#endif

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

/// `mmap(2)` of the first `byteCount` bytes of the open file `descriptor`,
/// read-only and private (MappedFile); `nil` when it fails.
func system_mapFile(_ descriptor: CInt, _ byteCount: Int) -> UnsafeRawPointer? {
    guard let mapped = mmap(nil, byteCount, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else { return nil }
    return UnsafeRawPointer(mapped)
}

/// `madvise(MADV_DONTNEED)` of part of a read-only file mapping (MappedFile):
/// its pages may leave this process's resident set; touched again, they are
/// read back from the file. Advice only, a refusal is harmless.
func system_adviseDontNeed(_ base: UnsafeRawPointer, _ byteCount: Int) {
    _ = madvise(UnsafeMutableRawPointer(mutating: base), byteCount, MADV_DONTNEED)
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
    package static let interrupted = Errno(EINTR)
    static let wouldBlock = Errno(EWOULDBLOCK)
    static let tryAgain = Errno(EAGAIN)
    package static let noSuchFile = Errno(ENOENT)
    static let fileExists = Errno(EEXIST)
    package static let isDirectory = Errno(EISDIR)
    static let notDirectory = Errno(ENOTDIR)
    package static let permissionDenied = Errno(EACCES)
    package static let notPermitted = Errno(EPERM)
    static let noSpace = Errno(ENOSPC)
    /// `EPIPE`: the reading end of a pipe was closed (with SIGPIPE ignored).
    package static let brokenPipe = Errno(EPIPE)
    static let quotaExceeded = Errno(EDQUOT)
    static let fileTooLarge = Errno(EFBIG)
    static let ioError = Errno(EIO)
    static let invalidArgument = Errno(EINVAL)
    static let readOnlyFileSystem = Errno(EROFS)
    static let notSupported = Errno(ENOTSUP)
}
