import Foundation
import Testing
import DuneEvents
import DuneTools
@testable import DuneProjections

/// A store restored from a mapped `<log>.snapshot`: its state equals a replay
/// value for value; damage found at the open falls back to a replay with one
/// warning; damage found later — in the samples read when the first fold or
/// query needs them, or in the id index read when the first fold needs it —
/// ends observations with an error and publishes nothing wrong.
@Suite struct MappedSnapshotTests {
    /// Makes the test log at `path` with its snapshot, then flips a bit in the snapshot's id index
    /// (its last section), replacing the file by rename as every writer does.
    /// - Returns: The snapshot's path.
    static func makeLogWithADamagedIndex(_ path: String) async throws -> String {
        try await makeLogWithADamagedSection(path) { bytes in bytes.count - 3 }
    }

    /// Makes the test log at `path` with its snapshot, then flips a bit at the
    /// offset `place` gives for the snapshot's bytes, replacing the file by rename.
    /// - Returns: The snapshot's path.
    static func makeLogWithADamagedSection(_ path: String, at place: ([UInt8]) -> Int) async throws -> String {
        try await StoreSnapshotTests.makeLog(path, StoreSnapshotTests.inputs[...])
        let snapshotPath = SnapshotFile.path(forLog: path)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: snapshotPath)))
        bytes[place(bytes)] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: snapshotPath), options: .atomic)
        return snapshotPath
    }

    /// The state of the log at `path` replayed in full (no snapshot read or written).
    static func replayedState(_ path: String) async throws -> StoreState {
        let store = try await DuneStore.open(at: path, options: DuneStore.Options(keepsSnapshots: false, access: .readOnly))
        defer { Task { await store.close() } }
        return await store.state
    }

    /// A log of most of the inputs with a snapshot, then the rest appended without one: its bytes and where its sections start.
    static func logWithSnapshotAndTail(_ path: String) async throws -> (bytes: [UInt8], indexStart: Int) {
        let inputs = StoreSnapshotTests.inputs
        let cut = inputs.count * 9 / 10
        try await StoreSnapshotTests.makeLog(path, inputs[..<cut])
        try await StoreSnapshotTests.appendWithoutSnapshot(path, inputs[cut...])
        let snapshotPath = SnapshotFile.path(forLog: path)
        let file = try #require(MappedFile(snapshotPath))
        let snapshot = try #require(try? SnapshotFile.read(file, stampMismatch: { _ in nil }).get().0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: snapshotPath)))
        return (bytes, bytes.count - snapshot.index.capacity * 8)
    }

    @Test func aStateRestoredFromAMappedSnapshotEqualsAReplayValueForValue() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            try await StoreSnapshotTests.makeLog(path, StoreSnapshotTests.inputs[...])
            let replayed = try await Self.replayedState(path)
            for access in [DuneStore.Access.readOnly, .readWrite] {
                let store = try await DuneStore.open(at: path, options: DuneStore.Options(access: access))
                #expect(await store.warnings == [])
                #expect(await store.snapshotSeq == replayed.throughSeq, "the store started from the snapshot, nothing after it")
                #expect(await store.state == replayed)
                // The query reads the restored rows; the id index is still in the mapping, unread.
                let days = try #require(replayed.readiness.days.first?.date)...(replayed.readiness.days.last?.date ?? .init(ordinal: 0))
                #expect(await store.samples(of: .hrv, in: days).samples.count > 0)
                await store.close()
            }
        }
    }

    /// Every place of the file, damaged or cut, with events after the snapshot (so that the open reads every section).
    @Test func aDamagedOrTruncatedSnapshotAtTwentyOffsetsFallsBackToAReplayWithAWarning() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let snapshotPath = SnapshotFile.path(forLog: path)
            let (bytes, indexStart) = try await Self.logWithSnapshotAndTail(path)
            let replayed = try await Self.replayedState(path)
            // 20 offsets over the whole file, the index section's first and last bytes among them.
            let offsets = (0..<18).map { $0 * (bytes.count - 2) / 17 } + [indexStart, bytes.count - 1]
            #expect(Set(offsets).count == 20)
            for offset in offsets {
                for damaged in [{ var flipped = bytes; flipped[offset] ^= 0x10; return flipped }(), Array(bytes.prefix(offset))] {
                    try Data(damaged).write(to: URL(fileURLWithPath: snapshotPath), options: .atomic)
                    let store = try await DuneStore.open(at: path, options: DuneStore.Options(access: .readOnly))
                    let warnings = await store.warnings
                    #expect(warnings.count == 1 && warnings.first?.hasPrefix("warning: \(snapshotPath): not used (") == true,
                            "offset \(offset) of \(bytes.count), \(damaged.count) bytes: \(warnings)")
                    #expect(await store.snapshotSeq == 0)
                    #expect(await store.state == replayed)
                    await store.close()
                }
            }
        }
    }

    @Test func damageFoundInTheIndexAfterAStateWasPublishedEndsObservationsWithAnError() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let snapshotPath = try await Self.makeLogWithADamagedIndex(path)
            let replayed = try await Self.replayedState(path)  // replayed without reading the snapshot

            let store = try await DuneStore.open(at: path)
            // Nothing at the open reads the index: the state is published from the rows, and it is right.
            #expect(await store.warnings == [])
            #expect(await store.snapshotSeq > 0)
            var observation = store.states.makeAsyncIterator()
            #expect(try await observation.next() == replayed)
            // The first fold needs the index, finds it damaged, and folds nothing.
            let outcome = try await store.append(DuneStoreTests.hrv("after-damage", "2026-03-01T06:00:00+01:00", 47))
            #expect(outcome.isStored, "the append itself is durable")
            do {
                _ = try await observation.next()
                Issue.record("the observation went on after the damage")
            } catch let error as DuneEventsError {
                #expect(error.code == .corruptLog && error.message.contains("id index"), "\(error)")
            }
            #expect(await store.state == replayed, "reads keep the last good state")
            await store.close()
            // The damaged cache is gone: the next open replays the log, the new sample included.
            #expect(!FileManager.default.fileExists(atPath: snapshotPath))
            let again = try await DuneStore.open(at: path, options: DuneStore.Options(access: .readOnly))
            #expect(await again.state == (try await Self.replayedState(path)))
            #expect(await again.state.throughSeq == replayed.throughSeq + 1)
            await again.close()
        }
    }

    /// The open reads only the meta and the daily stage: damaged rows are found by the first query,
    /// which still answers right (from the log), and the store then ends its observations with the error.
    @Test func damageFoundInTheRowsByAQueryEndsObservationsAndTheAnswerIsStillRight() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let snapshotPath = try await Self.makeLogWithADamagedSection(path) { bytes in
                ProjectionSnapshotTests.sectionStarts(bytes)[3] + 64 * 3 + 24  // a value in the fourth row
            }
            let replayedStore = try await DuneStore.open(at: path, options: DuneStore.Options(keepsSnapshots: false, access: .readOnly))
            let replayed = await replayedStore.state
            let days = try #require(replayed.readiness.days.first?.date)...(replayed.readiness.days.last?.date ?? .init(ordinal: 0))
            let expected = await replayedStore.samples(of: .hrv, in: days)
            await replayedStore.close()
            #expect(expected.samples.count > 3)

            let store = try await DuneStore.open(at: path)
            #expect(await store.warnings == [])
            #expect(await store.snapshotSeq > 0)
            var observation = store.states.makeAsyncIterator()
            #expect(try await observation.next() == replayed, "the first state comes from the stage, and it is right")
            #expect(await store.samples(of: .hrv, in: days) == expected, "the query is answered from the log")
            do {
                _ = try await observation.next()
                Issue.record("the observation went on after the damage")
            } catch let error as DuneEventsError {
                #expect(error.code == .corruptLog && error.message.contains("the samples"), "\(error)")
            }
            #expect(await store.state == replayed, "reads keep the last good state")
            await store.close()
            #expect(!FileManager.default.fileExists(atPath: snapshotPath), "a read-write store removes the damaged cache")
        }
    }

    @Test func aReadOnlyStoreThatMeetsADamagedIndexRemovesNoFile() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let snapshotPath = try await Self.makeLogWithADamagedIndex(path)

            let widget = try await DuneStore.open(at: path, options: DuneStore.Options(access: .readOnly))
            var observation = widget.states.makeAsyncIterator()
            _ = try await observation.next()
            // Another process appends (without snapshots, so it never reads the damaged file):
            // the widget's catch-up needs the index and ends its observation.
            let writer = try await DuneStore.open(at: path, options: DuneStore.Options(keepsSnapshots: false))
            _ = try await writer.append(DuneStoreTests.hrv("from-the-app", "2026-03-01T06:00:00+01:00", 47))
            await writer.close()
            do {
                while try await observation.next() != nil {}
                Issue.record("the observation ended without an error")
            } catch let error as DuneEventsError {
                #expect(error.code == .corruptLog && error.message.contains("id index"), "\(error)")
            }
            await widget.close()
            #expect(FileManager.default.fileExists(atPath: snapshotPath), "a read-only store never removes a file")
        }
    }
}
