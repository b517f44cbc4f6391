import Foundation
import Synchronization
@testable import DuneEvents

/// The system call a recorded sync stood for.
enum RecordedSyncCall: Hashable, Sendable {
    case fsync, fdatasync, fullFsync
}

/// One recorded call that changed a file or a directory, or a mark the
/// workload set between calls.
enum RecordedOperation: Sendable {
    /// An existing file opened (no change; kept for the trace).
    case open(path: String, inode: Int)
    /// A new directory entry naming a new, empty file.
    case create(path: String, inode: Int)
    case write(inode: Int, offset: Int, bytes: [UInt8])
    case truncate(inode: Int, size: Int)
    case sync(inode: Int, call: RecordedSyncCall)
    case syncDirectory(path: String, call: RecordedSyncCall)
    case rename(from: String, to: String)
    case unlink(path: String)
    case makeDirectory(path: String)
    case close(inode: Int)
    /// The workload's promise: from here on the file at `path` starts with `bytes`.
    case acknowledged(path: String, bytes: [UInt8])
    /// A forget starts: until `forgetEnded`, the log may be wholly old or wholly new.
    case forgetBegan
    /// The forget returned; the new log is `bytes`, and `marker` is in none of it.
    case forgetEnded(bytes: [UInt8], marker: [UInt8])

    /// Whether the call changes what a crash leaves (marks and opens do not).
    var isCall: Bool {
        switch self {
        case .acknowledged, .forgetBegan, .forgetEnded, .open, .close: false
        default: true
        }
    }
}

/// Which platform's sync calls to record: the library's `FileDescriptor.sync()`
/// and `durableSync()` issue `fsync`/`fdatasync` on Linux and `F_FULLFSYNC`
/// on Darwin (Syscalls.swift).
enum RecordedPlatform: Sendable {
    case linux, darwin
}

/// A file system for tests behind the platform layer: every call goes to the
/// real file system (so the code under test sees real files, locks and
/// inodes), and every call that changes a file or a directory is recorded,
/// with the bytes written, in order. A model of the files the calls made
/// (names, contents) gives each write its offset and each acknowledgement
/// its bytes.
///
/// Invariant for `@unchecked`-free `Sendable`: all state is in one `Mutex`.
final class RecordingFileSystem: FileOperations {
    struct Open {
        var inode: Int?
        var directory: String?
        var appends: Bool
        var position = 0
    }

    struct State {
        var operations: [RecordedOperation] = []
        var names: [String: Int] = [:]
        var directories: Set<String> = []
        var contents: [Int: [UInt8]] = [:]
        var identities: [Int: FileIdentity] = [:]
        var descriptors: [CInt: Open] = [:]
        var nextInode = 1
        /// Calls on files the recorder never saw (a gap in the plumbing).
        var unknown: [String] = []
    }

    /// The directory every recorded path lies in.
    let root: String
    let platform: RecordedPlatform
    /// Test-only switch for the self-check: `durableSync()` (the append's
    /// sync) returns success without syncing or being recorded.
    let skipsDurableSync: Bool
    /// The files at `root` when recording began, all durable: path, inode, bytes.
    let initialFiles: [(path: String, inode: Int, bytes: [UInt8])]
    let initialDirectories: Set<String>
    private let state: Mutex<State>
    private let system = SystemFileOperations()

