import Foundation
import Synchronization
@testable import DuneEvents
@testable import DuneProjections
@testable import DuneTools

/// What a crash state must keep, from the marks before its cut point.
struct CrashExpectation: Hashable {
    /// The log must start with these bytes (all acknowledged)...
    var acknowledged: [UInt8] = []
    /// ...or, while a forget runs, with the whole new log.
    var forgetNew: [UInt8]?
    /// Forgotten content: in no file once the log is the new one.
    var marker: [UInt8]?
    /// Whether the forget returned (the log must then be the new one).
    var forgetEnded = false
}

/// Records a workload, derives every crash state of the run, and runs the
/// next opener on each: the read-write open (`EventLog`, which recovers),
/// the code behind `verify` (`LogVerifier`) and `rebuild` (`Replayer`, via
/// the store's restore), then one more append.
struct CrashStateExplorer {
    struct Outcome {
        var explored = 0
        var violations: [String] = []
    }

    var generator = CrashStateGenerator()
    /// Test-only: the recorder pretends the append's durable sync happened (the self-check).
    var skipsDurableSync = false
    /// How many states of one workload are checked at once.
    var concurrency = 3

    /// The recovered directories already checked (keys: the expectation and every file's bytes).
    final class CheckedStates: Sendable {
        private let keys = Mutex(Set<Int>())

        /// Whether `key` is new (and now seen).
        func insert(_ key: Hasher) -> Bool {
            keys.withLock { $0.insert(key.finalize()).inserted }
        }
    }

    func explore(_ workload: CrashWorkload, in scratch: String) async throws -> Outcome {
        let root = scratch + "/run"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let logPath = root + "/" + workload.logName
        let acknowledgedSeed = try await workload.setup(logPath)
        let recorder = try RecordingFileSystem(root: root, platform: workload.platform, skipsDurableSync: skipsDurableSync)
        recorder.mark(.acknowledged(path: logPath, bytes: Array(recorder.contents(of: logPath).prefix(acknowledgedSeed))))
        try await workload.run(logPath, recorder)
        let operations = recorder.operations
        var outcome = Outcome()
        for call in recorder.unknownCalls { outcome.violations.append("\(workload.name): not recorded: \(call)") }

        let expectations = Self.expectations(operations, logPath: logPath)
        let known = Self.knownLines(operations, initial: recorder.initialFiles)
        var generator = generator
        generator.mode = workload.mode
        // Which expectation holds at each cut, as a number (equal expectations, equal numbers).
        var versions: [Int] = []
        for (cut, expectation) in expectations.enumerated() {
            versions.append(cut > 0 && expectation == expectations[cut - 1] ? versions[cut - 1] : cut)
        }
        let cutVersions = versions
        var seen: Set<Int> = []
        var states: [CrashState] = []
        generator.forEachState(of: recorder, operations: operations) { state in
            var hasher = Hasher()
            hasher.combine(versions[state.cut])
            state.fingerprint(into: &hasher)
            if seen.insert(hasher.finalize()).inserted { states.append(state) }
        }
        outcome.explored = states.count
        // A few states at a time: an open waits on its log's own thread now and then.
        let checked = CheckedStates()
        let rebuilds = CheckedStates()
        let found = await withTaskGroup(of: [String].self) { group in
            var next = 0
            func add() {
                guard next < states.count else { return }
                let (state, number) = (states[next], next)
                next += 1
                group.addTask {
                    let directory = scratch + "/state-\(number)"
                    let found = await Self.check(state, expectations[state.cut], version: cutVersions[state.cut], workload: workload,
                                                 recorder: recorder, root: root,
                                                 directory: directory, known: known, checked: checked, rebuilds: rebuilds)
                    try? FileManager.default.removeItem(atPath: directory)
                    return found.map { "\(workload.name) [\(state.label)]: \($0)" }
                }
            }
            for _ in 0..<concurrency { add() }
            var found: [String] = []
            for await violations in group {
                found += violations
                add()
            }
            return found
        }
        outcome.violations += found.sorted()
        return outcome
    }

    /// The expectation at each cut point (0 through `operations.count`).
    static func expectations(_ operations: [RecordedOperation], logPath: String) -> [CrashExpectation] {
        var result: [CrashExpectation] = []
        var current = CrashExpectation()
        var forgetEnd: ([UInt8], [UInt8])?
        for operation in operations {
            if case .forgetEnded(let bytes, let marker) = operation { forgetEnd = (bytes, marker) }
        }
        result.append(current)
        for operation in operations {
            switch operation {
            case .acknowledged(let path, let bytes) where path == logPath:
                current.acknowledged = bytes
            case .forgetBegan:
                current.forgetNew = forgetEnd?.0
                current.marker = forgetEnd?.1
            case .forgetEnded:
                current.forgetEnded = true
                current.forgetNew = nil
            default:
                break
            }
            result.append(current)
        }
        return result
    }

