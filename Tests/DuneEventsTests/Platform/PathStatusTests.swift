import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import DuneEvents
@testable import DuneTools

/// The status of a path, as every caller reads it: forget's folder tidy and
/// `report --html`'s write-through rule (`PathKind`), `createDirectories`, the
/// watcher's polling fallback and the writer's "does the path still name my
/// file" check (`FileSystem.status(ofPath:)`, `identity(ofPath:)`).
///
/// CI also runs this suite against a release build: Swift 6.3.1's optimizer
/// once made `status(ofPath:)` report `size == 0` and `isRegularFile == false`
/// for every path there, and only there (docs/development.md, "A release-only
/// miscompile").
@Suite struct PathStatusTests {
    private func withScratchDirectory(_ body: (String) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "dune-path-status-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    @Test func aRegularFileIsARegularFileWithItsSize() throws {
        try withScratchDirectory { directory in
            let path = directory + "/report.html"
            try Data(repeating: UInt8(ascii: "x"), count: 20_443).write(to: URL(fileURLWithPath: path))
            let status = try #require(try FileSystem.status(ofPath: path))
            #expect(status.isRegularFile && !status.isDirectory && !status.isSymbolicLink)
            #expect(status.size == 20_443)
            #expect(status.permissions == UInt32(try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)))
            let descriptor = try FileDescriptor.open(path, .readOnly)
            defer { try? descriptor.close() }
            #expect(try descriptor.status() == status, "stat and fstat of one file agree")
            #expect(FileSystem.identity(ofPath: path) == status.identity)
            #expect(PathKind.of(path) == .regularFile)
            #expect(PathKind.entry(path) == .regularFile)
            #expect(ProcessCalls.prefix(of: path, count: 3) == Array("xxx".utf8))
        }
    }

    @Test func aDirectoryIsADirectory() throws {
        try withScratchDirectory { directory in
            let status = try #require(try FileSystem.status(ofPath: directory))
            #expect(status.isDirectory && !status.isRegularFile && !status.isSymbolicLink)
            #expect(PathKind.of(directory) == .directory)
            #expect(PathKind.entry(directory) == .directory)
            #expect(ProcessCalls.prefix(of: directory, count: 3) == nil)
        }
    }

    @Test func aSymbolicLinkIsFollowedByStatAndDescribesItselfToLstat() throws {
        try withScratchDirectory { directory in
            try Data("abc".utf8).write(to: URL(fileURLWithPath: directory + "/target"))
            try FileManager.default.createSymbolicLink(atPath: directory + "/link", withDestinationPath: "target")
            let followed = try #require(try FileSystem.status(ofPath: directory + "/link"))
            #expect(followed.isRegularFile && followed.size == 3 && !followed.isSymbolicLink)
            #expect(followed.identity == FileSystem.identity(ofPath: directory + "/target"))
            let entry = try #require(try FileSystem.status(ofPath: directory + "/link", followingSymbolicLinks: false))
            #expect(entry.isSymbolicLink && !entry.isRegularFile && !entry.isDirectory)
            #expect(entry.size == "target".utf8.count, "a link's size is the length of its text")
            #expect(PathKind.of(directory + "/link") == .regularFile)
            #expect(PathKind.entry(directory + "/link") == .symbolicLink)

            try FileManager.default.createSymbolicLink(atPath: directory + "/dangling", withDestinationPath: "nothing-here")
            #expect(try FileSystem.status(ofPath: directory + "/dangling") == nil)
            #expect(try FileSystem.status(ofPath: directory + "/dangling", followingSymbolicLinks: false)?.isSymbolicLink == true)
            #expect(PathKind.of(directory + "/dangling") == nil)
            #expect(PathKind.entry(directory + "/dangling") == .symbolicLink)
        }
    }

    @Test func aFIFOIsNeitherAFileNorADirectory() throws {
        try withScratchDirectory { directory in
            let path = directory + "/pipe"
            #expect(mkfifo(path, 0o600) == 0)
            let status = try #require(try FileSystem.status(ofPath: path))
            #expect(!status.isRegularFile && !status.isDirectory && !status.isSymbolicLink)
            #expect(status.permissions == 0o600)
            #expect(PathKind.of(path) == .other)
            #expect(PathKind.entry(path) == .other)
            #expect(ProcessCalls.prefix(of: path, count: 3) == nil, "a FIFO is never opened to look inside")
        }
    }

    @Test func nothingThereIsNilAndAFileInThePathIsAnError() throws {
        try withScratchDirectory { directory in
            #expect(try FileSystem.status(ofPath: directory + "/missing") == nil)
            #expect(try FileSystem.status(ofPath: directory + "/missing", followingSymbolicLinks: false) == nil)
            try Data("a".utf8).write(to: URL(fileURLWithPath: directory + "/file"))
            #expect(throws: Errno.self) { try FileSystem.status(ofPath: directory + "/file/below") }
            #expect(PathKind.of(directory + "/file/below") == nil)
        }
    }

    @Test func createDirectoriesRefusesAFileInTheWayAndAcceptsADirectory() throws {
        try withScratchDirectory { directory in
            try FileSystem.createDirectories(directory + "/a/b")
            #expect(try FileSystem.status(ofPath: directory + "/a/b")?.isDirectory == true)
            try FileSystem.createDirectories(directory + "/a/b")  // already there: fine
            try Data("a".utf8).write(to: URL(fileURLWithPath: directory + "/a/file"))
            #expect(throws: DuneEventsError.self) { try FileSystem.createDirectories(directory + "/a/file") }
        }
    }
}
