import Foundation
import Testing
import DuneEvents
import DuneFixtures
@testable import DuneProjections

/// A snapshot restores the projections exactly: restored + the rest of the
/// log gives the bytes of a from-scratch rebuild, at any cut point.
@Suite struct ProjectionSnapshotTests {
    /// A varied log as a log file holds it: every event through the line codec and back.
    static let events: [RecordedEvent] = ((try? SyntheticLog.make(days: 150)) ?? []).compactMap { event in
        try? EventCodec.encodeLine(event).withUnsafeBytes { try EventCodec.decode($0) }
    }

    static func files(_ states: StoreProjectionStates) -> [ReadModelFile] {
        [states.readiness.file(), states.trends.file(), states.weeklyStats.file(), states.syncStatus.file()]
    }

    static func folded(_ events: some Sequence<RecordedEvent>) -> StoreProjectionStates {
        StoreProjectionStates(readiness: ReadinessProjection(replaying: events), trends: TrendsProjection(replaying: events),
                              weeklyStats: WeeklyStatsProjection(replaying: events), syncStatus: SyncStatusProjection(replaying: events))
    }

    static func roundTrip(_ snapshot: ProjectionSnapshot) -> ProjectionSnapshot? {
        var writer = BinaryWriter()
        snapshot.write(to: &writer)
        var reader = BinaryReader(writer.bytes, from: 0)
        let decoded = ProjectionSnapshot(from: &reader)
        return reader.isAtEnd ? decoded : nil
    }

    /// Cut points as fractions of the log (0: after its first event; 1: at its end).
    @Test(arguments: [0.0, 0.001, 0.3, 0.5, 0.77, 0.999, 1.0])
    func snapshotPlusTailEqualsARebuild(cut: Double) async throws {
        let events = Self.events
        #expect(events.count > 2_000)
        let cutSeq = max(1, Int(Double(events.count) * cut))
        let before = Self.folded(events.prefix(cutSeq))
        let snapshot = try #require(Self.roundTrip(ProjectionSnapshot(readiness: before.readiness, syncStatus: before.syncStatus)))
        var restored = await snapshot.restore()
        // The restored state reads exactly as the state it was taken from …
        #expect(Self.files(restored) == Self.files(before))
        #expect(restored.readiness.samples == before.readiness.samples)
        #expect(restored.weeklyStats.samples == before.weeklyStats.samples)
        // … and folding the rest of the log on top gives a from-scratch rebuild, byte for byte.
        let tail = EventBatch(events.dropFirst(cutSeq))
        restored.readiness.apply(tail)
        restored.trends.apply(tail)
        restored.weeklyStats.apply(tail)
        restored.syncStatus.apply(tail)
        #expect(Self.files(restored) == Self.files(Self.folded(events)))
    }

    @Test func theSnapshotKeepsOnlyCurrentSamples() throws {
        var log = LogBuilder()
        try log.quantity(.hrv, id: "a", start: "2026-03-01T06:00:00Z", value: 40)
        try log.quantity(.hrv, id: "b", start: "2026-03-01T07:00:00+01:00", value: 41)
        try log.quantity(.hrv, id: "a", start: "2026-03-02T06:00:00Z", value: 42)  // a correction moves "a" a day on
        _ = try log.delete(id: "b")
        try log.workout(id: "w", "running", from: "2026-03-02T17:00:00Z", to: "2026-03-02T17:45:00Z", energyKcal: 400,
                        distanceMeters: 8000, volumeKg: nil)
        let states = Self.folded(log.events)
        let snapshot = try #require(Self.roundTrip(ProjectionSnapshot(readiness: states.readiness, syncStatus: states.syncStatus)))
        #expect(snapshot.samples.rows.map(\.seq) == [3, 5])
        #expect(snapshot.samples.sample(at: 0).quantity?.value == 42)
        #expect(snapshot.samples.sample(at: 1).workout?.activityType == "running")
        #expect(snapshot.throughSeq == 5)
    }

    @Test func damagedBytesNeverDecodeIntoASnapshot() throws {
        let events = Self.events.prefix(1_500)
        let states = Self.folded(events)
        var writer = BinaryWriter()
        ProjectionSnapshot(readiness: states.readiness, syncStatus: states.syncStatus).write(to: &writer)
        let bytes = writer.bytes
        // Every cut short of the end is refused: nothing half-read is ever restored.
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 300)) {
            var reader = BinaryReader(Array(bytes.prefix(cut)), from: 0)
            let decoded = ProjectionSnapshot(from: &reader)
            #expect(decoded == nil || !reader.isAtEnd, "a snapshot cut at byte \(cut) of \(bytes.count) decoded whole")
        }
        // A row that names no sample kind is refused (the file's CRCs catch flipped bytes before this).
        var damaged = bytes
        damaged[16 + 62] = 0xFF  // the first row's kind index
        var reader = BinaryReader(damaged, from: 0)
        #expect(ProjectionSnapshot(from: &reader) == nil)
    }
}

/// The fold-version constants move with the folds' output (see `ProjectionSnapshot.foldVersions`).
@Suite struct FoldVersionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func eachFoldsOutputForTheShippedSampleMatchesItsFoldVersion() async throws {
        let set = ProjectionSet()
        try await Replayer.replay(try LogReader(path: Self.repository + "/Logs/events.jsonl"), into: set)
        let expected: [ProjectionName: (version: UInt32, crc: UInt32, constant: String)] = [
            .readiness: (ReadinessProjection.foldVersion, ReadinessProjection.foldVersionOutputCRC, "ReadinessProjection"),
            .trends: (TrendsProjection.foldVersion, TrendsProjection.foldVersionOutputCRC, "TrendsProjection"),
            .weeklyStats: (WeeklyStatsProjection.foldVersion, WeeklyStatsProjection.foldVersionOutputCRC, "WeeklyStatsProjection"),
            .syncStatus: (SyncStatusProjection.foldVersion, SyncStatusProjection.foldVersionOutputCRC, "SyncStatusProjection"),
        ]
        for file in await set.files() {
            let recorded = try #require(expected[file.projection])
            let crc = file.bytes.withUnsafeBytes { CRC32.checksum($0) }
            #expect(crc == recorded.crc, """
                \(file.fileName) of the shipped sample changed (CRC \(String(crc, radix: 16)), recorded \(String(recorded.crc, radix: 16)) \
                for fold version \(recorded.version)): bump \(recorded.constant).foldVersion so old snapshots are not used, \
                and set foldVersionOutputCRC to 0x\(String(crc, radix: 16))
                """)
        }
    }
}
