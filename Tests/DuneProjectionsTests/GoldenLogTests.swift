import Foundation
import Testing
import DuneEvents
import DuneOracles
@testable import DuneProjections
import DuneTools

/// SPEC §11: the golden logs under `Tests/Golden/` (written by earlier
/// builds) give exactly their stored read models through every read path —
/// the fast scanner, the reference decoder, a store opening the log, a store
/// catching up with another writer's appends, and a store restored from its
/// snapshot. Tests/Golden/README.md says how the expected files are written.
@Suite struct GoldenLogTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let v1 = repository + "/Tests/Golden/v1"

    /// The stored read models, by file name.
    static func expected(_ folder: String) throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in ProjectionName.allCases.map(\.fileName) {
            files[name] = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/read-models/" + name)))
        }
        return files
    }

    static func byName(_ files: [ReadModelFile]) -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: files.map { ($0.fileName, $0.bytes) })
    }

    /// A copy of the golden log in a fresh folder (a store writes its snapshot
    /// and checkpoint beside the log; the golden folder stays untouched).
    static func withCopy(of folder: String, _ body: (String) async throws -> Void) async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            try FileManager.default.copyItem(atPath: folder + "/events.jsonl", toPath: path)
            try await body(path)
        }
    }

    static func lines(_ folder: String) throws -> [Data] {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: folder + "/events.jsonl"))
        return bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true).map { Data($0) + Data([UInt8(ascii: "\n")]) }
    }

    @Test func theGoldenV1LogIsVersion1OnEveryLine() throws {
        let lines = try Self.lines(Self.v1)
        #expect(lines.count == 1509)
        #expect(lines.allSatisfy { $0.starts(with: Array(#"{"v":1,"seq":"#.utf8)) })
    }

    @Test func aRebuildGivesTheStoredReadModels() async throws {
        var engine = ReadModelEngine()
        let summary = try await Replayer.replay(try LogReader(path: Self.v1 + "/events.jsonl"), into: &engine)
        #expect(summary.throughSeq == 1509)
        #expect(Self.byName(await engine.state().files()) == (try Self.expected(Self.v1)))
    }

    /// The reference path: every line through `EventCodec.decode` (the oracle reader).
    @Test func aReferenceReplayGivesTheStoredReadModels() async throws {
        var engine = ReadModelEngine()
        let summary = try await ReferenceReplay.replay(path: Self.v1 + "/events.jsonl", into: &engine)
        #expect(summary.throughSeq == 1509)
        #expect(Self.byName(await engine.state().files()) == (try Self.expected(Self.v1)))
    }

    @Test func aStoreOpeningTheLogGivesTheStoredReadModels() async throws {
        try await Self.withCopy(of: Self.v1) { path in
            let store = try await DuneStore.open(at: path, options: .init(keepsSnapshots: false))
            #expect(Self.byName(await DuneStoreTests.files(of: store)) == (try Self.expected(Self.v1)))
            await store.close()
        }
    }

    @Test func aStoreRestoredFromItsSnapshotGivesTheStoredReadModels() async throws {
        try await Self.withCopy(of: Self.v1) { path in
            let first = try await DuneStore.open(at: path)
            await first.close()  // leaves a snapshot of the whole log
            #expect(FileManager.default.fileExists(atPath: SnapshotFile.path(forLog: path)))
            let store = try await DuneStore.open(at: path)
            #expect(await store.snapshotSeq == 1509, "the store started from the snapshot")
            #expect(await store.warnings == [])
            #expect(Self.byName(await DuneStoreTests.files(of: store)) == (try Self.expected(Self.v1)))
            await store.close()
        }
    }

    /// A store that holds the first part of the log follows the rest as
    /// another process appends it, line for line as the older build wrote it.
    @Test func aStoreCatchingUpWithAnotherWriterGivesTheStoredReadModels() async throws {
        let lines = try Self.lines(Self.v1)
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let cut = 700
            try lines[..<cut].reduce(Data(), +).write(to: URL(fileURLWithPath: path))
            let store = try await DuneStore.open(at: path, options: .init(access: .readOnly))
            var states = store.states.makeAsyncIterator()
            #expect(try await states.next()?.throughSeq == cut)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: lines[cut...].reduce(Data(), +))
            try handle.close()
            var seq = cut
            while seq < lines.count, let state = try await states.next() { seq = state.throughSeq }
            #expect(seq == lines.count)
            #expect(Self.byName(await DuneStoreTests.files(of: store)) == (try Self.expected(Self.v1)))
            await store.close()
        }
    }
}
