/// The calls that change files and directories, as one value the log's file
/// types hold: the file system their writes go to.
///
/// Production code uses ``FileSystemWitness/system``, whose calls are the
/// `system_*` functions of Syscalls.swift and nothing else. Tests hand the
/// log another witness (a recording one, in Tests/) to see every create,
/// write, truncation, sync, rename and unlink in order, per file and
/// directory, and to derive the states a crash could leave. Reads, `fstat`
/// and locks are not part of it: they change nothing a crash could lose.
///
/// A witness travels with the value that uses it (``EventLog``'s options,
/// `LogFile`, every `FileDescriptor` opened through it): no global, no
/// task-local, so tests running in parallel each record their own files, and
/// the log's own threads use the witness they were handed.
///
/// Each call returns the C result (`-1` with `errno` set on failure), as the
/// `system_*` functions do, so `retryingOnInterrupt` and `Errno` handle every
/// witness alike.
protocol FileOperations: Sendable {
    /// `open(2)`; with `creating`, `O_CREAT` and `O_EXCL` or `O_TRUNC`.
    func open(_ path: String, _ access: FileDescriptor.Access, creating: FileSystem.ExistingFile?, permissions: UInt32) -> CInt
    /// `close(2)`.
    func close(_ fd: CInt) -> CInt
    /// `write(2)` at the file offset (the end, for an `O_APPEND` descriptor).
    func write(_ fd: CInt, _ buffer: UnsafeRawPointer, _ count: Int) -> Int
    /// `pwrite(2)` at `offset`.
    func write(_ fd: CInt, _ buffer: UnsafeRawPointer, _ count: Int, at offset: Int) -> Int
    /// `ftruncate(2)`.
    func truncate(_ fd: CInt, _ size: Int) -> CInt
    /// A sync of the file (or, for a descriptor opened with `.directory`,
    /// of the directory's entries): see ``FileSyncKind``.
    func sync(_ fd: CInt, _ kind: FileSyncKind) -> CInt
    /// `rename(2)`.
    func rename(_ source: String, _ destination: String) -> CInt
    /// `unlink(2)`.
    func unlink(_ path: String) -> CInt
    /// `mkdir(2)`.
    func makeDirectory(_ path: String, _ permissions: UInt32) -> CInt
}

/// Which sync a caller asked for; the platform picks the system call.
enum FileSyncKind: Sendable, Hashable {
    /// `FileDescriptor.sync()`: data and metadata. `fsync(2)` on Linux;
    /// `fcntl(F_FULLFSYNC)` (falling back to `fsync`) on Darwin.
    case full
    /// `FileDescriptor.durableSync()`: an appended file's data and size.
    /// `fdatasync(2)` on Linux; `fcntl(F_FULLFSYNC)` (falling back to
    /// `fsync`) on Darwin.
    case data
}

/// The file system a log's files are written through (see `FileOperations`):
/// ``system`` everywhere but in tests that record what a crash could leave.
package struct FileSystemWitness: Sendable {
    /// The calls.
    let operations: any FileOperations

    init(_ operations: any FileOperations) {
        self.operations = operations
    }

    /// The real file system: each call is the system call itself.
    package static let system = FileSystemWitness(SystemFileOperations())
}

/// The witness whose calls are the system calls (Syscalls.swift).
struct SystemFileOperations: FileOperations {
    @inline(__always)
    func open(_ path: String, _ access: FileDescriptor.Access, creating: FileSystem.ExistingFile?, permissions: UInt32) -> CInt {
        system_open(path, access, creating: creating, permissions: permissions)
    }

    @inline(__always)
    func close(_ fd: CInt) -> CInt { system_close(fd) }

    @inline(__always)
    func write(_ fd: CInt, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { system_write(fd, buffer, count) }

    @inline(__always)
    func write(_ fd: CInt, _ buffer: UnsafeRawPointer, _ count: Int, at offset: Int) -> Int {
        system_pwrite(fd, buffer, count, offset)
    }

    @inline(__always)
    func truncate(_ fd: CInt, _ size: Int) -> CInt { system_ftruncate(fd, size) }

    @inline(__always)
    func sync(_ fd: CInt, _ kind: FileSyncKind) -> CInt {
        switch kind {
        case .full: system_fullSync(fd)
        case .data: system_durableSync(fd)
        }
    }

    @inline(__always)
    func rename(_ source: String, _ destination: String) -> CInt { system_rename(source, destination) }

    @inline(__always)
    func unlink(_ path: String) -> CInt { system_unlink(path) }

    @inline(__always)
    func makeDirectory(_ path: String, _ permissions: UInt32) -> CInt { system_mkdir(path, permissions) }
}
