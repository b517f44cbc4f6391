import Foundation
import Synchronization
import Testing
import DuneEvents
@testable import DuneProjections

/// App-defined projections (SPEC §13): folded with the built-in read models,
/// snapshotted with them under their own version, and isolated from them.
@Suite struct AppProjectionTests {
    /// How many events each projection's fold was called with, by name.
    final class FoldCounter: Sendable {
        private let counts = Mutex<[String: Int]>([:])
        func count(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }
        subscript(name: String) -> Int { counts.withLock { $0[name] ?? 0 } }
    }

    /// The current HRV samples: their count and sum, kept through corrections and deletions.
    struct HRVTotals: Codable, Sendable, Equatable {
        var samples = 0
        var sum = 0.0
    }

    static func hrvTotals(version: Int = 1, name: String = "hrvTotals", counter: FoldCounter) -> AppProjection<HRVTotals> {
        AppProjection(name: name, version: version, initial: HRVTotals()) { model, event in
            counter.count(name)
            func add(_ sample: Sample, _ sign: Int) {
                guard sample.kind == .hrv, let value = sample.quantity?.value else { return }
                model.samples += sign
                model.sum += Double(sign) * value
            }
            switch event.change {
            case .sampleAdded(let sample): add(sample, 1)
            case .sampleCorrected(let old, let new): add(old, -1); add(new, 1)
            case .sampleDeleted(let sample): add(sample, -1)
            case .refresh, .task, .profileUpdated: break
            }
        }
    }

    /// Refreshes by decision, as the events present them.
    static func refreshes(counter: FoldCounter) -> AppProjection<[String]> {
        AppProjection(name: "refreshes", version: 1, initial: []) { model, event in
            counter.count("refreshes")
            if case .refresh(let request, let decision) = event.change { model.append("\(request.source) \(decision)") }
        }
    }

    struct Refused: Error, CustomStringConvertible {
        var description: String { "a workout is not allowed here" }
    }

    static func options(_ projections: [AppProjection<HRVTotals>], _ extra: AppProjection<[String]>? = nil) -> DuneStore.Options {
        var options = DuneStore.Options()
        for projection in projections { options.register(projection) }
        if let extra { options.register(extra) }
        return options
    }

    static let inputs: [StoreInput] = [
        DuneStoreTests.hrv("a", "2026-03-02T06:00:00Z", 40),
        DuneStoreTests.hrv("b", "2026-03-03T06:00:00Z", 50),
        DuneStoreTests.hrv("a", "2026-03-02T06:00:00Z", 44),   // a correction
        .sampleDeletion(SampleDeletion(sampleID: "b", at: DuneStoreTests.time("2026-03-04T06:00:00Z"))),
        DuneStoreTests.hrv("c", "2026-03-04T06:00:00Z", 60),
        .refresh(RefreshRequest(source: .foreground, kind: nil, at: DuneStoreTests.time("2026-03-04T08:00:00Z"))),
        .refresh(RefreshRequest(source: .foreground, kind: nil, at: DuneStoreTests.time("2026-03-04T08:00:10Z"))),
    ]

