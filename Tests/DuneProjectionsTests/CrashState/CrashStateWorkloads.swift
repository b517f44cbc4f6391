import Foundation
@testable import DuneEvents
@testable import DuneProjections
import DuneTools

/// A run to record: a directory prepared on the real file system, then
/// calls through a recording witness, with acknowledgements marked.
struct CrashWorkload: Sendable {
    var name: String
    /// The log, relative to the recorded directory.
    var logName = "events.jsonl"
    var mode: CrashMode = .linux
    var platform: RecordedPlatform = .linux
    /// Whether each state is also opened without the checkpoint, to compare the deciders' states.
    var comparesCheckpoint = false
    /// Whether each state's projections from the snapshot are compared with a rebuild.
    var comparesSnapshot = false
    /// Prepares the directory (real file system, nothing recorded); returns
    /// how many bytes at the start of the log are acknowledged.
    var setup: @Sendable (_ logPath: String) async throws -> Int = { _ in 0 }
    /// The recorded run.
    var run: @Sendable (_ logPath: String, _ recorder: RecordingFileSystem) async throws -> Void

    // MARK: - Inputs

    /// A sample line (about 300 bytes once stored) with a unique id.
    static func sample(_ number: Int, source: String = "Apple Watch") -> IngestCommand {
        let day = 1 + number % 27
        let dayText = day < 10 ? "0\(day)" : "\(day)"
        let line = #"{"type":"sample","kind":"hrv","id":"crash-sample-\#(number)","start":"2026-02-\#(dayText)T06:00:00Z","end":"2026-02-\#(dayText)T06:01:00Z","value":\#(40 + number % 30).5,"unit":"ms","source":"\#(source)","note":"\#(String(repeating: "n", count: 10 + number % 40))"}"#
        do {
            return try InputParser.parse(line)
        } catch {
            preconditionFailure("the crash workload's input line does not parse: \(error)")
        }
    }

    /// Samples `range` as one batch.
    static func batch(_ range: Range<Int>, source: String = "Apple Watch") -> [IngestCommand] {
        range.map { sample($0, source: source) }
    }

    /// A log of `count` samples written on the real file system, then
    /// closed; returns its size (all acknowledged).
    @discardableResult
    static func seed(_ logPath: String, count: Int, source: String = "Apple Watch") async throws -> Int {
        let log = try EventLog(path: logPath, options: .init(checkpointBytes: nil))
        _ = try await log.ingest(batch(1000..<(1000 + count), source: source))
        await log.close()
        return try Data(contentsOf: URL(fileURLWithPath: logPath)).count
    }

    static func options(_ recorder: RecordingFileSystem, durability: Durability = .batch,
                        checkpointBytes: Int? = nil) -> EventLog.Options {
        var options = EventLog.Options(durability: durability, checkpointBytes: checkpointBytes)
        options.fileSystem = recorder.witness
        return options
    }

    // MARK: - The workloads

    /// Append batches at one durability; each batch is acknowledged unless at `.none`.
    static func appends(_ durability: Durability, mode: CrashMode = .linux) -> CrashWorkload {
        CrashWorkload(name: "append at \(durability)\(mode == .darwin ? " (darwin)" : "")", mode: mode,
                      platform: mode == .darwin ? .darwin : .linux,
                      setup: { try await seed($0, count: 2) },
                      run: { path, recorder in
                          let log = try EventLog(path: path, options: options(recorder, durability: durability))
                          for batch in 0..<26 {
                              _ = try await log.ingest(Self.batch((batch * 4)..<(batch * 4 + 1 + batch % 3)))
                              if durability != .none { recorder.acknowledge(path) }
                          }
                          await log.close()
                      })
    }

    /// The first append, which creates the log and its directory.
    static let firstAppend = CrashWorkload(
        name: "first append", logName: "Logs/events.jsonl",
        run: { path, recorder in
            let log = try EventLog(path: path, options: options(recorder))
            for number in 0..<16 {
                _ = try await log.ingest(batch((number * 3)..<(number * 3 + 1 + number % 3)))
                recorder.acknowledge(path)
            }
            await log.close()
        })

