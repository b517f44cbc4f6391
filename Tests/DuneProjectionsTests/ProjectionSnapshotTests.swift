import Foundation
import Testing
import DuneEvents
import DuneFixtures
@testable import DuneProjections
import DuneTools

/// A snapshot restores the projections exactly: restored + the rest of the
/// log gives the bytes of a from-scratch rebuild, at any cut point.
@Suite struct ProjectionSnapshotTests {
    /// A varied log as a log file holds it: every event through the line codec and back.
    static let events: [RecordedEvent] = ((try? SyntheticLog.make(days: 150)) ?? []).compactMap { event in
        try? EventCodec.encodeLine(event).withUnsafeBytes { try EventCodec.decode($0) }
    }

    static func files(_ engine: ReadModelEngine) -> [ReadModelFile] {
        var engine = engine
        let state = engine.state()
        return ProjectionName.allCases.map { ReadModelFile(projection: $0, bytes: state.fileBytes($0)) }
    }

    static func folded(_ events: some Sequence<RecordedEvent>) -> ReadModelEngine {
        ReadModelEngine(replaying: events)
    }

    /// A stamp for snapshots that are decoded without a log to check it against.
    static func stamp(_ snapshot: ProjectionSnapshot) -> LogStamp {
        LogStamp(identity: FileIdentity(device: 1, inode: 2), offset: 1_000, lastSeq: snapshot.throughSeq, lastLineLength: 300,
                 lastLineCRC: 0x1234_5678)
    }

    /// The snapshot in `bytes` (a snapshot file's), or `nil` when `SnapshotFile` refuses them
    /// or (`whole`) its samples or id index, read later from the mapping, fail their checks.
    static func decode(_ bytes: [UInt8], whole: Bool = true) throws -> ProjectionSnapshot? {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("snapshot-\(UUID().uuidString)").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        // Removing the file leaves the mapping whole (as renaming a new snapshot over it does).
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard let file = MappedFile(path), let snapshot = try? SnapshotFile.read(file, stampMismatch: { _ in nil }).get().0 else {
            return nil
        }
        return !whole || (snapshot.samples.loaded() != nil && snapshot.index.loaded() != nil) ? snapshot : nil
    }

    static func roundTrip(_ snapshot: ProjectionSnapshot?) throws -> ProjectionSnapshot? {
        try snapshot.flatMap { try decode(SnapshotFile.encoded($0, at: stamp($0))) }
    }

    /// Where each of the five sections of the snapshot file `bytes` starts, from its header.
    static func sectionStarts(_ bytes: [UInt8]) -> [Int] {
        var reader = BinaryReader(bytes, from: 16)
        var starts = [SnapshotFile.headerLength]
        for _ in 0..<SnapshotFile.sectionCount - 1 {
            starts.append(starts[starts.count - 1] + (reader.integer() ?? 0))
            _ = CacheChecksum(from: &reader)
        }
        return starts
    }

    /// Cut points as fractions of the log (0: after its first event; 1: at its end).
    @Test(arguments: [0.0, 0.001, 0.3, 0.5, 0.77, 0.999, 1.0])
    func snapshotPlusTailEqualsARebuild(cut: Double) async throws {
        let events = Self.events
        #expect(events.count > 2_000)
        let cutSeq = max(1, Int(Double(events.count) * cut))
        let before = Self.folded(events.prefix(cutSeq))
        let snapshot = try #require(try Self.roundTrip(before.snapshot))
        var restored = ReadModelEngine(snapshot)
        // The restored engine reads exactly as the engine it was taken from …
        #expect(Self.files(restored) == Self.files(before))
        #expect(restored.samples == before.samples)
        // … and folding the rest of the log on top gives a from-scratch rebuild, byte for byte.
        restored.apply(EventBatch(events.dropFirst(cutSeq)))
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
        let snapshot = try #require(try Self.roundTrip(states.snapshot))
        let samples = try #require(snapshot.samples.loaded())
        #expect(samples.rows.map(\.seq) == [3, 5])
        #expect(samples.sample(at: 0).quantity?.value == 42)
        #expect(samples.sample(at: 1).workout?.activityType == "running")
        #expect(snapshot.sourceCounts == [SourceCount(source: "Apple Watch", samples: 2)])
        #expect(snapshot.throughSeq == 5)
    }