    @Test func anAppProjectionFoldsTheEventsAsTheEnginePresentsThem() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let counter = FoldCounter()
            let totals = Self.hrvTotals(counter: counter)
            let refreshes = Self.refreshes(counter: counter)
            let store = try await DuneStore.open(at: directory + "/events.jsonl", options: Self.options([totals], refreshes))
            _ = try await store.append(Self.inputs)
            let state = await store.state
            #expect(try state.model(of: totals) == HRVTotals(samples: 2, sum: 104))
            #expect(try state.model(of: refreshes) == ["foreground performed(refreshSignal: 1)",
                                                      "foreground throttled(reason: DuneEvents.ThrottleReason.coordinatorThrottle)"])
            #expect(counter["hrvTotals"] == 7)
            // Not registered: a clear error.
            let other = Self.hrvTotals(name: "other", counter: counter)
            #expect(throws: AppProjectionError.self) { try state.model(of: other) }
            await store.close()
        }
    }

    @Test func anAppProjectionSurvivesASnapshotRoundTrip() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let counter = FoldCounter()
            let totals = Self.hrvTotals(counter: counter)
            let store = try await DuneStore.open(at: path, options: Self.options([totals]))
            _ = try await store.append(Self.inputs)
            let before = try await store.state.model(of: totals)
            await store.close()   // writes the snapshot
            #expect(FileManager.default.fileExists(atPath: path + ".snapshot"))
            let foldedBefore = counter["hrvTotals"]
            let again = try await DuneStore.open(at: path, options: Self.options([totals]))
            #expect(await again.snapshotSeq == Self.inputs.count)
            #expect(try await again.state.model(of: totals) == before)
            #expect(counter["hrvTotals"] == foldedBefore, "restored, not refolded")
            #expect(await again.warnings == [])
            // And it goes on folding from where the snapshot left it.
            _ = try await again.append(DuneStoreTests.hrv("d", "2026-03-05T06:00:00Z", 30))
            #expect(try await again.state.model(of: totals) == HRVTotals(samples: 3, sum: 134))
            await again.close()
        }
    }

    @Test func aVersionBumpRefoldsOnlyThatProjection() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let counter = FoldCounter()
            let store = try await DuneStore.open(at: path, options: Self.options([
                Self.hrvTotals(name: "kept", counter: counter), Self.hrvTotals(name: "bumped", counter: counter),
            ]))
            _ = try await store.append(Self.inputs)
            await store.close()
            #expect(counter["kept"] == 7 && counter["bumped"] == 7)
            let bumped = Self.hrvTotals(version: 2, name: "bumped", counter: counter)
            let kept = Self.hrvTotals(name: "kept", counter: counter)
            let again = try await DuneStore.open(at: path, options: Self.options([kept, bumped]))
            #expect(await again.snapshotSeq == Self.inputs.count, "the snapshot is used")
            #expect(counter["kept"] == 7, "restored from the snapshot: no event folded")
            #expect(counter["bumped"] == 14, "refolded from the log: every event once more")
            let state = await again.state
            #expect(try state.model(of: bumped) == state.model(of: kept))
            await again.close()
        }
    }

    @Test func aProjectionNoLongerRegisteredIsDroppedWithAWarning() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let counter = FoldCounter()
            let gone = Self.hrvTotals(name: "gone", counter: counter)
            let kept = Self.hrvTotals(name: "kept", counter: counter)
            let store = try await DuneStore.open(at: path, options: Self.options([kept, gone]))
            _ = try await store.append(Self.inputs)
            await store.close()
            let again = try await DuneStore.open(at: path, options: Self.options([kept]))
            #expect(await again.warnings == ["warning: the snapshot's read model 'gone' (version 1) is not registered: dropped from the snapshot"])
            #expect(try await again.state.model(of: kept) == HRVTotals(samples: 2, sum: 104))
            _ = try await again.append(DuneStoreTests.hrv("d", "2026-03-05T06:00:00Z", 30))
            await again.close()   // a new snapshot, without it
            let third = try await DuneStore.open(at: path, options: Self.options([kept]))
            #expect(await third.warnings == [])
            await third.close()
        }
    }

    @Test func aFailingProjectionLeavesTheOthersIntact() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let counter = FoldCounter()
            let failing = AppProjection(name: "failing", version: 1, initial: HRVTotals()) { model, event in
                counter.count("failing")
                if case .sampleAdded(let sample) = event.change, sample.kind == .hrv, sample.quantity?.value == 50 { throw Refused() }
                model.samples += 1
            }
            let totals = Self.hrvTotals(counter: counter)
            var options = Self.options([totals])
            options.register(failing)
            let store = try await DuneStore.open(at: path, options: options)
            _ = try await store.append(Self.inputs)
            let state = await store.state
            #expect(try state.model(of: totals) == HRVTotals(samples: 2, sum: 104))
            #expect(state.readiness.days.map(\.date.description) == ["2026-03-02", "2026-03-04"] && state.throughSeq == 7)
            do throws(AppProjectionError) {
                _ = try state.model(of: failing)
                Issue.record("expected the failing projection to throw")
            } catch {
                #expect(error.seq == 2)
                #expect(error.message.hasPrefix("its fold threw at seq 2: a workout is not allowed here"))
            }
            #expect(counter["failing"] == 2, "nothing folded after the failure")
            // The failure is kept in the snapshot: reopening does not fold it again.
            await store.close()
            let again = try await DuneStore.open(at: path, options: options)
            let reopened = await again.state
            #expect(throws: AppProjectionError.self) { try reopened.model(of: failing) }
            #expect(counter["failing"] == 2)
            #expect(try await again.state.model(of: totals) == HRVTotals(samples: 2, sum: 104))
            await again.close()
        }
    }
}