    /// A log left with a torn tail, and after it a whole line past the synced
    /// length: the next writer moves both aside, then appends.
    static let tornTail = CrashWorkload(
        name: "torn-tail quarantine",
        setup: { path in
            let acknowledged = try await seed(path, count: 2)
            // What a crash leaves past the synced length: a lost write (zeros), a whole line after it, a torn one.
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            bytes += [UInt8](repeating: 0, count: 90) + [UInt8(ascii: "\n")]
            bytes += Array(#"{"v":1,"seq":4,"torn":"#.utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return acknowledged
        },
        run: { path, recorder in
            let log = try EventLog(path: path, options: options(recorder))
            for number in 0..<10 {
                _ = try await log.ingest(batch((number * 3)..<(number * 3 + 2)))
                recorder.acknowledge(path)
            }
            await log.close()
        })

    /// The checkpoint written on close (not synced: a lost or partial one must be ignored).
    static let checkpoint = CrashWorkload(
        name: "checkpoint write", comparesCheckpoint: true,
        setup: { try await seed($0, count: 3) },
        run: { path, recorder in
            let log = try EventLog(path: path, options: options(recorder, checkpointBytes: 1))
            _ = try await log.ingest(batch(0..<2))
            recorder.acknowledge(path)
            await log.close()
            let again = try EventLog(path: path, options: options(recorder, checkpointBytes: 1))
            for number in 1..<8 {
                _ = try await again.ingest(batch((number * 3)..<(number * 3 + 2)))
                recorder.acknowledge(path)
            }
            await again.close()
        })

    /// The snapshot of the projections, written atomically beside the log.
    static let snapshot = CrashWorkload(
        name: "snapshot write", comparesSnapshot: true,
        setup: { try await seed($0, count: 3) },
        run: { path, recorder in
            let log = try EventLog(path: path, options: options(recorder))
            _ = try await log.ingest(batch(0..<2))
            recorder.acknowledge(path)
            let engine = try await ReadModelEngine.restore(logPath: path, usingSnapshot: false).engine
            guard let stamp = await log.stampAtEnd(), let snapshot = engine.snapshot else { throw CrashWorkloadError.noStamp }
            try SnapshotFile.write(snapshot, at: stamp, logPath: path, fileSystem: recorder.witness)
            for number in 1..<10 {
                _ = try await log.ingest(batch((number * 3)..<(number * 3 + 2)))
                recorder.acknowledge(path)
            }
            await log.close()
        })

    /// The source of the samples `forget` erases: it must not come back.
    static let forgottenSource = "FORGET-ME-SOURCE"

    /// `forget` with its journal, after a torn tail holding forgotten content was moved aside.
    static let forget = CrashWorkload(
        name: "forget",
        setup: { path in
            let log = try EventLog(path: path, options: .init(checkpointBytes: nil))
            _ = try await log.ingest(batch(1000..<1002) + batch(2000..<2002, source: forgottenSource))
            await log.close()
            var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
            let acknowledged = bytes.count
            bytes += Array(#"{"v":1,"seq":5,"data":{"source":"\#(forgottenSource)"#.utf8)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return acknowledged
        },
        run: { path, recorder in
            let log = try EventLog(path: path, options: options(recorder))
            recorder.acknowledge(path)
            var selection = ForgetSelection()
            selection.sampleIDs = ["crash-sample-2000", "crash-sample-2001"]
            recorder.mark(.forgetBegan)
            _ = try await log.forget(selection, dryRun: false)
            recorder.mark(.forgetEnded(bytes: recorder.contents(of: path), marker: Array(forgottenSource.utf8)))
            recorder.acknowledge(path)
            for number in 0..<8 {
                _ = try await log.ingest(batch((number * 3)..<(number * 3 + 2)))
                recorder.acknowledge(path)
            }
            await log.close()
        })

    /// Every workload of the suite.
    static let all: [CrashWorkload] = [
        appends(.fsync), appends(.batch), appends(.none), appends(.batch, mode: .darwin),
        firstAppend, tornTail, checkpoint, snapshot, forget, twoStoreWriters,
    ]

    /// Two writers on one log, each taking the lock per write and folding the
    /// other's lines first, as two `DuneStore`s open it (`locksPerWrite`,
    /// deferred state): several stores in one process, alternating appends,
    /// each acknowledged when its call returns.
    static let twoStoreWriters = CrashWorkload(
        name: "two store writers, the lock per write",
        setup: { try await seed($0, count: 2) },
        run: { path, recorder in
            var writerOptions = options(recorder)
            writerOptions.locksPerWrite = true
            writerOptions.defersState = true
            writerOptions.lockWait = .untilAvailable
            let first = try EventLog(path: path, options: writerOptions)
            let second = try EventLog(path: path, options: writerOptions)
            for round in 0..<12 {
                let writer = round % 2 == 0 ? first : second
                _ = try await writer.ingest(Self.batch((round * 3)..<(round * 3 + 1 + round % 2), source: round % 2 == 0 ? "A" : "B"))
                recorder.acknowledge(path)
            }
            await first.close()
            await second.close()
        })
}

enum CrashWorkloadError: Error {
    case noStamp
}
