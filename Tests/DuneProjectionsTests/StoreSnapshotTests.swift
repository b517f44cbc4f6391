import Foundation
import Testing
import DuneEvents
import DuneTools
import DuneFixtures
@testable import DuneProjections

/// `DuneStore` with `<log>.snapshot`: it starts from a valid snapshot plus the
/// events after it, ignores a bad one with one warning, and never changes a value.
@Suite struct StoreSnapshotTests {
    static let inputs: [StoreInput] = SyntheticHealthData(days: 45, seed: 5).lines()
        .compactMap { try? InputParser.parse($0) }.compactMap(DuneStoreTests.storeInput)

    /// A log of `inputs` written by a store (which leaves a snapshot when it closes).
    static func makeLog(_ path: String, _ inputs: ArraySlice<StoreInput>) async throws {
        let store = try await DuneStore.open(at: path)
        for start in stride(from: inputs.startIndex, to: inputs.endIndex, by: 500) {
            _ = try await store.append(Array(inputs[start..<min(inputs.endIndex, start + 500)]))
        }
        await store.close()
    }

    /// Appends `inputs` as another process would: straight to the log, no snapshot.
    static func appendWithoutSnapshot(_ path: String, _ inputs: ArraySlice<StoreInput>) async throws {
        let store = try await DuneStore.open(at: path, options: DuneStore.Options(keepsSnapshots: false))
        _ = try await store.append(Array(inputs))
        await store.close()
    }

    @Test(arguments: [0.05, 0.5, 0.95, 1.0])
    func aSnapshotPlusTheLaterEventsEqualsARebuild(cut: Double) async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let inputs = Self.inputs
            let cutIndex = Int(Double(inputs.count) * cut)
            try await Self.makeLog(path, inputs[..<cutIndex])
            #expect(FileManager.default.fileExists(atPath: SnapshotFile.path(forLog: path)))
            try await Self.appendWithoutSnapshot(path, inputs[cutIndex...])