    @Test func theSectionsRoundTrip() throws {
        let states = Self.folded(Self.events.prefix(3_000))
        let snapshot = try #require(states.snapshot)
        let samples = try #require(snapshot.samples.loaded())
        #expect(samples.fullSamples.count > 0, "the log has workouts, kept whole")
        let decodedSnapshot = try Self.roundTrip(snapshot)
        let decoded = try #require(decodedSnapshot)
        let decodedSamples = try #require(decoded.samples.loaded())
        #expect(decoded.throughSeq == snapshot.throughSeq)
        #expect((0..<decodedSamples.count).map(decodedSamples.sample(at:)) == (0..<samples.count).map(samples.sample(at:)))
        #expect(decodedSamples.rows.map(\.seq) == samples.rows.map(\.seq))
        #expect(decoded.stage == snapshot.stage && decoded.stage.metrics.count > 100)
        #expect(decoded.sourceCounts == snapshot.sourceCounts && decoded.sourceCounts.map(\.samples).reduce(0, +) == samples.count)
        let index = try #require(decoded.index.loaded())
        let written = try #require(snapshot.index.loaded())
        #expect(index.capacity == written.capacity && index.count == samples.count)
        #expect(index.versions.sorted() == written.versions.sorted())
        // Every id is found at its own row through the decoded index.
        for row in 0..<decodedSamples.count {
            let key = decodedSamples.key(at: row)
            let found = index.find(hash: key.hash64) { decodedSamples.key(at: Int($0) - 1) == key }
            #expect(found?.version == UInt32(row + 1))
        }
        #expect(decoded.profileSleepTargetMinutes == snapshot.profileSleepTargetMinutes && decoded.profileSeq == snapshot.profileSeq)
        #expect(decoded.syncStatus.readModel() == snapshot.syncStatus.readModel())
        #expect(decoded.appParts == snapshot.appParts)
    }

    @Test func samplesKeptWholeRoundTripExactly() throws {
        let odd = try Timestamp(parsing: "2026-03-01T06:00:00.500+00:00")
        let later = try Timestamp(parsing: "2026-03-01T07:15:00-05:30")
        let samples = [
            Sample(id: "not-a-uuid", kind: .bodyMass, start: odd, end: odd, source: "Scale ✓",
                   reading: .quantity(Quantity(value: 70.5, inputValue: 155.4, inputUnit: "lb"))),
            Sample(id: "w", kind: .workout, start: odd, end: later, source: "Watch",
                   reading: .workout(WorkoutSummary(activityType: "running", energyKcal: 400, distanceMeters: nil, volumeKg: 12,
                                                    inputEnergy: .init(value: 1673.6, unit: "kJ"), inputDistance: .init(value: 5, unit: "mi")))),
            Sample(id: "w2", kind: .workout, start: odd, end: later, source: "", reading: .workout(WorkoutSummary(activityType: "yoga"))),
            Sample(id: "s", kind: .sleep, start: odd, end: later, source: "Ring", reading: .sleep(.asleepREM)),
        ]
        var writer = BinaryWriter()
        for sample in samples { sample.writeSnapshot(to: &writer) }
        var reader = BinaryReader(writer.bytes, from: 0)
        for sample in samples {
            let decoded = try #require(Sample(snapshot: &reader))
            #expect(decoded == sample)
            #expect(decoded.start.text == sample.start.text && decoded.end.text == sample.end.text)
        }
        #expect(reader.isAtEnd)
        // A cut anywhere leaves some sample undecodable.
        for cut in 0..<writer.bytes.count {
            var cutReader = BinaryReader(Array(writer.bytes.prefix(cut)), from: 0)
            var decoded = 0
            while Sample(snapshot: &cutReader) != nil { decoded += 1 }
            #expect(decoded < samples.count)
        }
    }

