import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Observation
import Synchronization
import Testing
import DuneEvents
import DuneTools
@testable import DuneProjections

/// Several stores and processes on one log: the lock only while writing,
/// following others' appends, read-only access, one consistent state.
@Suite struct StoreSharingTests {
    /// Returns once `model`'s state satisfies `isReached`: checked on the main
    /// actor, where the model changes, and again after each change that
    /// observation tracking reports (no polling; the calling test's time
    /// limit ends a wait that never returns).
    @MainActor
    static func waitUntil(_ model: StoreStateModel, _ isReached: @escaping @MainActor (StoreState) -> Bool) async {
        while !isReached(model.state) {
            await withCheckedContinuation { (changed: CheckedContinuation<Void, Never>) in
                withObservationTracking { _ = model.state } onChange: { changed.resume() }
            }
        }
    }

    static func line(_ json: String) throws -> StoreInput {
        try #require(DuneStoreTests.storeInput(try InputParser.parse(json)))
    }

    static func sample(_ id: String, day: Int, value: Double, source: String) -> String {
        let date = "2026-03-\(day < 10 ? "0" : "")\(day)T06:00:00Z"
        let end = "2026-03-\(day < 10 ? "0" : "")\(day)T06:01:00Z"
        return #"{"type":"sample","kind":"hrv","id":"\#(id)","start":"\#(date)","end":"\#(end)","value":\#(value),"unit":"ms","source":"\#(source)"}"#
    }

    /// One writer's inputs: samples both writers send (idempotency), corrections
    /// of the other's samples, refreshes 30 s apart (throttling), task phases.
    static func inputs(writer: Int) throws -> [StoreInput] {
        var lines: [String] = []
        for index in 0..<12 {
            lines.append(sample("shared-\(index)", day: 1 + index % 20, value: 40 + Double(index), source: "Watch"))
            lines.append(sample("fix-\(index)", day: 2 + index % 20, value: 60 + Double(writer * 10 + index), source: "Ring"))
            let second = 10 + index * 30 + writer * 7
            lines.append(#"{"type":"refresh","source":"healthKitObserver","kind":"hrv","at":"2026-03-10T08:\#(second / 60 < 10 ? "0" : "")\#(second / 60):\#(second % 60 < 10 ? "0" : "")\#(second % 60)Z"}"#)
            let phase = index % 2 == 0 ? "started" : "completed"
            lines.append(#"{"type":"task","task":"load-\#(writer)-\#(index / 2)","feature":"readiness","phase":"\#(phase)","at":"2026-03-10T09:00:\#(10 + index)Z"}"#)
        }
        return try lines.map(line)
    }

    static var dunReplay: String {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("dune-replay").path
    }

    @Test func twoWritersAReadOnlyStoreAndTheCommandLineShareOneLogAsOneWriterWould() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let first = try await DuneStore.open(at: path, options: .init(durability: .none))
            let second = try await DuneStore.open(at: path, options: .init(durability: .none))
            let reader = try await DuneStore.open(at: path, options: .init(access: .readOnly))
            var observed = reader.states.makeAsyncIterator()
            #expect(try await observed.next()?.throughSeq == 0)

            // The command line appends too, from another process, at the same time.
            let cliInput = directory + "/cli.jsonl"
            try (0..<20).map { Self.sample("cli-\($0)", day: 1 + $0, value: 70, source: "CLI") + "\n" }.joined()
                .write(toFile: cliInput, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.dunReplay)
            process.arguments = ["ingest", cliInput, "--log", path, "--wait"]
            process.standardOutput = FileHandle.nullDevice
            try process.run()

            async let firstOutcomes = Self.appendOneByOne(try Self.inputs(writer: 1), to: first)
            async let secondOutcomes = Self.appendOneByOne(try Self.inputs(writer: 2), to: second)
            let results = try await [(try Self.inputs(writer: 1), firstOutcomes), (try Self.inputs(writer: 2), secondOutcomes)]
            await Self.waitForExit(of: process)
            #expect(process.terminationStatus == 0)

            // Every store's state equals a rebuild of the log.
            let rebuilt = try await DuneStoreTests.rebuiltFiles(path)
            for store in [first, second, reader] {
                #expect(await DuneStoreTests.files(of: store) == rebuilt)
            }
            let lastSeq = try LogReader(path: path).events().count
            var seen = 0
            while seen < lastSeq, let state = try await observed.next() { seen = state.throughSeq }
            #expect(seen == lastSeq, "the read-only store followed every append")

            // Every decision is what a single writer decides given the same inputs in log order.
            let stored = try LogReader(path: path).events()
            var bySeq: [Int: StoreInput] = [:]
            var notAppended: [(StoreInput, AppendOutcome)] = []
            for (inputs, outcomes) in results {
                for (input, outcome) in zip(inputs, outcomes) {
                    if let seq = outcome.appendedSeq { bySeq[seq] = input } else { notAppended.append((input, outcome)) }
                }
            }
            let single = try EventLog(path: directory + "/single.jsonl")
            var singleEvents: [RecordedEvent] = []
            for event in stored {
                let input: IngestCommand
                if let typed = bySeq[event.seq] {
                    input = try typed.command()
                } else if case .sampleIngested(let sample) = event.payload, sample.source == "CLI" {
                    input = try InputParser.parse(cliLine(for: sample, in: cliInput))
                } else {
                    continue  // a superseding cancellation the task decider added: the next input brings it
                }
                let batch = try await single.ingest([input])
                singleEvents += batch.appended
            }
            #expect(singleEvents.map(\.seq) == stored.map(\.seq))
            #expect(singleEvents.map(\.payload) == stored.map(\.payload))
            for (input, outcome) in notAppended {
                let again = try await single.ingest([try input.command()])
                #expect(AppendOutcome(again.results[0]).isStored == outcome.isStored)
                #expect(again.appended.isEmpty)
            }
            await single.close()
            for store in [first, second, reader] { await store.close() }
        }
    }