            let store = try await DuneStore.open(at: path)
            #expect(await store.warnings == [])
            #expect(await store.snapshotSeq > 0, "the store started from the snapshot")
            let rebuilt = try await DuneStoreTests.rebuiltFiles(path)
            #expect(await DuneStoreTests.files(of: store) == rebuilt)
            // Appending on top of a restored state still folds like a rebuild.
            _ = try await store.append(DuneStoreTests.hrv("after-snapshot", "2026-03-01T06:00:00+01:00", 47))
            let rebuiltAfter = try await DuneStoreTests.rebuiltFiles(path)
            #expect(await DuneStoreTests.files(of: store) == rebuiltAfter)
            await store.close()
        }
    }

    enum Damage: String, CaseIterable, Sendable {
        case flippedByte, flippedHeader, flippedMeta, truncated, oldFormat, foreign, stale, logRewritten
    }

    @Test(arguments: Damage.allCases)
    func aBadSnapshotIsIgnoredWithOneWarningAndTheLogReplayed(damage: Damage) async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            let snapshotPath = SnapshotFile.path(forLog: path)
            try await Self.makeLog(path, Self.inputs[...])
            var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: snapshotPath)))
            switch damage {
            case .flippedByte:
                // In the daily stage, which the open reads (damage in the sections read later: MappedSnapshotTests).
                bytes[ProjectionSnapshotTests.sectionStarts(bytes)[1] + 40] ^= 0x20
            case .flippedHeader:
                bytes[30] ^= 0x01
            case .flippedMeta:
                bytes[SnapshotFile.headerLength + 40] ^= 0x08
            case .oldFormat:
                // A snapshot of format version 1 (before sections): only its version is read.
                bytes = Array(bytes.prefix(12))
                bytes[8] = 1
            case .truncated:
                // What a process killed while writing would leave, were the file not renamed into place whole.
                bytes.removeLast(bytes.count / 3)
            case .foreign:
                // Another log's snapshot, copied beside this one.
                let other = directory + "/other.jsonl"
                try await Self.makeLog(other, Self.inputs[...])
                bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: SnapshotFile.path(forLog: other))))
            case .stale:
                // Written by code whose readiness fold had another version.
                let file = try #require(MappedFile(snapshotPath))
                let (snapshot, stamp) = try #require(try? SnapshotFile.read(file, stampMismatch: { _ in nil }).get())
                var versions = ProjectionSnapshot.foldVersions
                versions[0] &+= 1
                bytes = SnapshotFile.encoded(snapshot, at: stamp, foldVersions: versions)
            case .logRewritten:
                // The log replaced by a copy of itself (a restore from a backup): same bytes, another file.
                let copy = directory + "/copy.jsonl"
                try FileManager.default.copyItem(atPath: path, toPath: copy)
                try FileManager.default.removeItem(atPath: path)
                try FileManager.default.moveItem(atPath: copy, toPath: path)
            }
            try Data(bytes).write(to: URL(fileURLWithPath: snapshotPath), options: .atomic)

            let store = try await DuneStore.open(at: path)
            let warnings = await store.warnings
            #expect(warnings.count == 1, "\(warnings)")
            #expect(warnings.first?.hasPrefix("warning: \(snapshotPath): not used (") == true, "\(warnings)")
            #expect(warnings.first?.hasSuffix("; the log is replayed in full") == true)
            #expect(await store.snapshotSeq == 0)
            let rebuilt = try await DuneStoreTests.rebuiltFiles(path)
            #expect(await DuneStoreTests.files(of: store) == rebuilt)
            await store.close()
            // Closing wrote a good snapshot again: the next open uses it.
            let again = try await DuneStore.open(at: path)
            #expect(await again.warnings == [])
            #expect(await again.snapshotSeq > 0)
            await again.close()
        }
    }

    @Test func theFirstAppendAfterAnOpenFromTheSnapshotDecidesAsALogOpenedForAppending() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            try await Self.makeLog(path, Self.inputs[...])
            // Re-appends of stored inputs, a new sample, and the new sample again in the same call.
            let fresh = DuneStoreTests.hrv("deferred-1", "2026-03-02T06:00:00+01:00", 51)
            let probe = Array(Self.inputs[0..<3]) + Array(Self.inputs.suffix(3)) + [fresh, fresh]
            // What a log that rebuilt its deciders' state on open decides, on a copy of the log.
            let copy = directory + "/copy.jsonl"
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            let eager = try EventLog(path: copy)
            let probed = try await eager.ingest(probe.map { try $0.command() })
            let expected = probed.results.map { AppendOutcome($0, appended: probed.appended) }
            await eager.close()

            let store = try await DuneStore.open(at: path)
            #expect(await store.snapshotSeq > 0)
            #expect(await store.decidersAreLoaded == false, "opening to read does not rebuild the deciders' state")
            _ = await store.readiness
            #expect(await store.decidersAreLoaded == false)
            let outcomes = try await store.append(probe)
            #expect(await store.decidersAreLoaded)
            #expect(outcomes == expected)
            #expect(outcomes.filter { $0 == .alreadyAppended }.count == 7)
            #expect(await DuneStoreTests.files(of: store) == (try await DuneStoreTests.rebuiltFiles(path)))
            await store.close()
        }
    }

    @Test func aStoreWithoutSnapshotsNeitherReadsNorWritesOne() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            try await Self.appendWithoutSnapshot(path, Self.inputs[...])
            #expect(!FileManager.default.fileExists(atPath: SnapshotFile.path(forLog: path)))
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)
            try await Self.makeLog(directory + "/kept.jsonl", Self.inputs[..<10])
            let snapshotMode = try FileManager.default.attributesOfItem(atPath: SnapshotFile.path(forLog: directory + "/kept.jsonl"))[.posixPermissions] as? Int
            #expect(snapshotMode == 0o600)
        }
    }
}
