import DuneEvents
import Synchronization

/// The read models' state at one seq, as `<log>.snapshot` keeps it: enough
/// to restore them without replaying the log before that seq, and laid out
/// so that the first state reads only a few small sections of the file.
///
/// What it keeps is what the folds' results depend on, nothing more:
/// - the daily stage (``DailyStage``): each day's metrics and weekly values,
///   from which the first state's models are computed without a sample;
/// - every current sample (the last version of each id not deleted), in
///   `seq` order, as 64-byte rows (``PackedSample``), with the sources they
///   number and the samples kept whole: what folding after the snapshot,
///   and sample queries, read — restored to exactly the store that folding
///   these rows gives, which is the store the full history gave;
/// - the id index over those rows (`SampleIndex(indexing:)`), as its slot
///   array: restored by one read instead of a million insertions;
/// - how many current samples each source has (for `report`);
/// - the latest sleep target and its seq;
/// - the sync-status state as it is (it counts every refresh and task event,
///   so it cannot be refolded from fewer events);
/// - the seq it was taken at;
/// - each app projection's model (as its `Codable` JSON) or failure,
///   stamped with its name and version (`AppSnapshotPart`).
///
/// The file's layout (sections, checks) is in `SnapshotFile`; this type
/// encodes the small parts (``writeMeta(to:)``) and holds the large ones.
package struct ProjectionSnapshot: Sendable {
    /// Bumped whenever the file's layout or any part's encoding changes
    /// (2: sections with their own checks, rows and index as memory images;
    /// 3: a day's HRV measure and the other measure's mean in the daily metrics;
    /// 4: the event versions it was built under after the fold versions, and
    /// whole hrv samples with their measure; 5: the app projections' parts,
    /// and no daily metrics: the engine computes its daily stage from the samples;
    /// 6: the daily stage and the per-source counts in sections of their own,
    /// the sample tables apart from the meta, read with the rows when first needed).
    package static let formatVersion: UInt32 = 6

    /// The fold versions the snapshot's state came from, in ``ProjectionName``
    /// order: a snapshot whose versions differ from the running code's is stale.
    package static var foldVersions: [UInt32] {
        [ReadinessProjection.foldVersion, TrendsModel.foldVersion, WeeklyStatsModel.foldVersion,
         SyncStatusProjection.foldVersion]
    }

    package var throughSeq: Int
    /// The current samples, in `seq` order.
    var samples: SnapshotSamples
    /// Sample id → version `row + 1` of ``samples``.
    var index: SnapshotIndex
    /// The daily stage at ``throughSeq``.
    var stage: DailyStage
    /// How many current samples each source has, sources in UTF-8 order.
    var sourceCounts: [SourceCount]
    package var profileSleepTargetMinutes: Double?
    package var profileSeq: Int?
    package var syncStatus: SyncStatusProjection
    /// The app projections' parts, in registration order.
    var appParts: [AppSnapshotPart]

    // MARK: - The small parts

    /// What a snapshot's meta section holds, and how to read the other sections.
    struct Meta {
        var throughSeq: Int
        var rowCount: Int
        var indexCapacity: Int
        var sourceCounts: [SourceCount]
        var profileSleepTargetMinutes: Double?
        var profileSeq: Int?
        var syncStatus: SyncStatusProjection
        var appParts: [AppSnapshotPart]
    }

    /// ```
    /// throughSeq                 Int64
    /// rows: count                Int64 (the rows themselves are a section of their own)
    /// index: capacity            Int64 (its slots too)
    /// source counts              count, then per source: name, samples Int64
    /// profile                    present UInt8, minutes Double, seq Int64
    /// sync status                see SyncStatusProjection+Snapshot.swift
    /// app projections            count; per part: name, version Int64, failed UInt8,
    ///                            then the failure's seq Int64 and message, or the model's JSON
    /// ```
    func writeMeta(to writer: inout BinaryWriter) {
        writer.integer(throughSeq)
        writer.integer(samples.count)
        writer.integer(index.capacity)
        writer.integer(sourceCounts.count)
        for count in sourceCounts {
            writer.string(count.source)
            writer.integer(count.samples)
        }
        writer.uint8(profileSleepTargetMinutes == nil ? 0 : 1)
        writer.double(profileSleepTargetMinutes ?? 0)
        writer.integer(profileSeq ?? 0)
        syncStatus.write(to: &writer)
        writer.integer(appParts.count)
        for part in appParts {
            writer.string(part.name)
            writer.integer(part.version)
            writer.uint8(part.failure == nil ? 0 : 1)
            if let failure = part.failure {
                writer.integer(failure.seq)
                writer.string(failure.message)
            } else {
                writer.string(String(decoding: part.bytes, as: UTF8.self))
            }
        }
    }

    /// The meta part `reader` holds, or `nil` when its bytes are not a whole, valid one.
    static func readMeta(from reader: inout BinaryReader) -> Meta? {
        guard let throughSeq = reader.integer(), throughSeq >= 0, let rowCount = reader.integer(), rowCount >= 0,
              rowCount < Int(UInt32.max) - 1, let indexCapacity = reader.integer(), indexCapacity >= 0,
              let sourceCount = reader.count(itemBytes: 16)
        else { return nil }
        var sourceCounts: [SourceCount] = []
        for _ in 0..<sourceCount {
            guard let source = reader.string(), let samples = reader.integer(), samples > 0 else { return nil }
            sourceCounts.append(SourceCount(source: source, samples: samples))
        }
        guard let hasProfile = reader.uint8(), let minutes = reader.double(), let profileSeq = reader.integer(),
              let syncStatus = SyncStatusProjection(from: &reader), let partCount = reader.count(itemBytes: 8)
        else { return nil }
        var appParts: [AppSnapshotPart] = []
        for _ in 0..<partCount {
            guard let name = reader.string(), let version = reader.integer(), let failed = reader.uint8(), failed <= 1 else { return nil }
            if failed == 1 {
                guard let seq = reader.integer(), let message = reader.string() else { return nil }
                appParts.append(AppSnapshotPart(name: name, version: version, failure: AppFailure(seq: seq, message: message), bytes: []))
            } else {
                guard let json = reader.string() else { return nil }
                appParts.append(AppSnapshotPart(name: name, version: version, failure: nil, bytes: Array(json.utf8)))
            }
        }
        return Meta(throughSeq: throughSeq, rowCount: rowCount, indexCapacity: indexCapacity, sourceCounts: sourceCounts,
                    profileSleepTargetMinutes: hasProfile == 1 ? minutes : nil,
                    profileSeq: hasProfile == 1 ? profileSeq : nil, syncStatus: syncStatus, appParts: appParts)
    }

    /// ```
    /// sources                    count, then length-prefixed UTF-8
    /// full samples               count, then each field by field (Sample+Snapshot.swift)
    /// ```
    static func writeTables(sources: [String], fullSamples: [Sample], to writer: inout BinaryWriter) {
        writer.integer(sources.count)
        for source in sources { writer.string(source) }
        writer.integer(fullSamples.count)
        for sample in fullSamples { sample.writeSnapshot(to: &writer) }
    }

    /// The sources and whole samples ``writeTables(sources:fullSamples:to:)`` wrote, or `nil` when the bytes are not them.
    static func readTables(from reader: inout BinaryReader) -> (sources: [String], fullSamples: [Sample])? {
        guard let sourceCount = reader.count(itemBytes: 8) else { return nil }
        var sources: [String] = []
        for _ in 0..<sourceCount {
            guard let source = reader.string() else { return nil }
            sources.append(source)
        }
        guard let fullCount = reader.count(itemBytes: 8) else { return nil }
        var fullSamples: [Sample] = []
        fullSamples.reserveCapacity(fullCount)
        for _ in 0..<fullCount {
            guard let sample = Sample(snapshot: &reader) else { return nil }
            fullSamples.append(sample)
        }
        guard reader.isAtEnd else { return nil }
        return (sources, fullSamples)
    }

    /// Whether `rows` are what the row section of a snapshot can hold: each
    /// names a kind and points inside the tables it indexes (of `fullSamples`
    /// and `sources` entries), and their seqs rise and end at or before `throughSeq`.
    static func rowsAreValid(_ rows: PackedRows, fullSamples: Int, sources: Int, throughSeq: Int) -> Bool {
        var previousSeq = 0
        let kinds = UInt8(SampleKind.allCases.count)
        let allValid = rows.forEachRow { _, row in
            guard row.kindIndex < kinds, row.seq > previousSeq else { return false }
            previousSeq = row.seq
            return row.isFull ? row.fullIndex >= 0 && row.fullIndex < fullSamples : Int(row.source) < sources
        }
        return allValid && previousSeq <= throughSeq
    }

}