    /// Waits for `process` to exit without holding a thread of the cooperative pool.
    static func waitForExit(of process: Process) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                process.waitUntilExit()
                continuation.resume()
            }
        }
    }

    /// Waits until `pipe` has carried `text`, or was closed without it (the
    /// process ended), reading on a thread of its own, never one of the
    /// cooperative pool.
    static func waitForOutput(_ text: String, on pipe: Pipe) async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var seen: [UInt8] = []
                while !String(decoding: seen, as: UTF8.self).contains(text) {
                    let chunk = pipe.fileHandleForReading.availableData  // blocks until bytes or the end
                    if chunk.isEmpty { break }
                    seen += chunk
                }
                continuation.resume()
            }
        }
    }

    static func appendOneByOne(_ inputs: [StoreInput], to store: DuneStore) async throws -> [AppendOutcome] {
        var outcomes: [AppendOutcome] = []
        for input in inputs { outcomes.append(try await store.append(input)) }
        return outcomes
    }

    @Test func aReadOnlyStoreBesideATornTailAndAStaleSnapshotChangesNothing() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let writer = try await DuneStore.open(at: path)
            for day in 1...5 { _ = try await writer.append(try Self.line(Self.sample("s\(day)", day: day, value: 50, source: "Watch"))) }
            await writer.close()  // writes a snapshot
            // A later append makes the snapshot stale, then a writer dies mid-line.
            let log = try EventLog(path: path)
            _ = try await log.ingest([try InputParser.parse(Self.sample("s6", day: 6, value: 51, source: "Watch"))])
            await log.close()
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(#"{"v":1,"seq":7,"id":"torn"#.utf8))
            try handle.close()
            let before = try Self.listing(directory)

            let reader = try await DuneStore.open(at: path, options: .init(access: .readOnly))
            #expect(await reader.state.throughSeq == 6)
            await #expect(throws: DuneEventsError.self) { try await reader.append(try Self.line(Self.sample("x", day: 7, value: 50, source: "W"))) }
            await #expect(throws: DuneEventsError.self) { try await reader.forget(sources: ["Watch"]) }
            await reader.close()
            #expect(try Self.listing(directory) == before, "no byte and no directory entry changed")
        }
    }

    /// Every name in `directory` with its bytes.
    static func listing(_ directory: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name))
        }
        return files
    }

    @Test func aReadOnlyStoreStartsEmptyBeforeTheLogExistsAndFollowsItOnceCreated() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let reader = try await DuneStore.open(at: path, options: .init(access: .readOnly))
            #expect(!FileManager.default.fileExists(atPath: path))
            var states = reader.states.makeAsyncIterator()
            #expect(try await states.next()?.throughSeq == 0)
            let writer = try await DuneStore.open(at: path)
            _ = try await writer.append(try Self.line(Self.sample("a", day: 1, value: 50, source: "Watch")))
            #expect(try await states.next()?.throughSeq == 1, "followed without a read")
            await writer.close()
            await reader.close()
            #expect(try await states.next() == nil, "close ends the observation")
        }
    }

    @Test func aStoreFollowsAForgetByAnotherWriterAndPublishes() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let app = try await DuneStore.open(at: path)
            _ = try await app.append([try Self.line(Self.sample("keep", day: 1, value: 50, source: "Watch")),
                                      try Self.line(Self.sample("drop", day: 2, value: 90, source: "Old Ring"))])
            var states = app.states.makeAsyncIterator()
            #expect(try await states.next()?.throughSeq == 2)
            let inode = LogFile.status(atPath: path)?.identity
            let other = try await DuneStore.open(at: path)
            _ = try await other.forget(sources: ["Old Ring"])
            await other.close()
            #expect(LogFile.status(atPath: path)?.identity != inode, "forget renamed a new log over the path")
            let followed = try await states.next()
            #expect(followed?.throughSeq == 3)
            #expect(await DuneStoreTests.files(of: app) == (try await DuneStoreTests.rebuiltFiles(path)))
            // The next append goes to the new log.
            #expect(try await app.append(try Self.line(Self.sample("new", day: 3, value: 55, source: "Watch"))) == .appended(seq: 4))
            await app.close()
        }
    }

    @Test func aWriteWaitingForTheLockEndsWithCancellation() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let store = try await DuneStore.open(at: path)
            let holder = try LogFile.openForAppend(path: path, create: false, lock: .deferred)
            #expect(try holder.tryLock())
            let input = try Self.line(Self.sample("a", day: 1, value: 50, source: "Watch"))
            let waiting = Task { try await store.append(input) }
            try await Task.sleep(for: .milliseconds(50))
            waiting.cancel()
            await #expect(throws: CancellationError.self) { try await waiting.value }
            holder.unlock()
            try holder.close()
            #expect(try await store.append(input) == .appended(seq: 1), "nothing of the cancelled write was appended")
            await store.close()
        }
    }

    @Test func everyStateHoldsTheFourModelsAtOneSeqAndTheFirstIsTheCurrentOne() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let store = try await DuneStore.open(at: path, options: .init(durability: .none))
            _ = try await store.append(try Self.line(Self.sample("first", day: 1, value: 50, source: "Watch")))
            var states = store.states.makeAsyncIterator()
            let current = try await states.next()
            #expect(current?.throughSeq == 1, "the first element is the state now, not the next change")
            let writing = Task {
                for index in 0..<60 {
                    _ = try await store.append([try Self.line(Self.sample("s\(index)", day: 1 + index % 28, value: 40 + Double(index), source: "Watch")),
                                                try Self.line(#"{"type":"refresh","source":"pullToRefresh","kind":"hrv","at":"2026-03-10T08:\#(index < 10 ? "0" : "")\#(index):00Z"}"#)])
                }
            }
            // Read while the appends run, until the last one is in.
            var mixed = 0
            var seqsRead: Set<Int> = []
            for _ in 0..<100_000 {
                let state = await store.state
                let seqs = [state.readiness.throughSeq, state.trends.throughSeq, state.weeklyStats.throughSeq,
                            state.syncStatus.throughSeq, state.throughSeq]
                if Set(seqs).count != 1 { mixed += 1 }
                seqsRead.insert(state.throughSeq)
                if state.throughSeq == 121 { break }
            }
            try await writing.value
            #expect(mixed == 0, "reads that saw the models at different seqs: \(mixed)")
            #expect(seqsRead.count > 2, "the reads ran while the appends did")
            var last = 0
            while last < 121, let state = try await states.next() {
                #expect(state.throughSeq > last)
                #expect(Set([state.readiness.throughSeq, state.trends.throughSeq, state.syncStatus.throughSeq]) == [state.throughSeq])
                last = state.throughSeq
            }
            #expect(last == 121)
            await store.close()
        }
    }

    @Test func observationsEndWhenTheStoreIsReleasedWithoutClose() async throws {
        try await DuneStoreTests.withDirectory { directory in
            var store: DuneStore? = try await DuneStore.open(at: directory + "/events.jsonl")
            var states = try #require(store).states.makeAsyncIterator()
            var updates = try #require(store).updates.makeAsyncIterator()
            #expect(try await states.next()?.throughSeq == 0)
            store = nil
            #expect(try await states.next() == nil)
            #expect(await updates.next() == nil)
        }
    }

    @Test(.timeLimit(.minutes(5)))  // only ends a test that would hang; the wait below is for the change itself
    func theObservableModelUpdatesUnderObservationTracking() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let store = try await DuneStore.open(at: path)
            _ = try await store.append(try Self.line(Self.sample("a", day: 1, value: 50, source: "Watch")))
            let model = await StoreStateModel(store: store)
            #expect(await model.state.throughSeq == 1, "it starts from the current state")
            let changed = Changed()
            await MainActor.run {
                withObservationTracking { _ = model.state } onChange: { changed.set() }
            }
            _ = try await store.append(try Self.line(Self.sample("b", day: 2, value: 51, source: "Watch")))
            await Self.waitUntil(model) { $0.throughSeq >= 2 }
            #expect(await model.state.throughSeq == 2)
            #expect(changed.isSet, "withObservationTracking saw the change")
            await store.close()
        }
    }
}

