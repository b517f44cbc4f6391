import Foundation
import Testing
@testable import DuneEvents
@testable import DuneTools

/// Issue 37: a replay defers each sample's content digest until a line with
/// its id arrives (IngestState+Deferred.swift). The decisions must be those
/// of the process that wrote the log (its state folded eagerly, as it
/// appended): after an open without a checkpoint, and after an open from a
/// checkpoint that holds deferred samples — duplicates, corrections, the
/// correction-back rule, deleted samples, eventIDs, and a forget in between.
@Suite struct DeferredContentTests {
    typealias Fixture = ForgetStateTests

    /// A UUID-shaped id for a fixture's short one ("S12"), so that replay
    /// packs its samples (only those defer): the name's bytes in hex at the end.
    static func uuid(_ name: String) -> String {
        let hex = name.utf8.map { String($0, radix: 16, uppercase: true) }.joined()
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
    }

    /// `lines` with each `"id":"<short name>"` made UUID-shaped.
    static func uuids(_ lines: [String]) -> [String] {
        lines.map { line in
            guard let range = line.range(of: #""id":"[A-Z][0-9]{1,4}""#, options: .regularExpression) else { return line }
            let name = String(line[range].dropFirst(6).dropLast())
            return line.replacingCharacters(in: range, with: #""id":""# + uuid(name) + #"""#)
        }
    }

    static var base: [String] { uuids(Fixture.lines) }

    /// Lines that exercise each rule against samples stored by `Fixture.lines`.
    static var probes: [String] {
        uuids([
            Fixture.sample("S1", 1, value: 41),                         // identical: alreadyAppended
            Fixture.sample("S2", 2, value: 99),                         // other content: a correction
            Fixture.sample("S4", 4, value: 70),                         // an old version without eventID: alreadyAppended
            Fixture.sample("S4", 4, value: 70, eventID: "back-S4"),     // with a new eventID: a correction back
            Fixture.sample("S5", 5, value: 45, eventID: "again-S5"),    // the current content, new eventID: alreadyAppended
            Fixture.sample("S7", 7, value: 47),                         // deleted, identical: not revived
            Fixture.sample("S7", 7, value: 47, eventID: "again-S7"),    // deleted, new eventID: not revived
            Fixture.sample("S3", 3, value: 61),                         // an old version of a much-corrected sample
            Fixture.sample("S3", 3, value: 61, eventID: "back-S3"),     // …back to it with a new eventID
            Fixture.sample("S20", 20, value: 60, extra: #","device":"x""#), // an unknown member: other content
            Fixture.sample("S10", 10, value: 50, eventID: "ev-S10"),    // a seen eventID, same content
            Fixture.sample("S15", 15, value: 1, eventID: "ev-S15"),     // a seen eventID, other content: conflict
            Fixture.sample("S29", 29, value: 69),                       // identical
            Fixture.sample("S29", 29, value: 69),                       // …twice in one batch
            Fixture.sample("S28", 28, value: 68.5),                     // a correction…
            Fixture.sample("S28", 28, value: 68),                       // …then its first version again: alreadyAppended
            // Task phases (t2's content deferred by a replay; t1 has an eventID, so not):
            #"{"type":"task","task":"t2","feature":"readiness","phase":"started","at":"2026-02-02T07:00:05+01:00"}"#,  // identical
            #"{"type":"task","task":"t2","feature":"readiness","phase":"started","at":"2026-02-02T07:00:06+01:00"}"#,  // conflict
            #"{"type":"task","task":"t2","feature":"readiness","phase":"completed","at":"2026-02-02T07:00:09+01:00"}"#, // identical
            #"{"type":"task","task":"t2","feature":"readiness","phase":"failed","at":"2026-02-02T07:00:10+01:00","error":"x"}"#,
            #"{"type":"task","task":"t1","feature":"readiness","phase":"started","at":"2026-02-02T07:00:02+01:00"}"#,  // conflict
        ]) + base  // everything again
    }

    static let newSample = uuids([Fixture.sample("N1", 2, value: 33)])[0]

    /// Ingests `lines` as commands, or through an `IngestSession` (prepared samples).
    static func ingest(_ lines: [String], into log: EventLog, prepared: Bool, directory: String) async throws -> [String] {
        guard prepared else {
            return try await log.ingest(try LogFixture.commands(lines)).results.map { "\($0.outcome)" }
        }
        let input = directory + "/probe-\(UUID().uuidString).jsonl"
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))
        var session = IngestSession(log: log, batchSize: 7)
        let reader = try InputLineReader(path: input)
        while let line = try reader.next() { try await session.submit(line: line, input: "probe") }
        let summary = try await session.finish()
        return ["appended \(summary.appended)", "alreadyAppended \(summary.alreadyAppended)", "conflicts \(summary.conflicts)"]
    }

    /// The outcomes of the probes and the state after them, for a log that
    /// holds `Fixture.lines` and then `newSample`, reached in one of three ways.
    static func run(_ way: Int, prepared: Bool, directory: String) async throws -> (outcomes: [String], state: IngestState) {
        let path = directory + "/way\(way).jsonl"
        let noCheckpoint = EventLog.Options(checkpointBytes: nil)
        var log = try EventLog(path: path, options: noCheckpoint)
        _ = try await log.ingest(try LogFixture.commands(Self.base))
        switch way {
        case 0:
            // The writing process: its state folded as it appended.
            _ = try await log.ingest(try LogFixture.commands([Self.newSample]))
        case 1:
            // A new process, no checkpoint: the replay defers.
            await log.close()
            log = try EventLog(path: path, options: noCheckpoint)
            _ = try await log.ingest(try LogFixture.commands([Self.newSample]))
        default:
            // A new process replays (deferring), appends, and leaves a checkpoint with deferred samples;
            // the next one starts from that checkpoint.
            await log.close()
            #expect(LogCheckpoint.load(logPath: path) == nil)
            log = try EventLog(path: path, options: EventLog.Options(checkpointBytes: 1))
            _ = try await log.ingest(try LogFixture.commands([Self.newSample]))
            await log.close()
            let checkpoint = try #require(LogCheckpoint.load(logPath: path))
            #expect(checkpoint.state.deferredSeqs.count >= 10)
            #expect(checkpoint.state.deferredTaskSeqs.count == 2)
            #expect(LogCheckpoint.decode(checkpoint.encoded())?.state == checkpoint.state, "deferred entries round-trip")
            log = try EventLog(path: path, options: EventLog.Options(checkpointBytes: 1))
        }
        var forget = ForgetSelection()
        forget.sampleIDs = [Self.uuid("S9"), Self.uuid("S12")]
        #expect(try await log.forget(forget, dryRun: false).samples == 2)
        let outcomes = try await Self.ingest(Self.probes, into: log, prepared: prepared, directory: directory)
        let state = try await log.ingestState
        await log.close()
        return (outcomes, state)
    }

    @Test(arguments: [false, true])
    func aReplayedStateDecidesAsTheWritingProcessDid(prepared: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let eager = try await Self.run(0, prepared: prepared, directory: directory)
            let replayed = try await Self.run(1, prepared: prepared, directory: directory)
            let checkpointed = try await Self.run(2, prepared: prepared, directory: directory)
            #expect(replayed.outcomes == eager.outcomes)
            #expect(checkpointed.outcomes == eager.outcomes)
            #expect(replayed.state == eager.state)
            #expect(checkpointed.state == eager.state)
            #expect(eager.state.deferredSeqs.isEmpty)
            if !prepared {
                let expected = ["alreadyAppended", "appended", "alreadyAppended", "appended", "alreadyAppended", "alreadyAppended",
                                "alreadyAppended", "alreadyAppended", "appended", "appended", "alreadyAppended", "conflict",
                                "alreadyAppended", "alreadyAppended", "appended", "alreadyAppended",
                                "alreadyAppended", "conflict", "alreadyAppended", "appended", "conflict"]
                #expect(Array(eager.outcomes.prefix(expected.count)) == expected)
            }
        }
    }