/// How many current samples one source has.
struct SourceCount: Sendable, Equatable {
    var source: String
    var samples: Int
}

/// A snapshot's current samples: built by the engine that writes it, or
/// still in the mapped file it was read from, to be read when first needed.
enum SnapshotSamples: Sendable {
    case built(SampleBlock)
    /// Runs of rows, written one after the other as one section (most of
    /// them a restored snapshot's rows, not copied: see
    /// `SampleStore.compactSnapshotSamples()`), over one pair of tables.
    case parts(RowRuns, fullSamples: [Sample], sources: [String])
    case mapped(MappedSamples)

    /// The number of samples.
    var count: Int {
        switch self {
        case .built(let block): block.count
        case .parts(let runs, _, _): runs.count
        case .mapped(let mapped): mapped.rowCount
        }
    }

    /// The samples as one block; `nil` when their mapped sections fail their checks or do not hold valid rows.
    func loaded() -> SampleBlock? {
        switch self {
        case .built(let block): block
        case .parts(let runs, let fullSamples, let sources): SampleBlock(rows: runs.joined(), fullSamples: fullSamples, sources: sources)
        case .mapped(let mapped): mapped.load()
        }
    }

    /// What a snapshot file's tables and rows sections hold: the rows in
    /// runs, as they are in memory; `nil` as ``loaded()``.
    func writable() -> (rows: RowRuns, fullSamples: [Sample], sources: [String])? {
        switch self {
        case .parts(let runs, let fullSamples, let sources): (runs, fullSamples, sources)
        case .built, .mapped: loaded().map { (RowRuns(whole: $0.rows), $0.fullSamples, $0.sources) }
        }
    }
}