    @Test func damageInAnySectionIsDetected() throws {
        let states = Self.folded(Self.events.prefix(1_500))
        let snapshot = try #require(states.snapshot)
        let bytes = SnapshotFile.encoded(snapshot, at: Self.stamp(snapshot))
        #expect(try Self.decode(bytes) != nil)
        // Every cut short of the end is refused: nothing half-read is ever restored.
        for cut in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 200)) {
            #expect(try Self.decode(Array(bytes.prefix(cut))) == nil, "a snapshot cut at byte \(cut) of \(bytes.count) decoded")
        }
        // A flipped bit anywhere — header, meta, stage, tables, rows, index — is caught by that part's check.
        let header = SnapshotFile.headerLength
        let starts = Self.sectionStarts(bytes)
        let (stageStart, tablesStart, rowsStart, indexStart) = (starts[1], starts[2], starts[3], starts[4])
        #expect(indexStart == bytes.count - snapshot.index.capacity * 8 && rowsStart == indexStart - snapshot.samples.count * 64)
        let places = [("header", 20), ("header check", header - 1), ("meta", header + 3), ("meta end", stageStart - 1),
                      ("stage", stageStart + 9), ("stage end", tablesStart - 1), ("tables", tablesStart + 2), ("tables end", rowsStart - 1),
                      ("rows", rowsStart + 62), ("rows end", indexStart - 1), ("index", indexStart + 5), ("index end", bytes.count - 1)]
        for (section, offset) in places {
            for bit in [0, 5] {
                var damaged = bytes
                damaged[offset] ^= 1 << bit
                #expect(try Self.decode(damaged) == nil, "a flipped bit in the \(section) at byte \(offset) went unnoticed")
                // The samples and the index are read only when a fold or a query needs them: damage there is found then, not at the open.
                #expect(try (Self.decode(damaged, whole: false) != nil) == (offset >= tablesStart), "\(section)")
            }
        }
        // A whole sector of zeros in the middle of the rows.
        var zeroed = bytes
        for offset in (rowsStart + 4096)..<min(indexStart, rowsStart + 4096 + 512) { zeroed[offset] = 0 }
        #expect(try Self.decode(zeroed) == nil)
    }

    @Test func rowsAndIndexesThatPassTheirChecksButNotTheirRulesAreRefused() throws {
        let states = Self.folded(Self.events.prefix(1_500))
        let snapshot = try #require(states.snapshot)
        let samples = try #require(snapshot.samples.loaded())
        // A row that names no sample kind, written with valid checks (as a bug, not damage, would).
        var rows = Array(samples.rows)
        rows[0].kindIndex = 0xFF
        var badKind = snapshot
        badKind.samples = .built(SampleBlock(rows: rows, fullSamples: samples.fullSamples, sources: samples.sources))
        #expect(try Self.decode(SnapshotFile.encoded(badKind, at: Self.stamp(badKind))) == nil)
        // Rows out of seq order.
        rows = Array(samples.rows)
        rows.swapAt(0, 1)
        var unordered = snapshot
        unordered.samples = .built(SampleBlock(rows: rows, fullSamples: samples.fullSamples, sources: samples.sources))
        #expect(try Self.decode(SnapshotFile.encoded(unordered, at: Self.stamp(unordered))) == nil)
        // An index image with a slot naming a version past the rows, or one slot too few.
        var slots = [UInt64](repeating: 0, count: 1024)
        slots[7] = UInt64(99) << 32 | 3
        #expect(SampleIndex(capacity: 1024, count: 2, fill: { buffer in
            slots.withUnsafeBytes { buffer.copy(ByteView($0), to: 0) }
            return true
        }) == nil)
        slots[9] = UInt64(98) << 32 | 1
        #expect(SampleIndex(capacity: 1024, count: 3, fill: { buffer in
            slots.withUnsafeBytes { buffer.copy(ByteView($0), to: 0) }
            return true
        }) == nil)
        #expect(SampleIndex(capacity: 1024, count: 3, fill: { buffer in
            slots[7] = UInt64(99) << 32 | 2
            slots[11] = UInt64(97) << 32 | 3
            slots.withUnsafeBytes { buffer.copy(ByteView($0), to: 0) }
            return true
        }) != nil)
    }

    /// A store restored from a snapshot writes its next snapshot from the
    /// restored rows as they are (no copy), in runs between the samples it
    /// replaced or deleted since, with its id index renumbered to the rows
    /// kept; a replaced or deleted whole sample (a workout, an id that is
    /// not a UUID) of the restored rows leaves the table, the restored whole
    /// rows copied and renumbered between the runs. Every way reads back
    /// as a replay of the whole log, and finds its samples by id again: a
    /// correction and a deletion folded after that second restore land on
    /// the right samples.
    @Test(arguments: ["new samples only", "a correction", "a deletion", "corrections and deletions", "a workout corrected",
                      "a sample kept whole deleted"])
    func aSnapshotAfterAppendsReadsBackAsAReplay(tail: String) throws {
        func uuid(_ number: Int) -> String { "00000000-0000-4000-8000-\(String(100_000_000_000 + number).suffix(12))" }
        var log = LogBuilder()
        for day in 1...28 {
            let date = "2026-02-\(day < 10 ? "0" : "")\(day)"
            try log.quantity(.hrv, id: uuid(day), start: "\(date)T06:00:00Z", value: 40 + Double(day % 7))
            try log.quantity(.restingHeartRate, id: "rhr-\(day)", start: "\(date)T06:05:00+01:00", value: 55, source: "Ring")
            if day % 5 == 0 {
                try log.workout(id: uuid(1_000 + day), "running", from: "\(date)T17:00:00Z", to: "\(date)T17:40:00Z", energyKcal: 300)
            }
        }
        let restoredCount = log.events.count
        let first = try #require(try Self.roundTrip(Self.folded(log.events).snapshot))
        for day in 1...6 {
            try log.quantity(.hrv, id: uuid(2_000 + day), start: "2026-03-0\(day)T06:00:00Z", value: 44, source: "New Watch")
            try log.quantity(.stepCount, id: "steps-\(day)", start: "2026-03-0\(day)T12:00:00Z", value: 8_000)
        }
        try log.workout(id: uuid(3_000), "cycling", from: "2026-03-06T17:00:00Z", to: "2026-03-06T18:00:00Z", distanceMeters: 20_000)
        switch tail {
        case "a correction": try log.quantity(.hrv, id: uuid(3), start: "2026-02-03T06:00:00Z", value: 60)
        case "a deletion": _ = try log.delete(id: uuid(4))
        case "corrections and deletions":
            // The first restored row among them, a sample corrected twice (to another day), and a new sample corrected.
            _ = try log.delete(id: uuid(1))
            try log.quantity(.hrv, id: uuid(9), start: "2026-02-09T06:00:00Z", value: 61)
            try log.quantity(.hrv, id: uuid(9), start: "2026-02-10T06:00:00Z", value: 62)
            _ = try log.delete(id: uuid(28))
            _ = try log.delete(id: uuid(14))
            try log.quantity(.hrv, id: uuid(2_003), start: "2026-03-03T06:00:00Z", value: 47, source: "New Watch")
        case "a workout corrected":
            try log.workout(id: uuid(1_010), "rowing", from: "2026-02-10T17:00:00Z", to: "2026-02-10T17:30:00Z", energyKcal: 250)
        case "a sample kept whole deleted": _ = try log.delete(id: "rhr-14")  // an id that is not a UUID: a whole sample
        default: break
        }
        var restored = ReadModelEngine(first)
        restored.apply(Array(log.events.dropFirst(restoredCount)))
        let snapshot = try #require(restored.snapshot)
        guard case .parts(let runs, let fullSamples, _) = snapshot.samples else {
            Issue.record("a restored store's snapshot is written from its rows as they are, not compacted whole")
            return
        }
        #expect(runs.sets[0].isMapped, "the restored rows are written from the mapping")
        let kept = runs.runs.filter { $0.set == 0 }
        if Self.replacesAWholeSample(tail) {
            // The table keeps only current whole samples: the restored whole rows are copied, renumbered; the 28 hrv rows stay.
            #expect(kept.reduce(0) { $0 + $1.rows.count } == 28)
            // Only the current ones: 28 resting heart rates and 5 workouts restored, 6 step counts and 1 workout added (all
            // whole: ids that are not UUIDs, workouts), then one workout replaced (its old version left) or one sample deleted.
            #expect(fullSamples.count == (tail == "a workout corrected" ? 40 : 39))
        } else {
            #expect(kept.count == ["a correction": 2, "a deletion": 2, "corrections and deletions": 4][tail] ?? 1)
        }
        if case .renumbered = snapshot.index {
            #expect(tail != "new samples only", "an index whose versions are all current is written as it is")
        } else {
            #expect(tail == "new samples only", "the index is renumbered as it is written, not copied")
        }
        let again = ReadModelEngine(try #require(try Self.roundTrip(snapshot)))
        let replayed = Self.folded(log.events)
        #expect(Self.files(again) == Self.files(replayed))
        #expect(again.samples == replayed.samples)
        #expect(again.sampleCountsBySource() == replayed.sampleCountsBySource())
        // Lookups by id through the index written: a correction and a deletion after the second restore.
        let countBefore = log.events.count
        try log.quantity(.hrv, id: uuid(20), start: "2026-02-20T06:00:00Z", value: 70)
        _ = try log.delete(id: uuid(2_005))
        _ = try log.delete(id: "rhr-7")
        var third = again
        third.apply(Array(log.events.dropFirst(countBefore)))
        let replayedAll = Self.folded(log.events)
        #expect(Self.files(third) == Self.files(replayedAll))
        #expect(third.samples == replayedAll.samples)
    }

    static func replacesAWholeSample(_ tail: String) -> Bool {
        tail == "a workout corrected" || tail == "a sample kept whole deleted"
    }

    /// The check of parts one after the other is the check of their bytes joined, whatever the cuts.
    @Test func theChecksumOfPartsIsTheChecksumOfTheJoinedBytes() {
        let bytes = (0..<1_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let joined = bytes.withUnsafeBytes { CacheChecksum($0) }
        for cuts in [[0], [32], [64, 512], [96, 96, 992], [1_000], [7], [33, 100], [500, 999]] {
            var parts: [[UInt8]] = []
            var start = 0
            for cut in cuts + [bytes.count] {
                parts.append(Array(bytes[start..<max(start, cut)]))
                start = max(start, cut)
            }
            let checked = parts.withByteViews { CacheChecksum(parts: $0) }
            #expect(checked == joined, "cut at \(cuts)")
        }
        #expect(CacheChecksum(parts: []) == [UInt8]().withUnsafeBytes { CacheChecksum($0) })
    }

    @Test func theChecksumSeesEveryShortDamageAndEveryLength() {
        var bytes = [UInt8](repeating: 0, count: 4_099)
        var state: UInt64 = 12345
        for index in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[index] = UInt8(truncatingIfNeeded: state >> 56)
        }
        let original = bytes.withUnsafeBytes { CacheChecksum($0) }
        for offset in stride(from: 0, to: bytes.count, by: 7) {
            for width in [1, 3, 25] where offset + width <= bytes.count {
                var damaged = bytes
                for position in offset..<(offset + width) { damaged[position] ^= 0xA5 }
                #expect(damaged.withUnsafeBytes { CacheChecksum($0) } != original, "damage of \(width) bytes at \(offset)")
            }
        }
        // Cut or padded with zeros: the length is part of the check.
        #expect(Array(bytes.dropLast()).withUnsafeBytes { CacheChecksum($0) } != original)
        #expect((bytes + [0]).withUnsafeBytes { CacheChecksum($0) } != original)
        #expect(([UInt8](repeating: 0, count: 32)).withUnsafeBytes { CacheChecksum($0) }
                != ([UInt8](repeating: 0, count: 64)).withUnsafeBytes { CacheChecksum($0) })
    }
}

