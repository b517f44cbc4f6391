import Foundation
import Testing
import DuneEvents
import DuneProjections

@Suite struct LiveProjectionsTests {
    @Test func liveProjectionsEqualAFromScratchRebuild() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("live-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/events.jsonl"
        let lines = SyntheticHealthData(days: 30, seed: 11).lines()
        let commands = lines.compactMap { try? InputParser.parse($0) }
        #expect(commands.count == lines.count)

        // A first session appends two thirds of the input and goes away.
        let first = try EventLog(path: path)
        _ = try await first.ingest(Array(commands.prefix(commands.count * 2 / 3)))
        await first.close()

        // The app starts: opens the log, catches up from the file, then keeps appending live in small batches.
        let log = try EventLog(path: path)
        let live = LiveProjections(log: log, projections: ProjectionSet())
        let caughtUp = try await live.catchUp()
        #expect(caughtUp.throughSeq == (await log.lastSeq))
        var rest = Array(commands.dropFirst(commands.count * 2 / 3))
        while !rest.isEmpty {
            _ = try await live.ingest(Array(rest.prefix(97)))
            rest.removeFirst(min(97, rest.count))
        }
        #expect(try await live.catchUp().events == 0)
        await log.close()

        let scratch = ProjectionSet()
        try await Replayer.replay(try LogReader(path: path), into: scratch)
        #expect(await live.projections.files() == scratch.files())
        #expect(await scratch.throughSeq() == (try LogReader(path: path).events().last?.seq))
    }
}