/// The rows a snapshot keeps, in order, as runs of two sets of rows: rows
/// kept where they are (a restored snapshot's, in its mapping, without the
/// ones replaced or deleted between the runs) and rows copied (renumbered,
/// or folded after the restore).
struct RowRuns: Sendable {
    /// Set 0: the rows kept where they are.
    private let kept: PackedRows
    /// Set 1: the copies.
    private var copies: [PackedSample] = []
    /// In order: which set, and which of its rows.
    private(set) var runs: [(set: Int, rows: Range<Int>)] = []

    /// Runs over `rows` (set 0) and copies, to be added.
    init(_ rows: PackedRows) {
        kept = rows
    }

    /// All of `rows`, as one run.
    init(whole rows: PackedRows) {
        kept = rows
        if !rows.isEmpty { runs = [(0, rows.indices)] }
    }

    /// The two sets: the rows kept where they are, and the copies.
    var sets: [PackedRows] { [kept, PackedRows(copies)] }

    /// The number of rows.
    var count: Int { runs.reduce(0) { $0 + $1.rows.count } }

    /// Adds row `row` of set `set`, extending the last run when it is the next row of the same set.
    mutating func add(_ row: Int, of set: Int) {
        if let last = runs.last, last.set == set, last.rows.upperBound == row {
            runs[runs.count - 1].rows = last.rows.lowerBound..<(row + 1)
        } else {
            runs.append((set, row..<(row + 1)))
        }
    }

    /// Adds a copied row.
    mutating func addCopy(_ row: PackedSample) {
        copies.append(row)
        add(copies.count - 1, of: 1)
    }

    /// The rows, one after the other: the kept rows themselves when they are one run of all of them.
    func joined() -> PackedRows {
        if runs.count == 1, runs[0].set == 0, runs[0].rows == kept.indices { return kept }
        let sets = sets
        return PackedRows(runs.flatMap { run in run.rows.map { sets[run.set][$0] } })
    }
}

/// The sample sections of a mapped snapshot (the tables of sources and
/// whole samples, and the rows), checked and copied out only by ``load()``.
struct MappedSamples: Sendable {
    let file: MappedFile
    let tables: (offset: Int, length: Int, check: CacheChecksum)
    let rows: (offset: Int, check: CacheChecksum)
    let rowCount: Int
    let throughSeq: Int

