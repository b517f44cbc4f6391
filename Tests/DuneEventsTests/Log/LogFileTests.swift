import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization
import Testing
@testable import DuneEvents

@Suite struct LogFileTests {
    // MARK: - Creating and opening

    @Test func createdLogIsMode0600AndNewDirectoriesAre0700() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/a/b/events.jsonl"
            let log = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            #expect(try log.size == 0)
            #expect(try logTestPermissions(path) == 0o600)
            #expect(try logTestPermissions(directory + "/a") == 0o700)
            #expect(try logTestPermissions(directory + "/a/b") == 0o700)
            #expect(log.isWriter)
            #expect(log.path == path)
        }
    }

    /// `flock` belongs to an inode: a writer that waited for the lock while the
    /// log was replaced (as `forget` renames its rewrite over it) appends to the
    /// new file, never to the replaced one.
    @Test func aWriterThatWaitedWhileTheLogWasReplacedOpensTheNewFile() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            try logTestWrite(path, logTestSealedLine(seq: 1))
            let holder = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)
            let replaced = try holder.identity
            // A second writer waits for the lock on a thread of its own (flock blocks it).
            let waiter = Task {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<LogFile, any Error>) in
                    DispatchQueue(label: "waiting-writer").async {
                        continuation.resume(with: Result { try LogFile.openForAppend(path: path, create: false, lock: .wait) })
                    }
                }
            }
            try await Task.sleep(for: .milliseconds(200))  // let it block in flock (a longer wait only makes the test slower)
            // The holder replaces the log, as forget does, then lets go of the old file's lock.
            try logTestWrite(directory + "/new.jsonl", logTestSealedLine(seq: 1) + logTestSealedLine(seq: 2))
            #expect(rename(directory + "/new.jsonl", path) == 0)
            try holder.close()
            let writer = try await waiter.value
            #expect(try writer.identity != replaced)
            try writer.append(logTestSealedLine(seq: 3), sync: true)
            #expect(try logTestRead(path) == logTestSealedLine(seq: 1) + logTestSealedLine(seq: 2) + logTestSealedLine(seq: 3))
            try writer.close()
        }
    }

    @Test func existingLogIsOpenedAsItIs() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            try logTestWrite(path, logTestSealedLine(seq: 1))
            let log = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)
            try log.append(logTestSealedLine(seq: 2), sync: true)
            #expect(try logTestRead(path) == logTestSealedLine(seq: 1) + logTestSealedLine(seq: 2))
        }
    }

    @Test func missingLogWithoutCreateIsInputUnavailable() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let forAppend = try #require(throws: DuneEventsError.self) {
                _ = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked)
            }
            #expect(forAppend == DuneEventsError(.inputUnavailable, "'\(path)' does not exist: No such file or directory (errno 2); check the path",
                                                 location: .init(path: path)))
            let forReading = try #require(throws: DuneEventsError.self) { _ = try LogFile.openForReading(path: path) }
            #expect(forReading == forAppend)
            #expect(try logTestListing(directory).isEmpty)
        }
    }

    @Test func directoryIsNotALog() throws {
        try withLogTestDirectory { directory in
            let forAppend = try #require(throws: DuneEventsError.self) {
                _ = try LogFile.openForAppend(path: directory, create: true, lock: .failIfLocked)
            }
            let expected = DuneEventsError(.inputUnavailable,
                                           "'\(directory)' is a directory, not a log file; pass the path of the log file itself, e.g. '\(directory)/events.jsonl'",
                                           location: .init(path: directory))
            #expect(forAppend == expected)
            let forReading = try #require(throws: DuneEventsError.self) { _ = try LogFile.openForReading(path: directory) }
            #expect(forReading == DuneEventsError(.inputUnavailable,
                                                  "'\(directory)' is a directory, not a log file; pass the path of the log file itself",
                                                  location: .init(path: directory)))
        }
    }

    @Test func parentThatIsAFileIsAClearError() throws {
        try withLogTestDirectory { directory in
            try logTestWrite(directory + "/Logs", [])
            let error = try #require(throws: DuneEventsError.self) {
                _ = try LogFile.openForAppend(path: directory + "/Logs/events.jsonl", create: true, lock: .failIfLocked)
            }
            #expect(error.code == .inputUnavailable)
            #expect(error.message.contains("not a directory"))
        }
    }

    // MARK: - The writer lock

    @Test func secondWriterInTheSameProcessIsLocked() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let first = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            let error = try #require(throws: DuneEventsError.self) {
                _ = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            }
            #expect(error == DuneEventsError(.logLocked,
                                             "log '\(path)' is in use by another writer",
                                             location: .init(path: path)))
            // Readers never need the lock.
            #expect(try LogFile.openForReading(path: path).size == 0)
            try first.close()
            _ = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
        }
    }

    @Test func lockIsReleasedWhenTheLastReferenceGoes() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            do {
                let first = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
                #expect(first.isWriter)
            }
            let second = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            #expect(second.isWriter)
        }
    }

    @Test func waitingWriterGetsTheLockOnlyAfterTheHolderCloses() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let holder = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            let holderClosed = Mutex(false)
            let sawHolderClosed = Mutex<Bool?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let waiter = try? LogFile.openForAppend(path: path, create: false, lock: .wait)
                sawHolderClosed.withLock { $0 = waiter != nil && holderClosed.withLock { $0 } }
                done.signal()
            }
            // Give the waiter a chance to block first; the assertion below does
            // not depend on how long this takes, only on the order of events.
            usleep(50_000)
            holderClosed.withLock { $0 = true }
            try holder.close()
            done.wait()
            #expect(sawHolderClosed.withLock { $0 } == true)
        }
    }

    // MARK: - Appending

    @Test func appendWritesWholeBatchesAndSizeFollows() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            let batch = logTestSealedLine(seq: 1) + logTestSealedLine(seq: 2)
            try log.append(batch, sync: true)
            try log.append([], sync: true)
            try log.append(logTestSealedLine(seq: 3), sync: false)
            let expected = batch + logTestSealedLine(seq: 3)
            #expect(try log.size == expected.count)
            #expect(try logTestRead(path) == expected)

            var readBack = [UInt8](repeating: 0, count: 5)
            let count = try MutableByteView.with(&readBack) { try log.read(into: $0, at: 1) }
            #expect(count == 5)
            #expect(readBack == Array(expected[1..<6]))
            #expect(try MutableByteView.with(&readBack) { try log.read(into: $0, at: expected.count) } == 0)
            // `bytes(upTo:at:)`: all of them inside the file, fewer across its end, none past it.
            #expect(try log.bytes(upTo: 5, at: 1) == Array(expected[1..<6]))
            #expect(try log.bytes(upTo: 10, at: expected.count - 3) == Array(expected.suffix(3)))
            #expect(try log.bytes(upTo: 4, at: expected.count + 7) == [])
            #expect(try log.bytes(upTo: 0, at: 0) == [])
        }
    }

    @Test func truncateAndSyncWork() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            try log.append(logTestSealedLine(seq: 1) + logTestSealedLine(seq: 2), sync: false)
            try log.truncate(to: logTestSealedLine(seq: 1).count)
            try log.sync()
            try log.append(logTestSealedLine(seq: 3), sync: true)  // O_APPEND: lands at the new end
            #expect(try logTestRead(path) == logTestSealedLine(seq: 1) + logTestSealedLine(seq: 3))
        }
    }

    @Test func readerCannotAppendOrTruncate() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            try logTestWrite(path, logTestSealedLine(seq: 1))
            let reader = try LogFile.openForReading(path: path)
            #expect(!reader.isWriter)
            let append = try #require(throws: DuneEventsError.self) { try reader.append(Array("x\n".utf8), sync: false) }
            #expect(append == DuneEventsError(.io, "cannot go on writing '\(path)': it was opened for reading; open it with LogFile.openForAppend",
                                              location: .init(path: path)))
            #expect(throws: DuneEventsError.self) { try reader.truncate(to: 0) }
            #expect(throws: DuneEventsError.self) { _ = try reader.quarantineTornTail() }
            #expect(try logTestRead(path) == logTestSealedLine(seq: 1))
        }
    }

    @Test func closedFileRefusesCallsAndClosingTwiceIsFine() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            try log.close()
            try log.close()
            let error = try #require(throws: DuneEventsError.self) { try log.append(Array("x\n".utf8), sync: false) }
            #expect(error == DuneEventsError(.io, "cannot go on writing '\(path)': the log file was already closed; open it again",
                                             location: .init(path: path)))
            #expect(throws: DuneEventsError.self) { _ = try log.size }
        }
    }

    // MARK: - Failed appends roll back

    /// A failure for the write seam: the first call writes only `partial`
    /// bytes, the next fails with `errno`.
    struct InjectedFailure: Sendable, CustomTestStringConvertible {
        var errno: CInt
        var partial: Int
        var expectedStart: String
        var testDescription: String { "\(expectedStart) after \(partial) bytes" }
    }

    static let injectedFailures = [
        InjectedFailure(errno: Errno.noSpace.rawValue, partial: 7, expectedStart: "disk full while writing"),
        InjectedFailure(errno: Errno.noSpace.rawValue, partial: 0, expectedStart: "disk full while writing"),
        InjectedFailure(errno: Errno.fileTooLarge.rawValue, partial: 30, expectedStart: "file size limit exceeded while writing"),
        InjectedFailure(errno: Errno.ioError.rawValue, partial: 1, expectedStart: "I/O error while writing"),
        InjectedFailure(errno: Errno.quotaExceeded.rawValue, partial: 12, expectedStart: "disk quota exceeded while writing"),
    ]

    /// Rollback through the write seam: the real `write(2)` for `partial`
    /// bytes, then the injected errno, as a full disk would do.
    @Test(arguments: injectedFailures)
    func failedAppendIsRolledBackToTheSizeBefore(failure: InjectedFailure) throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let calls = Mutex(0)
            let write: FileDescriptor.WriteFunction = { descriptor, buffer throws(Errno) in
                let call = calls.withLock { count in
                    count += 1
                    return count
                }
                if call == 1 && failure.partial > 0 {
                    return try descriptor.write(UnsafeRawBufferPointer(rebasing: buffer[..<failure.partial]))
                }
                throw Errno(failure.errno)
            }
            let first = logTestSealedLine(seq: 1)
            try logTestWrite(path, first)
            let log = try LogFile.openForAppend(path: path, create: false, lock: .failIfLocked, write: write)

            let error = try #require(throws: DuneEventsError.self) {
                try log.append(logTestSealedLine(seq: 2) + logTestSealedLine(seq: 3), sync: true)
            }

            #expect(error.code == .io)
            #expect(error.location == DuneEventsError.Location(path: path, byteOffset: first.count))
            #expect(error.message.hasPrefix("\(failure.expectedStart) '\(path)': \(Errno(failure.errno).description) (errno \(failure.errno))"))
            #expect(error.message.hasSuffix("Nothing of this batch was kept: the log was truncated back to \(first.count) bytes"))
            #expect(try log.size == first.count)
            #expect(try logTestRead(path) == first)
        }
    }

    @Test func diskFullMessageReadsWell() {
        let error = DuneEventsError(Errno(ENOSPC), during: .write, path: "Logs/events.jsonl")
        #expect(error == DuneEventsError(.io,
                                         "disk full while writing 'Logs/events.jsonl': No space left on device (errno 28); free some space and retry",
                                         location: .init(path: "Logs/events.jsonl")))
    }

    /// The kernel's own partial write + `EFBIG`, at the file system's maximum
    /// file size: a sparse file just below it, then an append that does not fit.
    @Test func realFileSizeLimitFailureIsRolledBack() throws {
        try withLogTestDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try LogFile.openForAppend(path: path, create: true, lock: .failIfLocked)
            // The largest size ftruncate accepts is the file system's maximum.
            var fits = 0
            var tooBig = Int.max
            while tooBig - fits > 1 {
                let middle = fits + (tooBig - fits) / 2
                if (try? log.truncate(to: middle)) != nil { fits = middle } else { tooBig = middle }
            }
            let start = fits - 5
            try log.truncate(to: start)

            let error = try #require(throws: DuneEventsError.self) { try log.append(logTestSealedLine(seq: 1), sync: false) }

            #expect(error.code == .io)
            #expect(error.message.hasPrefix("file size limit exceeded while writing '\(path)'"))
            #expect(error.location.byteOffset == start)
            #expect(try log.size == start)
            try log.truncate(to: 0)
        }
    }

    @Test(.enabled(if: LinuxOnly.isLinux, "Linux only: needs /dev/full, whose writes fail with ENOSPC"))
    func writingToDevFullIsDiskFull() throws {
        let full = try FileDescriptor.open("/dev/full", .writeOnly)
        defer { try? full.close() }
        let error = try #require(throws: Errno.self) {
            try Array("line\n".utf8).withUnsafeBytes { try full.writeAll($0) }
        }
        #expect(error == .noSpace)
        #expect(DuneEventsError(error, during: .write, path: "/dev/full").message.hasPrefix("disk full while writing '/dev/full'"))
    }
}