    /// Writes the base log without a checkpoint, then appends a new sample in
    /// a second process, whose replay defers the base samples' contents and
    /// whose checkpoint keeps them deferred.
    /// - Returns: The options of that second process (a checkpoint after every append).
    @discardableResult
    static func makeLogWithDeferredEntries(_ path: String) async throws -> EventLog.Options {
        let log = try EventLog(path: path, options: EventLog.Options(checkpointBytes: nil))
        _ = try await log.ingest(try LogFixture.commands(base))
        await log.close()
        let options = EventLog.Options(checkpointBytes: 1)
        let reopened = try EventLog(path: path, options: options)
        _ = try await reopened.ingest(try LogFixture.commands([newSample]))
        await reopened.close()
        return options
    }

    /// The first version is read back only when its id comes again: a new
    /// sample resolves nothing, a re-sent one resolves its own entry only.
    @Test func onlyTheSamplesNamedAreReadBack() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let options = try await Self.makeLogWithDeferredEntries(path)
            let before = try #require(LogCheckpoint.load(logPath: path)).state.deferredSeqs.count
            let reopened = try EventLog(path: path, options: options)
            #expect(try await reopened.ingest(try LogFixture.commands(Self.uuids([Fixture.sample("S1", 1, value: 41)]))).results.map(\.outcome)
                    == [.alreadyAppended])
            _ = try await reopened.ingest(try LogFixture.commands(Self.uuids([Fixture.sample("N2", 3, value: 52)])))
            await reopened.close()
            #expect(try #require(LogCheckpoint.load(logPath: path)).state.deferredSeqs.count == before - 1)
        }
    }

    /// Re-sending more samples than the log reads back one at a time (1,024
    /// here) resolves every deferred entry in one pass over the log, with the
    /// decisions of the writing process.
    @Test func aWholeHistoryResentIsResolvedInOnePass() async throws {
        try await withTemporaryDirectory { directory in
            let history = (0..<1500).map { Fixture.sample(Self.uuid("H\($0)"), $0, value: 40 + Double($0 % 100)) }
            var resent = history
            for index in stride(from: 0, to: 1500, by: 150) {
                resent[index] = Fixture.sample(Self.uuid("H\(index)"), index, value: 41 + Double(index % 100))
            }
            var outcomes: [[IngestOutcome]] = []
            var states: [IngestState] = []
            for way in 0..<2 {
                let path = directory + "/history\(way).jsonl"
                var log = try EventLog(path: path, options: EventLog.Options(checkpointBytes: 1))
                _ = try await log.ingest(try LogFixture.commands(history))
                if way == 1 {
                    await log.close()
                    LogCheckpoint.remove(logPath: path)
                    log = try EventLog(path: path, options: EventLog.Options(checkpointBytes: 1))
                }
                outcomes.append(try await log.ingest(try LogFixture.commands(resent)).results.map(\.outcome))
                await log.close()
                let checkpoint = try #require(LogCheckpoint.load(logPath: path))
                #expect(checkpoint.state.deferredSeqs.isEmpty, "way \(way): every entry the re-send named is resolved")
                states.append(checkpoint.state)
            }
            #expect(outcomes[0] == outcomes[1])
            #expect(outcomes[0].filter { $0 == .appended }.count == 10)
            #expect(states[0] == states[1])
        }
    }

    /// A line the state must read back but cannot (here edited after the
    /// checkpoint was taken: its CRC no longer matches) refuses the append
    /// with `corruptLog` naming its seq; nothing is appended.
    @Test func aDamagedLineToReadBackRefusesTheAppend() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let options = try await Self.makeLogWithDeferredEntries(path)
            let checkpoint = try #require(LogCheckpoint.load(logPath: path))
            // S1's line (41 → 49: same length, so the checkpoint still matches the log's end).
            var bytes = try logTestRead(path)
            let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            var offset = 0
            var damagedSeq: Int?
            for line in lines {
                let text = String(decoding: line, as: UTF8.self)
                if text.contains(Self.uuid("S1")), let range = text.range(of: #""value":41"#) {
                    let at = offset + text.utf8.distance(from: text.startIndex, to: range.upperBound) - 1
                    bytes[at] = UInt8(ascii: "9")
                    damagedSeq = LogFile.seq(ofLine: Array(line))
                    break
                }
                offset += line.count + 1
            }
            let seq = try #require(damagedSeq)
            #expect(checkpoint.state.deferredSeqs.contains(seq))
            try logTestWrite(path, bytes)
            let reopened = try EventLog(path: path, options: options)
            let before = try logTestRead(path)
            let resent = try LogFixture.commands(Self.uuids([Fixture.sample("S1", 1, value: 41)]))
            do throws(DuneEventsError) {
                _ = try await reopened.ingest(resent)
                Issue.record("the append should have been refused")
            } catch {
                #expect(error.code == .corruptLog)
                #expect(error.location.seq == seq)
                #expect(error.message.contains("cannot be read back"))
            }
            #expect(try logTestRead(path) == before)
            await reopened.close()
        }
    }

    /// The key a replay computes for a packed sample id without writing it
    /// out is the digest of its text, in either letter case.
    @Test func aPackedIDsTextDigestIsTheDigestOfItsText() throws {
        var random = SystemRandomNumberGenerator()
        var texts = ["00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
                     "ffffffff-ffff-ffff-ffff-ffffffffffff", "0123ABCD-4567-89EF-A0B1-C2D3E4F5A6B7"]
        for _ in 0..<2000 {
            let uuid = UUID().uuidString
            texts.append(random.next() % 2 == 0 ? uuid : uuid.lowercased())
        }
        for text in texts {
            let packed = try #require(PackedUUID(text), "\(text)")
            #expect(packed.textDigest == ContentDigest(string: text), "\(text)")
        }
    }

    /// `LogFile.line(ofSeq:before:)` finds every line of a log whose lines
    /// differ in length, and no line for a seq the log does not have.
    @Test func everyLineIsFoundBySeq() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/events.jsonl"
            let log = try EventLog(path: path, options: EventLog.Options(checkpointBytes: nil))
            var lines: [String] = []
            for number in 0..<1500 {
                let padding = String(repeating: "x", count: (number * 37) % 900)
                lines.append(Fixture.sample(Self.uuid("L\(number)"), number, value: 40 + Double(number % 100), extra: #","note":"\#(padding)""#))
            }
            _ = try await log.ingest(try LogFixture.commands(lines))
            await log.close()
            let file = try LogFile.openForReading(path: path)
            defer { try? file.close() }
            let size = try file.size
            for seq in 1...1500 {
                let line = try #require(try file.line(ofSeq: seq, before: size), "seq \(seq)")
                #expect(try EventCodec.decode(line).seq == seq)
            }
            #expect(try file.line(ofSeq: 1501, before: size) == nil)
            #expect(try file.line(ofSeq: 0, before: size) == nil)
            // Only whole lines count: a torn last line is passed over.
            let torn = directory + "/torn.jsonl"
            try logTestWrite(torn, try logTestRead(path) + Array(#"{"v":2,"seq":1501,"id":"#.utf8))
            let tornFile = try LogFile.openForReading(path: torn)
            defer { try? tornFile.close() }
            #expect(try tornFile.line(ofSeq: 1500, before: try tornFile.size) != nil)
            #expect(try tornFile.line(ofSeq: 1501, before: try tornFile.size) == nil)
        }
    }
}