/// The fold-version constants move with the folds' output (see `ProjectionSnapshot.foldVersions`).
@Suite struct FoldVersionTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func eachFoldsOutputForTheShippedSampleMatchesItsFoldVersion() async throws {
        var engine = ReadModelEngine()
        try await Replayer.replay(try LogReader(path: Self.repository + "/Logs/events.jsonl"), into: &engine)
        let expected: [ProjectionName: (version: UInt32, crc: UInt32, constant: String)] = [
            .readiness: (ReadinessProjection.foldVersion, ReadinessProjection.foldVersionOutputCRC, "ReadinessProjection"),
            .trends: (TrendsModel.foldVersion, TrendsModel.foldVersionOutputCRC, "TrendsModel"),
            .weeklyStats: (WeeklyStatsModel.foldVersion, WeeklyStatsModel.foldVersionOutputCRC, "WeeklyStatsModel"),
            .syncStatus: (SyncStatusProjection.foldVersion, SyncStatusProjection.foldVersionOutputCRC, "SyncStatusProjection"),
        ]
        for file in await engine.state().files() {
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

extension Array where Element == [UInt8] {
    /// Calls `body` with a view of each array's bytes.
    func withByteViews<Result>(_ body: ([ByteView]) -> Result) -> Result {
        func next(_ index: Int, _ views: [ByteView]) -> Result {
            guard index < count else { return body(views) }
            return ByteView.with(self[index]) { next(index + 1, views + [$0]) }
        }
        return next(0, [])
    }
}
