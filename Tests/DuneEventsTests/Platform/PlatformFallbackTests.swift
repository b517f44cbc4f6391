import Foundation
import Synchronization
import Testing
@testable import DuneEvents

/// The decisions behind the Apple-platform fallbacks (issue 22), run here
/// through their platform-independent halves: free-space arithmetic on
/// 64-bit counts, which `fcntl` refusals mean "not supported here", and file
/// creation when `F_SETPROTECTIONCLASS` is refused.
@Suite struct PlatformFallbackTests {
    private func scratchDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "dune-fallback-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    // MARK: - Free space

    @Test func freeSpaceIsComputedOnSixtyFourBitCounts() {
        // 2³² + 5 free blocks of 4 KiB: Darwin's statvfs would report 5 blocks (its fsblkcnt_t is 32-bit).
        let blocks = (UInt64(1) << 32) + 5
        #expect(FreeSpace(availableBlocks: blocks, blockSize: 4096).availableBytes == Int64(blocks) * 4096)
        #expect(FreeSpace(availableBlocks: blocks, blockSize: 4096).availableBytes > Int64(UInt32.max) * 4096)
        #expect(FreeSpace(availableBlocks: 0, blockSize: 4096).availableBytes == 0)
        #expect(FreeSpace(availableBlocks: 1_000, blockSize: 512).availableBytes == 512_000)
    }

    @Test func freeSpaceBeyondSixtyFourBitsIsClampedNotWrapped() {
        // A product above Int64.max but within UInt64, and one past UInt64.
        #expect(FreeSpace(availableBlocks: UInt64(1) << 51, blockSize: 4096).availableBytes == .max)
        #expect(FreeSpace(availableBlocks: .max, blockSize: 4096).availableBytes == .max)
        // The largest that fits: 2⁵¹ blocks of 4 KiB is 2⁶³ bytes, one past Int64.max; 2⁵¹ − 1 blocks fit.
        #expect(FreeSpace(availableBlocks: (UInt64(1) << 51) - 1, blockSize: 4096).availableBytes == ((Int64(1) << 51) - 1) * 4096)
    }

    // MARK: - F_FULLFSYNC

    @Test func onlyNotSupportedAndInvalidArgumentMakeFullSyncFallBackToFsync() {
        #expect(Errno.notSupported.meansFullSyncUnsupported)
        #expect(Errno.invalidArgument.meansFullSyncUnsupported)
        for failure in [Errno.ioError, .noSpace, .quotaExceeded, .readOnlyFileSystem, .permissionDenied, .interrupted] {
            #expect(!failure.meansFullSyncUnsupported, "\(failure)")
        }
    }

    @Test func aFailedSyncIsReportedAsAnIOError() {
        let error = DuneEventsError(Errno.ioError, during: .sync, path: "events.jsonl")
        #expect(error.code == .io)
        #expect(error.location.path == "events.jsonl")
    }

    // MARK: - F_SETPROTECTIONCLASS

    @Test func aFileSystemWithoutProtectionClassesStillGetsTheFile() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        let calls = ProtectionCalls()
        let descriptor = try FileSystem.createFile(path, access: .readWriteAppend, ifExists: .fail, protection: .complete,
                                                   applyProtection: calls.refuse(with: .notSupported))
        defer { try? descriptor.close() }
        try Array("{}\n".utf8).withUnsafeBytes { try descriptor.writeAll($0) }
        #expect(calls.requested == [.complete])
        let status = try descriptor.status()
        #expect(status.size == 3)
        #expect(status.permissions == 0o600)
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test(arguments: [Errno.permissionDenied, .ioError, .invalidArgument])
    func anyOtherRefusalFailsTheCreationAndRemovesTheFile(refusal: Errno) throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        let calls = ProtectionCalls()
        #expect(throws: refusal) {
            try FileSystem.createFile(path, access: .readWriteAppend, ifExists: .fail, protection: .default,
                                      applyProtection: calls.refuse(with: refusal))
        }
        #expect(calls.requested == [.default])
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

/// Records the classes a creation asked for, and refuses them.
private final class ProtectionCalls: Sendable {
    private let log = Mutex<[FileProtection]>([])

    var requested: [FileProtection] { log.withLock { $0 } }

    func refuse(with failure: Errno) -> FileDescriptor.ProtectionFunction {
        { _, protection throws(Errno) in
            self.log.withLock { $0.append(protection) }
            throw failure
        }
    }
}