/// Set by an observation's `onChange`, read by the test.
final class Changed: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

/// The line of the command line's input file for `sample` (the file holds one line per id).
private func cliLine(for sample: Sample, in file: String) throws -> String {
    let text = try String(contentsOfFile: file, encoding: .utf8)
    return text.split(separator: "\n").first { $0.contains(#""id":"\#(sample.id)""#) }.map(String.init) ?? ""
}


/// Faults another process leaves: damage, a torn tail, a writer killed mid-batch.
@Suite struct StoreFaultTests {
    static func append(_ bytes: String, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(bytes.utf8))
        try handle.close()
    }

    /// The stored line of `input` as event `seq`, written by another log.
    static func storedLine(_ json: String, seq: Int, directory: String) async throws -> String {
        let scratch = directory + "/scratch-\(seq).jsonl"
        let log = try EventLog(path: scratch)
        for filler in 1..<seq {
            _ = try await log.ingest([try InputParser.parse(StoreSharingTests.sample("filler-\(filler)", day: 1, value: 50, source: "F"))])
        }
        _ = try await log.ingest([try InputParser.parse(json)])
        await log.close()
        let text = try String(contentsOfFile: scratch, encoding: .utf8)
        try FileManager.default.removeItem(atPath: scratch)
        return String(text.split(separator: "\n").last ?? "") + "\n"
    }

    @Test func damageFoundWhileFollowingEndsObservationsRefusesWritesAndKeepsTheLastGoodState() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let store = try await DuneStore.open(at: path)
            _ = try await store.append(try StoreSharingTests.line(StoreSharingTests.sample("a", day: 1, value: 50, source: "W")))
            var states = store.states.makeAsyncIterator()
            let first = try await states.next()
            #expect(first?.throughSeq == 1)
            // Line 1, acknowledged and synced, is damaged in place (one byte changed after its CRC was
            // taken), as bit rot or an edit would; another process then appends a whole line 2.
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let newline = try #require(bytes.firstIndex(of: UInt8(ascii: "\n")))
            let digit = newline - 3  // a hex digit of line 1's stored CRC
            bytes[digit] = bytes[digit] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
            try bytes.write(to: URL(fileURLWithPath: path))
            let second = try await Self.storedLine(StoreSharingTests.sample("b", day: 2, value: 51, source: "W"), seq: 2, directory: directory)
            try Self.append(second, to: path)

            await #expect(throws: DuneEventsError.self) { while try await states.next() != nil {} }
            await #expect { try await store.append(try StoreSharingTests.line(StoreSharingTests.sample("d", day: 4, value: 53, source: "W"))) }
                throws: { ($0 as? DuneEventsError)?.code == .closed }
            #expect(await store.state == first, "reads keep the last good state")
            await store.close()
        }
    }

    @Test func aReadWriteStoreMovesADeadWritersTornTailAsideAtItsNextWrite() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let store = try await DuneStore.open(at: path)
            _ = try await store.append(try StoreSharingTests.line(StoreSharingTests.sample("a", day: 1, value: 50, source: "W")))
            try Self.append(#"{"v":1,"seq":2,"id":"half-written"#, to: path)  // a writer killed mid-line
            #expect(await store.state.throughSeq == 1, "a torn tail is not read past the last newline")
            #expect(try await store.append(try StoreSharingTests.line(StoreSharingTests.sample("b", day: 2, value: 51, source: "W"))) == .appended(seq: 2))
            let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(names.contains { $0.hasPrefix("events.jsonl.torn-") })
            #expect(try LogReader(path: path).events().map(\.seq) == [1, 2])
            #expect(await DuneStoreTests.files(of: store) == (try await DuneStoreTests.rebuiltFiles(path)))
            #expect(await store.warnings.contains { $0.contains("torn") })
            await store.close()
        }
    }

    @Test(.timeLimit(.minutes(10)))  // only ends a test that would hang; the waits below are for events
    func killingTheCommandLineMidIngestLosesNothingTheStoreAcknowledged() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let input = directory + "/big.jsonl"
            try (0..<100_000).map { StoreSharingTests.sample("cli-\($0)", day: 1 + $0 % 28, value: 40 + Double($0 % 50), source: "CLI") + "\n" }
                .joined().write(toFile: input, atomically: true, encoding: .utf8)
            let store = try await DuneStore.open(at: path, options: .init(durability: .fsync))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: StoreSharingTests.dunReplay)
            process.arguments = ["ingest", input, "--log", path, "--wait"]
            // Paused (holding the lock) once its first batch is durable, so the kill lands mid-ingest in any build.
            process.environment = ProcessInfo.processInfo.environment.merging(["DUNE_INGEST_PAUSE_AFTER_DURABLE": "1"]) { $1 }
            let stderr = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = stderr
            try process.run()
            // Killed while it holds the lock mid-ingest: the store's appends wait for it, then go on.
            let pid = process.processIdentifier
            let killer = Task {
                await StoreSharingTests.waitForOutput("ingest: paused", on: stderr)
                _ = kill(pid, SIGKILL)
            }
            var acknowledged: [String] = []
            for index in 0..<60 {
                let id = "store-\(index)"
                if case .appended = try await store.append(try StoreSharingTests.line(StoreSharingTests.sample(id, day: 1 + index % 28, value: 60, source: "App"))) {
                    acknowledged.append(id)
                }
            }
            await killer.value
            await StoreSharingTests.waitForExit(of: process)
            #expect(process.terminationReason == .uncaughtSignal, "killed mid-ingest")
            #expect(acknowledged.count == 60)
            let stored = try LogReader(path: path).events()  // throws on damage: the log verifies
            let ids = Set(stored.compactMap { event -> String? in
                if case .sampleIngested(let sample) = event.payload { return sample.id }
                return nil
            })
            #expect(acknowledged.allSatisfy(ids.contains), "every acknowledged append is in the log")
            let fromCommandLine = ids.filter { $0.hasPrefix("cli-") }.count
            #expect(fromCommandLine > 0 && fromCommandLine < 100_000, "part of the command line's input is in the log: \(fromCommandLine)")
            #expect(stored.map(\.seq) == Array(1...stored.count))
            #expect(await DuneStoreTests.files(of: store) == (try await DuneStoreTests.rebuiltFiles(path)))
            await store.close()
        }
    }
}

