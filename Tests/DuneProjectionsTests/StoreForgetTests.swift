import Foundation
import Testing
import DuneEvents
import DuneTools
import DuneFixtures
@testable import DuneProjections

/// `DuneStore.forget` on an open store: the same rewrite as the command line,
/// under the store's own lock.
@Suite struct StoreForgetTests {
    static let sentinel = "ZqStoreSentinel"

    static func inputs(withSentinel: Bool) -> [StoreInput] {
        let lines = SyntheticHealthData(days: 20, seed: 5).lines()
        var inputs = lines.compactMap { try? InputParser.parse($0) }.compactMap(DuneStoreTests.storeInput)
        guard withSentinel else { return inputs }
        let start = DuneStoreTests.time("2026-01-05T06:30:00+01:00")
        inputs.insert(.sample(SampleInput(id: "SENT-1", start: start, end: start.adding(seconds: 60), source: sentinel,
                                          reading: .hrv(77.123456, .milliseconds))), at: inputs.count / 2)
        inputs.insert(.sample(SampleInput(id: "SENT-2", start: start, end: start.adding(seconds: 60),
                                          source: sentinel, reading: .restingHeartRate(61, .beatsPerMinute))), at: inputs.count / 3)
        return inputs
    }

    static func withoutThroughSeq(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: #""throughSeq":[0-9]+"#, with: "", options: .regularExpression)
    }

    @Test func forgetAsTheFirstCallAfterOpeningRebuildsTheDeferredDecidersFirst() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let all = Self.inputs(withSentinel: true)
            let seed = try await DuneStore.open(at: path)
            _ = try await seed.append(all)
            await seed.close()

            let store = try await DuneStore.open(at: path)
            #expect(await store.decidersAreLoaded == false)
            let outcome = try await store.forget(sources: [Self.sentinel])
            #expect(outcome.sampleIDs == ["SENT-1", "SENT-2"] && outcome.redactedEvents == 2)
            // Every input again, the forgotten ones included: all already appended.
            let again = try await store.append(all)
            #expect(again.allSatisfy { $0 == .alreadyAppended })
            #expect(await DuneStoreTests.files(of: store) == (try await DuneStoreTests.rebuiltFiles(path)))
            await store.close()
        }
    }

    @Test func forgetOnAnOpenStoreErasesTheSamplesAndPublishesAnUpdate() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let store = try await DuneStore.open(at: path)
            let all = Self.inputs(withSentinel: true)
            _ = try await store.append(all)

            let dry = try await store.forget(sources: [Self.sentinel], dryRun: true)
            #expect(dry.sampleIDs == ["SENT-1", "SENT-2"] && dry.dryRun && dry.changedModels.isEmpty)

            var updates = store.updates.makeAsyncIterator()
            let outcome = try await store.forget(sources: [Self.sentinel])
            #expect(outcome.sampleIDs == ["SENT-1", "SENT-2"])
            #expect(outcome.redactedEvents == 2)
            let update = await updates.next()
            #expect(update?.throughSeq == (await store.throughSeq))
            #expect(update?.changedModels.contains(.trends) == true)
            #expect(update?.changedModels.contains(.syncStatus) == false)

            // Nothing of the sentinel remains beside the log; appending it again is refused as forgotten.
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)), as: UTF8.self)
                #expect(!text.contains(Self.sentinel) && !text.contains("77.123456"), "\(name)")
            }
            let again = try await store.append(all.filter {
                if case .sample(let sample, _) = $0 { return sample.source == Self.sentinel }
                return false
            })
            #expect(again == [.alreadyAppended, .alreadyAppended])

            // The read models equal those of a log that never held the sentinel samples.
            let clean = try await DuneStore.open(at: directory + "/clean.jsonl")
            _ = try await clean.append(Self.inputs(withSentinel: false))
            for (forgotten, never) in zip(await DuneStoreTests.files(of: store), await DuneStoreTests.files(of: clean)) {
                #expect(Self.withoutThroughSeq(forgotten.bytes) == Self.withoutThroughSeq(never.bytes), "\(forgotten.projection)")
            }
            await clean.close()
            await store.close()

            // A fresh open agrees (forgotten ids come back from the new log).
            let reopened = try await DuneStore.open(at: path)
            #expect(try await reopened.append(all.filter {
                if case .sample(let sample, _) = $0 { return sample.id == "SENT-1" }
                return false
            }) == [.alreadyAppended])
            await reopened.close()
        }
    }

    /// A failure after the rename (the journal cannot be removed: a directory
    /// took its place) leaves the new log at the path: the store closes, its
    /// read models no longer show the forgotten samples, and it refuses appends
    /// instead of writing them into the replaced file.
    @Test func aFailureAfterTheRenameClosesTheStoreWithModelsOfTheNewLog() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let store = try await DuneStore.open(at: path)
            _ = try await store.append(Self.inputs(withSentinel: true))
            let journal = LogEraser.journalPath(forLog: path)
            var selection = ForgetSelection()
            selection.sources = [Self.sentinel]
            await #expect(throws: DuneEventsError.self) {
                try await store.forget(selection, dryRun: false) { step in
                    guard step == .renamed else { return }
                    try? FileManager.default.removeItem(atPath: journal)
                    try? FileManager.default.createDirectory(atPath: journal + "/blocked", withIntermediateDirectories: true)
                }
            }
            let late = SampleInput(id: "LATE-1", start: DuneStoreTests.time("2026-01-06T06:30:00+01:00"),
                                   end: DuneStoreTests.time("2026-01-06T06:31:00+01:00"), source: "Watch",
                                   reading: .hrv(50, .milliseconds))
            await #expect(throws: DuneEventsError.self) { try await store.append([.sample(late)]) }
            try FileManager.default.removeItem(atPath: journal)
            #expect(await DuneStoreTests.files(of: store) == (try await DuneStoreTests.rebuiltFiles(path)))
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!text.contains(Self.sentinel) && !text.contains("LATE-1"))
        }
    }
}
