import Foundation
import Synchronization
import Testing
@testable import DuneEvents

/// `FileChangeWatcher` reports every kind of change another descriptor or
/// process makes to a watched file, with the platform's notification and with
/// the polling fallback, and never after it is cancelled.
///
/// Every wait is for a callback, with a limit of minutes (`ChangeCounter.waitForCall`, 300 s);
/// no test sleeps and then assumes something happened.
@Suite struct FileChangeWatcherTests {
    /// The platform's notification (`false`) and the polling fallback (`true`).
    static let modes = [false, true]

    private func scratchDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "dune-watcher-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func write(_ text: String, to path: String) throws {
        let descriptor = try FileSystem.createFile(path, access: .writeOnly, ifExists: .truncate, protection: .none)
        defer { try? descriptor.close() }
        try Array(text.utf8).withUnsafeBytes { try descriptor.writeAll($0) }
    }

    /// Appends through a descriptor of its own, as another process would.
    private func append(_ text: String, to path: String) throws {
        let descriptor = try FileDescriptor.open(path, .readWriteAppend)
        defer { try? descriptor.close() }
        try Array(text.utf8).withUnsafeBytes { try descriptor.writeAll($0) }
    }

    private func expectedMechanism(polling: Bool) -> FileChangeWatcher.Mechanism {
        if polling { return .polling }
        #if os(Linux)
        return .inotify
        #else
        return .kqueue
        #endif
    }

    // MARK: - Each kind of change

    @Test(arguments: modes)
    func anAppendByAnotherDescriptorIsReported(polling: Bool) async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        try write("{}\n", to: path)
        let calls = ChangeCounter()
        let watcher = try FileChangeWatcher(path: path, forcePolling: polling) { calls.record() }
        defer { watcher.cancel() }
        #expect(watcher.mechanism == expectedMechanism(polling: polling))
        try append("{}\n", to: path)
        #expect(await calls.waitForCall(after: 0))
    }

    @Test(arguments: modes)
    func aTruncationIsReported(polling: Bool) async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        try write("{}\n{}\n", to: path)
        let calls = ChangeCounter()
        let watcher = try FileChangeWatcher(path: path, forcePolling: polling) { calls.record() }
        defer { watcher.cancel() }
        let descriptor = try FileDescriptor.open(path, .writeOnly)
        try descriptor.resize(to: 3)
        try descriptor.close()
        #expect(await calls.waitForCall(after: 0))
    }

    @Test(arguments: modes)
    func aRenameOverTheFileIsReportedAndTheNewFileIsWatched(polling: Bool) async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        try write("{}\n", to: path)
        let calls = ChangeCounter()
        let watcher = try FileChangeWatcher(path: path, forcePolling: polling) { calls.record() }
        defer { watcher.cancel() }
        try write("{}\n{}\n", to: directory + "/replacement")
        try FileSystem.rename(directory + "/replacement", to: path)
        #expect(await calls.waitForCall(after: 0))
        // The file now under the name is the one watched: its appends are reported.
        let seen = calls.value
        try append("{}\n", to: path)
        #expect(await calls.waitForCall(after: seen))
    }

    @Test(arguments: modes)
    func aDeletionIsReported(polling: Bool) async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        try write("{}\n", to: path)
        let calls = ChangeCounter()
        let watcher = try FileChangeWatcher(path: path, forcePolling: polling) { calls.record() }
        defer { watcher.cancel() }
        try FileSystem.remove(path)
        #expect(await calls.waitForCall(after: 0))
    }

    @Test(arguments: modes)
    func aRenameAwayIsReported(polling: Bool) async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        try write("{}\n", to: path)
        let calls = ChangeCounter()
        let watcher = try FileChangeWatcher(path: path, forcePolling: polling) { calls.record() }
        defer { watcher.cancel() }
        try FileSystem.rename(path, to: directory + "/moved")
        #expect(await calls.waitForCall(after: 0))
    }

    @Test(arguments: modes)
    func theCreationOfAMissingFileIsReported(polling: Bool) async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        let calls = ChangeCounter()
        let watcher = try FileChangeWatcher(path: path, forcePolling: polling) { calls.record() }
        defer { watcher.cancel() }
        #expect(watcher.mechanism == expectedMechanism(polling: polling))
        try write("{}\n", to: path)
        #expect(await calls.waitForCall(after: 0))
        let seen = calls.value
        try append("{}\n", to: path)
        #expect(await calls.waitForCall(after: seen))
    }

    // MARK: - Without a folder to watch

    @Test func aMissingFolderIsPolledUntilTheFileAppears() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/later/events.jsonl"
        let calls = ChangeCounter()
        let watcher = try FileChangeWatcher(path: path) { calls.record() }
        defer { watcher.cancel() }
        #expect(watcher.mechanism == .polling)
        try FileManager.default.createDirectory(atPath: directory + "/later", withIntermediateDirectories: false)
        try write("{}\n", to: path)
        #expect(await calls.waitForCall(after: 0))
    }

    @Test func aFolderDeletedWhileWatchedIsReportedAndThenPolled() async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let folder = directory + "/logs"
        let path = folder + "/events.jsonl"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try write("{}\n", to: path)
        let calls = ChangeCounter()
        let watcher = try FileChangeWatcher(path: path) { calls.record() }
        defer { watcher.cancel() }
        try FileManager.default.removeItem(atPath: folder)
        #expect(await calls.waitForCall(after: 0))
        #expect(await calls.waitUntil { watcher.mechanism == .polling })
        let seen = calls.value
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try write("{}\n", to: path)
        #expect(await calls.waitForCall(after: seen))
    }

    @Test func aDirectoryOrAnEmptyPathIsRefused() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for path in [directory, "", directory + "/"] {
            let error = #expect(throws: DuneEventsError.self) { try FileChangeWatcher(path: path) {} }
            #expect(error?.code == .inputUnavailable)
        }
    }

    // MARK: - Cancellation

    /// After `cancel()` returns, changes reach a second watcher of the same
    /// file but never the cancelled one. With polling, the witness sees two
    /// changes one poll apart, so the cancelled timer would have fired by then.
    @Test(arguments: modes)
    func noCallAfterCancel(polling: Bool) async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        try write("{}\n", to: path)
        let calls = ChangeCounter()
        let witnessCalls = ChangeCounter()
        let watcher = try FileChangeWatcher(path: path, forcePolling: polling) { calls.record() }
        let witness = try FileChangeWatcher(path: path, forcePolling: polling) { witnessCalls.record() }
        defer { witness.cancel() }
        try append("{}\n", to: path)
        #expect(await calls.waitForCall(after: 0))
        watcher.cancel()
        watcher.cancel()  // idempotent
        let atCancel = calls.value
        let witnessed = witnessCalls.value
        try append("{}\n", to: path)
        #expect(await witnessCalls.waitForCall(after: witnessed))
        let witnessedOnce = witnessCalls.value
        try append("{}\n", to: path)
        #expect(await witnessCalls.waitForCall(after: witnessedOnce))
        #expect(calls.value == atCancel)
    }

    @Test(arguments: modes)
    func aWatcherReleasedWithoutCancelStopsCalling(polling: Bool) async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        try write("{}\n", to: path)
        let calls = ChangeCounter()
        let witnessCalls = ChangeCounter()
        var watcher: FileChangeWatcher? = try FileChangeWatcher(path: path, forcePolling: polling) { calls.record() }
        #expect(watcher?.mechanism == expectedMechanism(polling: polling))
        let witness = try FileChangeWatcher(path: path, forcePolling: polling) { witnessCalls.record() }
        defer { witness.cancel() }
        watcher = nil
        try append("{}\n", to: path)
        #expect(await witnessCalls.waitForCall(after: 0))
        let witnessedOnce = witnessCalls.value
        try append("{}\n", to: path)
        #expect(await witnessCalls.waitForCall(after: witnessedOnce))
        #expect(calls.value == 0)
    }

    @Test(arguments: modes)
    func onChangeMayCancelItsOwnWatcher(polling: Bool) async throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        try write("{}\n", to: path)
        let calls = ChangeCounter()
        let witnessCalls = ChangeCounter()
        let holder = Mutex<FileChangeWatcher?>(nil)
        let watcher = try FileChangeWatcher(path: path, forcePolling: polling) {
            calls.record()
            holder.withLock { $0 }?.cancel()
        }
        holder.withLock { $0 = watcher }
        let witness = try FileChangeWatcher(path: path, forcePolling: polling) { witnessCalls.record() }
        defer { witness.cancel() }
        try append("{}\n", to: path)
        #expect(await calls.waitForCall(after: 0))
        let witnessed = witnessCalls.value
        try append("{}\n", to: path)
        #expect(await witnessCalls.waitForCall(after: witnessed))
        let witnessedOnce = witnessCalls.value
        try append("{}\n", to: path)
        #expect(await witnessCalls.waitForCall(after: witnessedOnce))
        #expect(calls.value == 1)
        holder.withLock { $0 = nil }
    }
}

/// Counts `onChange` calls, and waits for one (up to 300 s, which only ends a test that would hang).
final class ChangeCounter: Sendable {
    private let count = Mutex(0)

    func record() {
        count.withLock { $0 += 1 }
    }

    var value: Int {
        count.withLock { $0 }
    }

    /// Waits until more than `seen` calls were recorded; `false` after `seconds`.
    func waitForCall(after seen: Int, seconds: Int = 300) async -> Bool {
        await waitUntil(seconds: seconds) { self.value > seen }
    }

    /// Waits until `condition` holds; `false` after `seconds`.
    func waitUntil(seconds: Int = 300, _ condition: () -> Bool) async -> Bool {
        let clock = ContinuousClock()
        let limit = clock.now + .seconds(seconds)
        while clock.now < limit {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }
}