/// An idle store does nothing: no state is yielded while nothing changes.
@Suite struct StoreIdleTests {
    @Test(.timeLimit(.minutes(5)), arguments: [DuneStore.Access.readWrite, .readOnly])
    func anIdleObservedStoreYieldsNoStateAfterTheCurrentOne(access: DuneStore.Access) async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let writer = try await DuneStore.open(at: path)
            for day in 1...5 { _ = try await writer.append(try StoreSharingTests.line(StoreSharingTests.sample("s\(day)", day: day, value: 50, source: "W"))) }
            await writer.close()  // leaves a snapshot
            let store = try await DuneStore.open(at: path, options: .init(access: access))
            let counter = Changed.Counter()
            let (arrivals, arrived) = AsyncStream.makeStream(of: Void.self)
            let observing = Task {
                for try await _ in store.states {
                    counter.add()
                    arrived.yield()
                }
            }
            // The current state first (however slow a loaded machine is to deliver it), then an idle while.
            for await _ in arrivals { break }
            #expect(counter.value == 1, "the current state arrives")
            try await Task.sleep(for: .milliseconds(1500))
            #expect(counter.value == 1, "only the current state, nothing while idle")
            observing.cancel()
            await store.close()
        }
    }
}

extension Changed {
    /// Counts the states an observation received.
    final class Counter: Sendable {
        private let count = Mutex(0)
        var value: Int { count.withLock { $0 } }
        func add() { count.withLock { $0 += 1 } }
    }
}
