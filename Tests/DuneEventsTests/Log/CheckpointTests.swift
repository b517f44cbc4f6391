import Foundation
import Testing
@testable import DuneEvents
import DuneTools
import DuneFixtures

/// `<log>.checkpoint`: opening a log from its checkpoint gives exactly the
/// state a full replay gives, and a checkpoint that does not agree with the
/// log is never used.
@Suite struct CheckpointTests {
    static let commands: [IngestCommand] = SyntheticHealthData(days: 25, seed: 4).lines().compactMap { try? InputParser.parse($0) }

    /// Appends `commands` to the log at `path` in batches, then closes it.
    func ingest(_ commands: ArraySlice<IngestCommand>, into path: String, checkpointBytes: Int? = 1) async throws {
        let log = try EventLog(path: path, options: .init(checkpointBytes: checkpointBytes))
        var rest = commands
        while !rest.isEmpty {
            _ = try await log.ingest(Array(rest.prefix(500)))
            rest = rest.dropFirst(500)
        }
        await log.close()
    }

    /// The state a full replay of the log gives (no checkpoint read or written).
    func replayedState(_ path: String) async throws -> IngestState {
        let log = try EventLog(path: path, options: .init(checkpointBytes: nil))
        let state = try await log.ingestState
        await log.close()
        return state
    }

    func openedState(_ path: String) async throws -> IngestState {
        let log = try EventLog(path: path)
        let state = try await log.ingestState
        await log.close()
        return state
    }

    @Test func reopeningFromTheCheckpointGivesTheReplayedState() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let half = Self.commands.count / 2
            try await ingest(Self.commands[..<half], into: path)
            let checkpointPath = LogCheckpoint.path(forLog: path)
            #expect(FileManager.default.fileExists(atPath: checkpointPath))
            #expect(try logTestPermissions(checkpointPath) == 0o600)
            #expect(try await openedState(path) == replayedState(path))
            // Appends after the checkpoint are replayed on open, then covered by the next one.
            try await ingest(Self.commands[half...], into: path, checkpointBytes: nil)
            #expect(try await openedState(path) == replayedState(path))
            // Re-sending everything is recognised from the checkpointed state.
            let log = try EventLog(path: path)
            let again = try await log.ingest(Self.commands)
            await log.close()
            #expect(again.appended.isEmpty)
            #expect(again.results.allSatisfy { $0.outcome == .alreadyAppended })
        }
    }

    @Test(arguments: ["damaged checkpoint", "shorter log", "other log's checkpoint", "rewritten last line"])
    func aCheckpointThatDisagreesWithTheLogIsIgnored(case name: String) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let checkpointPath = LogCheckpoint.path(forLog: path)
            try await ingest(Self.commands[..<600], into: path)
            switch name {
            case "damaged checkpoint":
                var bytes = try logTestRead(checkpointPath)
                bytes[bytes.count / 2] ^= 0x20
                try logTestWrite(checkpointPath, bytes)
            case "shorter log":
                let lines = try logTestRead(path).split(separator: UInt8(ascii: "\n"))
                try logTestWrite(path, lines.dropLast(3).flatMap { Array($0) + [10] })
            case "other log's checkpoint":
                let other = directory + "/other.jsonl"
                try await ingest(Self.commands[..<600], into: other)
                try logTestWrite(checkpointPath, try logTestRead(LogCheckpoint.path(forLog: other)))
            default:
                // Same length, same seq, other bytes: a different last line.
                var lines = try logTestRead(path).split(separator: UInt8(ascii: "\n")).map(Array.init)
                let last = try #require(lines.last)
                var event = try last.withUnsafeBytes { try EventCodec.decode($0) }
                event.id = String(event.id.reversed())
                lines[lines.count - 1] = Array(EventCodec.encodeLine(event).dropLast())
                try logTestWrite(path, lines.flatMap { $0 + [10] })
            }
            #expect(try await openedState(path) == replayedState(path))
        }
    }

    @Test func checkpointsRoundTripAndReplayingBatchesEqualsReplayingEvents() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            try await ingest(Self.commands[...], into: path, checkpointBytes: nil)
            var byEvent = IngestState()
            for event in try LogReader(path: path).events() { byEvent.evolve(with: event) }
            var byBatch = IngestState()
            try LogReader(path: path).forEachEventBatch { byBatch.evolve($0) }
            #expect(byBatch == byEvent)
            // The replay of a log without a checkpoint: the digests computed on the decoding threads, chunks of every size.
            for chunkSize in [997, 64 << 10] {
                var byThreads = IngestState()
                try LogReader(path: path).forEachEventBatch(startingAt: .init(), chunkSize: chunkSize,
                                                            digesting: { IngestState.digests(of: $0) }) { byThreads.evolve($0, digests: $1) }
                #expect(byThreads == byEvent)
            }
            #expect(try await replayedState(path) == byEvent)
            let file = try LogFile.openForReading(path: path)
            let checkpoint = try #require(LogCheckpoint.atEnd(of: file, size: try file.size, state: byEvent))
            let decoded = try #require(LogCheckpoint.decode(checkpoint.encoded()))
            #expect(decoded.state == byEvent)
            #expect(decoded.offset == (try file.size) && decoded.lastSeq == byEvent.lastSeq)
            // Any cut or flipped byte makes it unreadable rather than wrong.
            var bytes = checkpoint.encoded()
            #expect(LogCheckpoint.decode(Array(bytes.dropLast())) == nil)
            bytes[LogCacheFile.headerLength + 5] ^= 1
            #expect(LogCheckpoint.decode(bytes) == nil)
            #expect(decoded.stamp == checkpoint.stamp)
            // The file holds exactly `encoded()`: header and payload are written one after the other, unframed.
            try checkpoint.write(logPath: path)
            #expect(Array(try Data(contentsOf: URL(fileURLWithPath: LogCheckpoint.path(forLog: path)))) == checkpoint.encoded())
        }
    }

    /// The checkpoint file is written a piece at a time (encoded twice, its
    /// header last; never whole in memory); whatever the piece size, its bytes are those of
    /// `encoded()`, the reference path.
    @Test(arguments: [1, 7, 100, 4096, 65_536])
    func aCheckpointWrittenInPiecesHoldsTheEncodedBytes(chunkBytes: Int) async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            try await ingest(Self.commands[...], into: path, checkpointBytes: nil)
            var state = IngestState()
            for event in try LogReader(path: path).events() { state.evolve(with: event) }
            #expect(state.samples.count > 1000 && state.storedLines.count > 10 && state.taskPhases.count > 10)
            let file = try LogFile.openForReading(path: path)
            let checkpoint = try #require(LogCheckpoint.atEnd(of: file, size: try file.size, state: state))
            try checkpoint.write(logPath: path, chunkBytes: chunkBytes)
            let written = Array(try Data(contentsOf: URL(fileURLWithPath: LogCheckpoint.path(forLog: path))))
            #expect(written == checkpoint.encoded())
            #expect(LogCheckpoint.decode(written)?.state == state)
        }
    }
}