    /// The samples, when both sections pass their checks and hold valid rows.
    func load() -> SampleBlock? {
        guard let tableBytes = file.bytes(tables.length, at: tables.offset), CacheChecksum(tableBytes) == tables.check else {
            return nil
        }
        var reader = BinaryReader(tableBytes.copied, from: 0)
        guard let (sources, fullSamples) = ProjectionSnapshot.readTables(from: &reader),
              let rows = readRows(),
              ProjectionSnapshot.rowsAreValid(rows, fullSamples: fullSamples.count, sources: sources.count, throughSeq: throughSeq)
        else { return nil }
        return SampleBlock(rows: rows, fullSamples: fullSamples, sources: sources)
    }

    /// The rows, when their bytes pass their check: read in place from the
    /// mapping where a row's layout is its file layout, else converted one by one.
    private func readRows() -> PackedRows? {
        guard let bytes = file.bytes(rowCount * PackedSample.byteCount, at: rows.offset), CacheChecksum(bytes) == rows.check else {
            return nil
        }
        guard PackedSample.hasSnapshotLayout else {
            return PackedRows((0..<rowCount).map { PackedSample(snapshotBytes: bytes, at: $0 * PackedSample.byteCount) })
        }
        return PackedRows(in: file, offset: rows.offset, count: rowCount)
    }
}

/// The samples of a snapshot an engine was restored from, read into a
/// ``SampleStore`` the first time the engine needs them (a fold, a query, a
/// lookup, a snapshot of its own), and shared by the copies of that engine.
///
/// A class so that a read through a copy of the engine (a follower's query)
/// loads them once for all copies; the load is deterministic (the same
/// mapped bytes give the same store), and its result is guarded by a mutex.
final class UnreadSamples: Sendable {
    private let samples: SnapshotSamples
    private let index: SnapshotIndex
    /// The snapshot's per-source counts, answered without reading a sample.
    let sourceCounts: [SourceCount]
    /// `nil` until the first ``store()``; then the store, or `nil` when the samples failed their checks.
    private let loaded = Mutex<SampleStore??>(nil)

    init(_ samples: SnapshotSamples, index: SnapshotIndex, sourceCounts: [SourceCount]) {
        self.samples = samples
        self.index = index
        self.sourceCounts = sourceCounts
    }

    /// The store the snapshot's samples restore to; `nil` when they are damaged.
    ///
    /// With `withIndex` (the first fold, which looks ids up), a mapped id
    /// index is read into the store as well: its check and copy run beside
    /// the samples' check and read, on a second processor when there is one.
    /// An index that fails its check is left unread in the store, whose
    /// `readIndex()` then reports it. Without, the index stays in the file
    /// (a query by day never reads it).
    /// - Complexity: O(n) for n samples the first time, O(1) after.
    func store(withIndex: Bool = false) -> SampleStore? {
        loaded.withLock { loaded in
            if let loaded { return loaded }
            let store: SampleStore?
            if withIndex, case .mapped(let image) = index {
                let (block, readIndex) = computedTogether({ samples.loaded() }, { image.load() })
                store = block.map { SampleStore(restoring: $0, index: readIndex.map(SnapshotIndex.built) ?? index) }
            } else {
                store = samples.loaded().map { SampleStore(restoring: $0, index: index) }
            }
            loaded = .some(store)
            return store
        }
    }

    /// Whether a ``store()`` found the samples damaged.
    var isDamaged: Bool {
        loaded.withLock { loaded in loaded.map { $0 == nil } ?? false }
    }
}

/// A snapshot's id index: built by the engine that writes it, or still in
/// the mapped file it was read from, to be read when a fold first needs it.
enum SnapshotIndex: Sendable {
    case built(SampleIndex)
    /// A store's index, with each version to be renumbered to its row among
    /// the current ones as the snapshot is written (see
    /// `SampleStore.compactSnapshotSamples()`).
    case renumbered(SampleIndex, LiveVersions)
    case mapped(MappedIndex)

    /// The number of slots.
    var capacity: Int {
        switch self {
        case .built(let index), .renumbered(let index, _): index.capacity
        case .mapped(let image): image.capacity
        }
    }

    /// Calls `body` with the slots as little-endian bytes, piece by piece:
    /// the built table's memory, the renumbered table made as it is
    /// written, or the mapped section as it is.
    func forEachSlotPiece(_ body: (ByteView) -> Void) {
        switch self {
        case .built(let index): index.withSlotBytes(body)
        case .renumbered(let index, let live): index.withRenumberedSlotBytes({ live.rank(of: $0) }, body)
        case .mapped(let image): body(image.file.bytes(image.capacity * 8, at: image.offset) ?? .empty)
        }
    }