    /// Starts recording the files under `root` (regular files and directories, taken as durable).
    init(root: String, platform: RecordedPlatform = .linux, skipsDurableSync: Bool = false) throws {
        self.root = root
        self.platform = platform
        self.skipsDurableSync = skipsDurableSync
        var state = State()
        var files: [(String, Int, [UInt8])] = []
        var directories: Set<String> = [root]
        let enumerator = FileManager.default.enumerator(atPath: root)
        var relatives: [String] = []
        while let relative = enumerator?.nextObject() as? String { relatives.append(relative) }
        for relative in relatives.sorted() {
            let path = root + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                directories.insert(path)
                continue
            }
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let inode = state.nextInode
            state.nextInode += 1
            state.names[path] = inode
            state.contents[inode] = bytes
            if let identity = FileSystem.identity(ofPath: path) { state.identities[inode] = identity }
            files.append((path, inode, bytes))
        }
        state.directories = directories
        initialFiles = files
        initialDirectories = directories
        self.state = Mutex(state)
    }

    /// The witness to hand the code under test.
    var witness: FileSystemWitness { FileSystemWitness(self) }

    /// Everything recorded so far.
    var operations: [RecordedOperation] { state.withLock { $0.operations } }

    /// The identity the real file of each recorded inode had.
    var identities: [Int: FileIdentity] { state.withLock { $0.identities } }

    /// Calls on files the recorder did not know.
    var unknownCalls: [String] { state.withLock { $0.unknown } }

    /// The current bytes of the file at `path`, as the calls made it.
    func contents(of path: String) -> [UInt8] {
        state.withLock { state in state.names[path].flatMap { state.contents[$0] } ?? [] }
    }

    /// Marks that the file at `path` now starts with acknowledged bytes: all it holds now.
    func acknowledge(_ path: String) {
        state.withLock { state in
            let bytes = state.names[path].flatMap { state.contents[$0] } ?? []
            state.operations.append(.acknowledged(path: path, bytes: bytes))
        }
    }

    /// Adds a mark.
    func mark(_ operation: RecordedOperation) {
        state.withLock { $0.operations.append(operation) }
    }

    private func call(for kind: FileSyncKind) -> RecordedSyncCall {
        switch (platform, kind) {
        case (.darwin, _): .fullFsync
        case (.linux, .full): .fsync
        case (.linux, .data): .fdatasync
        }
    }

    // MARK: - FileOperations

    func open(_ path: String, _ access: FileDescriptor.Access, creating: FileSystem.ExistingFile?, permissions: UInt32) -> CInt {
        let raw = system.open(path, access, creating: creating, permissions: permissions)
        guard raw != -1 else { return raw }
        let identity = try? FileDescriptor(rawValue: raw).status().identity
        state.withLock { state in
            if access == .directory {
                state.descriptors[raw] = Open(inode: nil, directory: path, appends: false)
                return
            }
            var inode = state.names[path]
            if inode == nil, creating != nil {
                let new = state.nextInode
                state.nextInode += 1
                state.names[path] = new
                state.contents[new] = []
                state.operations.append(.create(path: path, inode: new))
                inode = new
            } else if let existing = inode, creating == .truncate {
                state.contents[existing] = []
                state.operations.append(.truncate(inode: existing, size: 0))
            } else if let existing = inode {
                state.operations.append(.open(path: path, inode: existing))
            } else {
                state.unknown.append("open of '\(path)', a file created outside the recorder")
            }
            if let inode, let identity { state.identities[inode] = identity }
            state.descriptors[raw] = Open(inode: inode, directory: nil, appends: access == .readWriteAppend)
        }
        return raw
    }

    func close(_ fd: CInt) -> CInt {
        state.withLock { state in
            if let inode = state.descriptors.removeValue(forKey: fd)?.inode { state.operations.append(.close(inode: inode)) }
        }
        return system.close(fd)
    }

    func write(_ fd: CInt, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        let written = system.write(fd, buffer, count)
        guard written > 0 else { return written }
        record(fd, UnsafeRawBufferPointer(start: buffer, count: written), at: nil)
        return written
    }

    func write(_ fd: CInt, _ buffer: UnsafeRawPointer, _ count: Int, at offset: Int) -> Int {
        let written = system.write(fd, buffer, count, at: offset)
        guard written > 0 else { return written }
        record(fd, UnsafeRawBufferPointer(start: buffer, count: written), at: offset)
        return written
    }

    private func record(_ fd: CInt, _ bytes: UnsafeRawBufferPointer, at position: Int?) {
        state.withLock { state in
            guard var open = state.descriptors[fd], let inode = open.inode, var content = state.contents[inode] else {
                state.unknown.append("write to descriptor \(fd), not opened through the recorder")
                return
            }
            let offset = position ?? (open.appends ? content.count : open.position)
            if content.count < offset + bytes.count {
                content.append(contentsOf: repeatElement(0, count: offset + bytes.count - content.count))
            }
            content.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
            state.contents[inode] = content
            if position == nil, !open.appends {
                open.position = offset + bytes.count
                state.descriptors[fd] = open
            }
            state.operations.append(.write(inode: inode, offset: offset, bytes: Array(bytes)))
        }
    }

    func truncate(_ fd: CInt, _ size: Int) -> CInt {
        let result = system.truncate(fd, size)
        guard result == 0 else { return result }
        state.withLock { state in
            guard let inode = state.descriptors[fd]?.inode, var content = state.contents[inode] else { return }
            if content.count > size {
                content.removeSubrange(size...)
            } else {
                content.append(contentsOf: repeatElement(0, count: size - content.count))
            }
            state.contents[inode] = content
            state.operations.append(.truncate(inode: inode, size: size))
        }
        return result
    }

    func sync(_ fd: CInt, _ kind: FileSyncKind) -> CInt {
        if skipsDurableSync, kind == .data { return 0 }
        let result = system.sync(fd, kind)
        guard result == 0 else { return result }
        let call = call(for: kind)
        state.withLock { state in
            guard let open = state.descriptors[fd] else { return }
            if let directory = open.directory {
                state.operations.append(.syncDirectory(path: directory, call: call))
            } else if let inode = open.inode {
                state.operations.append(.sync(inode: inode, call: call))
            }
        }
        return result
    }

    func rename(_ source: String, _ destination: String) -> CInt {
        let result = system.rename(source, destination)
        guard result == 0 else { return result }
        state.withLock { state in
            if let inode = state.names.removeValue(forKey: source) { state.names[destination] = inode }
            state.operations.append(.rename(from: source, to: destination))
        }
        return result
    }

    func unlink(_ path: String) -> CInt {
        let result = system.unlink(path)
        guard result == 0 else { return result }
        state.withLock { state in
            state.names.removeValue(forKey: path)
            state.operations.append(.unlink(path: path))
        }
        return result
    }

    func makeDirectory(_ path: String, _ permissions: UInt32) -> CInt {
        let result = system.makeDirectory(path, permissions)
        guard result == 0 else { return result }
        state.withLock { state in
            state.directories.insert(path)
            state.operations.append(.makeDirectory(path: path))
        }
        return result
    }
}
