import Foundation
import Synchronization
@testable import DuneEvents
@testable import DuneProjections
import DuneHealthKit
import DuneTools

/// A fresh directory for one test, removed afterwards.
func withDirectory(_ body: (String) async throws -> Void) async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("DuneHealthKitTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: url) }
    try await body(url.path)
}

func time(_ text: String) -> Timestamp {
    (try? Timestamp(parsing: text)) ?? Timestamp(epochSeconds: 0, offsetSeconds: 0)
}

/// A fixed clock for the events the engine stamps.
let fixedNow: @Sendable () -> Timestamp = { time("2026-03-01T12:00:00Z") }

/// `count` hrv samples, one a day from 2026-01-01 (ids `hrv-<n>`).
func hrvSamples(_ range: Range<Int>, value: Double = 50) -> [SampleInput] {
    let first = time("2026-01-01T07:00:00+01:00")
    return range.map { index in
        let start = first.adding(seconds: Int64(index) * 86_400)
        return SampleInput(id: "hrv-\(index)", start: start, end: start.adding(seconds: 60), source: "Apple Watch",
                           reading: .hrv(value + Double(index % 7), .milliseconds))
    }
}

/// A night of core sleep ending on the morning of `day` (2026-01-01 + day).
func sleepSample(_ id: String, day: Int) -> SampleInput {
    let end = time("2026-01-01T06:30:00+01:00").adding(seconds: Int64(day) * 86_400)
    return SampleInput(id: id, start: end.adding(seconds: -7 * 3600), end: end, source: "Apple Watch", reading: .sleep(.asleepCore))
}

func openStore(_ path: String, fileSystem: FileSystemWitness = .system) async throws -> DuneStore {
    var options = DuneStore.Options(keepsSnapshots: false)
    options.fileSystem = fileSystem
    return try await DuneStore.open(at: path, options: options)
}

/// The events of the log at `path`, read from disk.
func storedEvents(_ path: String) throws -> [RecordedEvent] {
    try LogReader(path: path).events()
}

/// Counts the completions of observer wakes and what was not yet synced to
/// disk when each was called.
final class CompletionProbe: Sendable {
    private let state = Mutex<(count: Int, unsyncedAtCompletion: [Int])>((0, []))
    let fileSystem: FaultInjectingFileSystem?

    init(fileSystem: FaultInjectingFileSystem? = nil) {
        self.fileSystem = fileSystem
    }

    func wake(_ type: SampleKind) -> ObserverWake {
        ObserverWake(type: type, isBackgroundDelivery: true) { [self] in
            let unsynced = fileSystem?.unsyncedWrites ?? 0
            state.withLock {
                $0.count += 1
                $0.unsyncedAtCompletion.append(unsynced)
            }
        }
    }

    var count: Int { state.withLock { $0.count } }
    var unsyncedAtCompletion: [Int] { state.withLock { $0.unsyncedAtCompletion } }
}

/// The real file system, through the platform layer's witness, with two
/// additions: it counts writes not yet followed by a sync (what a crash
/// could still lose), and once ``failWrites()`` is called every write fails
/// with an I/O error (it is handed an invalid descriptor, so the system call
/// itself fails with `EBADF`).
///
/// Sendable: the state is in a `Mutex`.
final class FaultInjectingFileSystem: FileOperations {
    private let system = SystemFileOperations()
    /// Whether writes fail; the log's descriptors; writes to each not yet followed by a sync of it.
    private let state = Mutex<(failing: Bool, logs: Set<CInt>, unsynced: [CInt: Int])>((false, [], [:]))

    var witness: FileSystemWitness { FileSystemWitness(self) }

    func failWrites() { state.withLock { $0.failing = true } }

    /// Writes to the log (`*.jsonl`) not yet followed by a sync of its descriptor.
    var unsyncedWrites: Int { state.withLock { $0.unsynced.values.reduce(0, +) } }

    func open(_ path: String, _ access: FileDescriptor.Access, creating: FileSystem.ExistingFile?, permissions: UInt32) -> CInt {
        let fd = system.open(path, access, creating: creating, permissions: permissions)
        if fd >= 0, path.hasSuffix(".jsonl") { state.withLock { _ = $0.logs.insert(fd) } }
        return fd
    }

    func close(_ fd: CInt) -> CInt {
        state.withLock { state in
            state.logs.remove(fd)
            state.unsynced[fd] = nil
        }
        return system.close(fd)
    }

    private func willWrite(_ fd: CInt) -> Bool {
        state.withLock { state in
            if !state.failing, state.logs.contains(fd) { state.unsynced[fd, default: 0] += 1 }
            return state.failing
        }
    }

    func write(_ fd: CInt, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        system.write(willWrite(fd) ? -1 : fd, buffer, count)
    }

    func write(_ fd: CInt, _ buffer: UnsafeRawPointer, _ count: Int, at offset: Int) -> Int {
        system.write(willWrite(fd) ? -1 : fd, buffer, count, at: offset)
    }

    func truncate(_ fd: CInt, _ size: Int) -> CInt { system.truncate(fd, size) }

    func sync(_ fd: CInt, _ kind: FileSyncKind) -> CInt {
        let result = system.sync(fd, kind)
        if result == 0 { state.withLock { $0.unsynced[fd] = nil } }
        return result
    }

    func rename(_ source: String, _ destination: String) -> CInt { system.rename(source, destination) }

    func unlink(_ path: String) -> CInt { system.unlink(path) }

    func makeDirectory(_ path: String, _ permissions: UInt32) -> CInt { system.makeDirectory(path, permissions) }
}