    /// The index; `nil` when its mapped section fails its check or does not hold a valid table.
    func loaded() -> SampleIndex? {
        switch self {
        case .built(let index): index
        case .renumbered(let index, let live): index.renumbered { live.rank(of: $0) }
        case .mapped(let image): image.load()
        }
    }
}

/// The id index section of a mapped snapshot, checked and copied out only
/// by ``load()``: a reader that only reads the state never touches its pages.
struct MappedIndex: Sendable {
    let file: MappedFile
    let offset: Int
    let capacity: Int
    /// The rows it indexes.
    let count: Int
    let check: CacheChecksum

    /// The index, when the section passes its check and holds a valid table (see `SampleIndex(capacity:count:fill:)`).
    func load() -> SampleIndex? {
        guard let bytes = file.bytes(capacity * 8, at: offset) else { return nil }
        return SampleIndex(capacity: capacity, count: count) { slots in
            file.copy(bytes, releasingInto: slots)
            return CacheChecksum(slots.view) == check
        }
    }
}

extension PackedSample {
    /// Whether a row's bytes in memory are its 64 bytes in a snapshot, field
    /// by field little-endian in declaration order (see `SnapshotFile`): then
    /// rows are read and written as one block. True on every platform the
    /// library ships for (little-endian, no reordering); elsewhere rows are
    /// converted one by one.
    static let hasSnapshotLayout: Bool = {
        #if _endian(little)
        let offsets: [(PartialKeyPath<PackedSample>, Int)] = [
            (\PackedSample.idHigh, 0), (\PackedSample.idLow, 8), (\PackedSample.seq, 16), (\PackedSample.value, 24),
            (\PackedSample.startSeconds, 32), (\PackedSample.endSeconds, 40), (\PackedSample.startNanoseconds, 48),
            (\PackedSample.endNanoseconds, 52), (\PackedSample.startOffsetMinutes, 56), (\PackedSample.endOffsetMinutes, 58),
            (\PackedSample.source, 60), (\PackedSample.kindIndex, 62), (\PackedSample.flags, 63),
        ]
        return MemoryLayout<PackedSample>.size == 64 && MemoryLayout<PackedSample>.stride == 64
            && MemoryLayout<Int>.size == 8 && offsets.allSatisfy { MemoryLayout<PackedSample>.offset(of: $0.0) == $0.1 }
        #else
        return false
        #endif
    }()

    /// The row's 64 snapshot bytes, field by field (when ``hasSnapshotLayout`` is false).
    func writeSnapshotBytes(to writer: inout BinaryWriter) {
        writer.uint64(idHigh)
        writer.uint64(idLow)
        writer.integer(seq)
        writer.double(value)
        writer.uint64(UInt64(bitPattern: startSeconds))
        writer.uint64(UInt64(bitPattern: endSeconds))
        writer.uint32(UInt32(bitPattern: startNanoseconds))
        writer.uint32(UInt32(bitPattern: endNanoseconds))
        writer.uint16(UInt16(bitPattern: startOffsetMinutes))
        writer.uint16(UInt16(bitPattern: endOffsetMinutes))
        writer.uint16(source)
        writer.uint8(kindIndex)
        writer.uint8(flags)
    }

    /// The row whose 64 snapshot bytes start at `offset` (when ``hasSnapshotLayout`` is false).
    init(snapshotBytes bytes: ByteView, at offset: Int) {
        @inline(__always) func load<T: FixedWidthInteger>(_ at: Int, _ type: T.Type) -> T {
            bytes.loadLittleEndian(at: offset + at, as: T.self)
        }
        self.init(idHigh: load(0, UInt64.self), idLow: load(8, UInt64.self), seq: Int(Int64(bitPattern: load(16, UInt64.self))),
                  value: Double(bitPattern: load(24, UInt64.self)),
                  startSeconds: Int64(bitPattern: load(32, UInt64.self)), endSeconds: Int64(bitPattern: load(40, UInt64.self)),
                  startNanoseconds: Int32(bitPattern: load(48, UInt32.self)), endNanoseconds: Int32(bitPattern: load(52, UInt32.self)),
                  startOffsetMinutes: Int16(bitPattern: load(56, UInt16.self)), endOffsetMinutes: Int16(bitPattern: load(58, UInt16.self)),
                  source: load(60, UInt16.self), kindIndex: load(62, UInt8.self), flags: load(63, UInt8.self))
    }
}
