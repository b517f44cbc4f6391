import Foundation
import Testing
@testable import DuneEvents
@testable import DuneTools

/// The platform layer's own promises: files are created 0600, identities
/// tell files apart, durable sync and atomic replacement work, free space is known.
@Suite struct PlatformLayerTests {
    private func scratchDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "dune-platform-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(arguments: FileProtection.allCases)
    func createdFilesAreMode0600WhateverTheProtectionClass(protection: FileProtection) throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/created"
        let descriptor = try FileSystem.createFile(path, access: .writeOnly, ifExists: .fail, protection: protection)
        defer { try? descriptor.close() }
        try Array("x\n".utf8).withUnsafeBytes { try descriptor.writeAll($0) }
        try descriptor.durableSync()
        let status = try descriptor.status()
        #expect(status.permissions == 0o600)
        #expect(status.size == 2)
        #expect(throws: Errno.fileExists) {
            try FileSystem.createFile(path, access: .writeOnly, ifExists: .fail, protection: protection)
        }
    }

    @Test func identityChangesWhenThePathNamesAnotherFile() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let log = try LogFile.openForAppend(path: directory + "/events.jsonl")
        let held = try log.identity
        #expect(FileSystem.identity(ofPath: directory + "/events.jsonl") == held)
        try AtomicFile.write(Array("new\n".utf8), to: directory + "/events.jsonl")
        let replaced = try #require(FileSystem.identity(ofPath: directory + "/events.jsonl"))
        #expect(replaced != held)
        #expect(FileSystem.identity(ofPath: directory + "/missing") == nil)
        #expect(try String(contentsOfFile: directory + "/events.jsonl", encoding: .utf8) == "new\n")
        #expect(PathKind.of(directory + "/events.jsonl") == .regularFile)
        #expect(PathKind.of(directory) == .directory)
    }

    /// On Linux the bypass is `O_DIRECT` (its value is spelled in the layer, so
    /// check it is the real flag): an unaligned write fails with `EINVAL`
    /// while it is on, and succeeds once it is off again.
    @Test(.enabled(if: LinuxOnly.isLinux, "O_DIRECT's alignment rule is Linux's; Darwin's F_NOCACHE has none"))
    func writesThatBypassTheCacheMustBeAlignedUntilTheModeIsTurnedOff() throws {
        let directory = try scratchDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/direct"
        let descriptor = try FileSystem.createFile(path, access: .readWriteAppend, ifExists: .fail, protection: .none)
        defer { try? descriptor.close() }
        try descriptor.setWritesBypassCache(true)
        let alignment = FileDescriptor.uncachedWriteAlignment
        let aligned = UnsafeMutableRawBufferPointer.allocate(byteCount: alignment, alignment: alignment)
        defer { aligned.deallocate() }
        aligned.initializeMemory(as: UInt8.self, repeating: UInt8(ascii: "a"))
        try descriptor.writeAll(UnsafeRawBufferPointer(aligned))
        #expect(throws: Errno.invalidArgument) {
            try Array("bc\n".utf8).withUnsafeBytes { try descriptor.writeAll($0) }
        }
        try descriptor.setWritesBypassCache(false)
        try Array("bc\n".utf8).withUnsafeBytes { try descriptor.writeAll($0) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == String(repeating: "a", count: alignment) + "bc\n")
    }

    @Test func availableBytesIsPositiveOnAWritableDisk() throws {
        let available = try #require(FileSystem.availableBytes(onFileSystemOf: NSTemporaryDirectory()))
        #expect(available > 0)
        #expect(FileSystem.availableBytes(onFileSystemOf: "/no/such/dir-\(UUID().uuidString)") == nil)
    }
}