    /// Every complete line any write carried (a line accepted past the acknowledged bytes must be one of them).
    static func knownLines(_ operations: [RecordedOperation], initial: [(path: String, inode: Int, bytes: [UInt8])]) -> Set<[UInt8]> {
        var lines: Set<[UInt8]> = []
        func add(_ bytes: [UInt8]) {
            for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true) { lines.insert(Array(line)) }
        }
        var contents: [Int: [UInt8]] = [:]
        for file in initial { contents[file.inode] = file.bytes }
        for operation in operations {
            switch operation {
            case .truncate(let inode, let size):
                var content = contents[inode] ?? []
                CrashStateGenerator.apply(.truncate(size: size), to: &content)
                contents[inode] = content
            case .write(let inode, let offset, let bytes):
                var content = contents[inode] ?? []
                CrashStateGenerator.apply(.write(offset: offset, bytes: bytes), to: &content)
                contents[inode] = content
                add(content)
            case .acknowledged(_, let bytes), .forgetEnded(let bytes, _):
                add(bytes)
            default:
                break
            }
        }
        return lines
    }

    // MARK: - Checking one state

    static func check(_ state: CrashState, _ expectation: CrashExpectation, version: Int, workload: CrashWorkload, recorder: RecordingFileSystem,
                      root: String, directory: String, known: Set<[UInt8]>, checked: CheckedStates,
                      rebuilds: CheckedStates) async -> [String] {
        var violations: [String] = []
        func mapped(_ path: String) -> String { directory + path.dropFirst(root.count) }
        let logPath = mapped(root + "/" + workload.logName)
        do {
            try materialize(state, recorder: recorder, root: root, directory: directory, logPath: root + "/" + workload.logName)
        } catch {
            return ["the state could not be written: \(error)"]
        }

        // The next writer: opens (recovering the end of the log and any forget) without help.
        let log: EventLog
        do {
            // As a store opens: the lock and the recovery now, the deciders' state at the first append.
            log = try EventLog(path: logPath, options: .init(durability: .batch, defersState: true))
        } catch {
            return ["the next writer cannot open the log: \(error)"]
        }
        let bytes = (try? Data(contentsOf: URL(fileURLWithPath: logPath))).map(Array.init) ?? []
        let isNew = expectation.forgetNew.map { bytes.starts(with: $0) } ?? false
        let covered = isNew ? (expectation.forgetNew ?? []) : expectation.acknowledged
        if !isNew, !bytes.starts(with: expectation.acknowledged) {
            let offset = zip(bytes, expectation.acknowledged).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                ?? min(bytes.count, expectation.acknowledged.count)
            violations.append("acknowledged bytes lost or changed from byte \(offset) (the log has \(bytes.count) bytes, \(expectation.acknowledged.count) were acknowledged)"
                              + (expectation.forgetNew == nil ? "" : "; it is neither the whole old log nor the whole new one"))
        }
        for line in bytes[min(covered.count, bytes.count)...].split(separator: UInt8(ascii: "\n")) where !known.contains(Array(line)) {
            violations.append("an unacknowledged line that no append wrote was accepted: \(String(decoding: line.prefix(80), as: UTF8.self).debugDescription)")
        }
        // The checks below depend only on the files the open left (and the expectation):
        // many states recover to the same files, and those are checked once.
        let files = filesBelow(directory)
        if let marker = expectation.marker, isNew || expectation.forgetEnded {
            for (path, content) in files where content.contains(marker) {
                violations.append("forgotten content came back in '\(path.dropFirst(directory.count + 1))'")
            }
        }
        // The checks below read only the log and the caches beside it (side files do not
        // matter to them): many states recover to the same log, and it is checked once.
        var key = Hasher()
        key.combine(version)
        for (path, content) in files where path == logPath || path == LogCheckpoint.path(forLog: logPath)
            || path == SnapshotFile.path(forLog: logPath) {
            key.combine(path.dropFirst(directory.count))
            content.withUnsafeBytes { key.combine(bytes: $0) }
        }
        guard checked.insert(key) else {
            await log.close()
            return violations
        }
        // The deciders' state (from the checkpoint when it is valid): what the next append decides on.
        let lastSeq: Int
        do {
            lastSeq = try await log.lastSeq
        } catch {
            await log.close()
            return violations + ["the recovered log cannot be read for appending: \(error)"]
        }
        if workload.comparesCheckpoint {
            let fromCheckpoint = try? await log.ingestState
            await log.close()
            do {
                let replayed = try EventLog(path: logPath, options: .init(checkpointBytes: nil))
                let state = try await replayed.ingestState
                await replayed.close()
                if encoded(fromCheckpoint) != encoded(state) {
                    violations.append("the deciders' state from the checkpoint differs from a replay of the log")
                }
            } catch {
                violations.append("reopening without the checkpoint failed: \(error)")
            }
        }
        // Rebuild (and the snapshot, when the workload writes one): the read models equal a rebuild.
        // It reads only the log (and the snapshot): once per distinct pair.
        var rebuildKey = Hasher()
        for (path, content) in files where path == logPath || path == SnapshotFile.path(forLog: logPath) {
            rebuildKey.combine(path.dropFirst(directory.count))
            content.withUnsafeBytes { rebuildKey.combine(bytes: $0) }
        }
        if rebuilds.insert(rebuildKey) {
            do {
                var rebuilt = try await ReadModelEngine.restore(logPath: logPath, usingSnapshot: false)
                if rebuilt.engine.throughSeq != lastSeq {
                    violations.append("a rebuild reads through seq \(rebuilt.engine.throughSeq), the log ends at \(lastSeq)")
                }
                if workload.comparesSnapshot {
                    var restored = try await ReadModelEngine.restore(logPath: logPath, usingSnapshot: true)
                    if restored.engine.state() != rebuilt.engine.state() {
                        violations.append("the read models from the snapshot differ from a rebuild")
                    }
                    if restored.snapshotSeq == 0, FileManager.default.fileExists(atPath: SnapshotFile.path(forLog: logPath)),
                       restored.warnings.isEmpty {
                        violations.append("a snapshot was neither used nor reported")
                    }
                }
            } catch {
                violations.append("rebuild failed: \(error)")
            }
        }
        // The next writer appends; then the whole log verifies, seq gapless.
        do {
            let writer = workload.comparesCheckpoint ? try EventLog(path: logPath, options: .init(durability: .batch)) : log
            let result = try await writer.ingest([CrashWorkload.sample(9_999)])
            await writer.close()
            if result.results.first?.seqs != (lastSeq + 1)...(lastSeq + 1) {
                violations.append("the next append got \(String(describing: result.results.first)) after seq \(lastSeq)")
            }
        } catch {
            await log.close()
            violations.append("the next append failed: \(error)")
        }
        do {
            let report = try LogVerifier.verify(path: logPath)
            if !report.isIntact || report.lastSeq != lastSeq + 1 {
                violations.append("the log does not verify after the next append: \(report.problems.prefix(3).map(\.description)), last seq \(report.lastSeq), trailing \(report.trailingBytes)")
            }
        } catch {
            violations.append("verify failed: \(error)")
        }
        return violations
    }

    static func encoded(_ state: IngestState?) -> [UInt8]? {
        guard let state else { return nil }
        var writer = BinaryWriter()
        state.write(to: &writer)
        return writer.bytes
    }

    /// Every regular file below `directory`, with its bytes, sorted by path.
    static func filesBelow(_ directory: String) -> [(String, [UInt8])] {
        var result: [(String, [UInt8])] = []
        let enumerator = FileManager.default.enumerator(atPath: directory)
        var relatives: [String] = []
        while let relative = enumerator?.nextObject() as? String { relatives.append(relative) }
        for relative in relatives.sorted() {
            let path = directory + "/" + relative
            if let data = FileManager.default.contents(atPath: path) { result.append((path, Array(data))) }
        }
        return result
    }

    /// Writes `state` under `directory`. Caches stamped with the recorded log's
    /// identity (device, inode) are restamped with the copy's, so that a
    /// checkpoint or snapshot of the log the state holds is recognised as one.
    static func materialize(_ state: CrashState, recorder: RecordingFileSystem, root: String, directory: String,
                            logPath: String) throws {
        func mapped(_ path: String) -> String { directory + path.dropFirst(root.count) }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for path in state.directories where path != root {
            try FileManager.default.createDirectory(atPath: mapped(path), withIntermediateDirectories: true)
        }
        for file in state.files {
            try Data(file.bytes).write(to: URL(fileURLWithPath: mapped(file.path)))
        }
        guard let logInode = state.files.first(where: { $0.path == logPath })?.inode,
              let recordedIdentity = recorder.identities[logInode],
              let identity = FileSystem.identity(ofPath: mapped(logPath))
        else { return }
        for file in state.files {
            if file.path == LogCheckpoint.path(forLog: logPath), var checkpoint = LogCheckpoint.decode(file.bytes),
               checkpoint.stamp.identity == recordedIdentity {
                checkpoint.stamp.identity = identity
                try Data(checkpoint.encoded()).write(to: URL(fileURLWithPath: mapped(file.path)))
            }
            if file.path == SnapshotFile.path(forLog: logPath), let reader = MappedFile(mapped(file.path)),
               case .success(let (snapshot, stamp)) = SnapshotFile.read(reader, stampMismatch: { _ in nil }),
               stamp.identity == recordedIdentity {
                var restamped = stamp
                restamped.identity = identity
                // Renamed over the mapped file, never rewritten in place (a mapped reader would fault).
                try Data(SnapshotFile.encoded(snapshot, at: restamped)).write(to: URL(fileURLWithPath: mapped(file.path)), options: .atomic)
            }
        }
    }
}
