import DuneEvents

/// The four projections' state at one seq, as `<log>.snapshot` keeps it:
/// enough to restore them without replaying the log before that seq, and
/// laid out so that restoring copies memory instead of folding events.
///
/// What it keeps is what the folds' results depend on, nothing more:
/// - every current sample (the last version of each id not deleted), in
///   `seq` order, as 64-byte rows (``PackedSample``) — the three sample
///   projections restore to exactly the stores that folding these rows gives,
///   which are the stores the full history gave;
/// - the id index over those rows (`SampleIndex(indexing:)`), as its slot
///   array: restored by one read instead of a million insertions, and shared
///   by the three projections until one of them writes;
/// - the latest sleep target and its seq;
/// - the sync-status state as it is (it counts every refresh and task event,
///   so it cannot be refolded from fewer events);
/// - the seq it was taken at;
/// - the eight metric values of every day (``DailyMetrics``, 10–82 bytes a
///   day): the first readiness or trends read after a restore computes the
///   model from them instead of from every sample — a cache of what the
///   samples give, used only while no later event has been folded.
///
/// The file's layout (sections, checks) is in `SnapshotFile`; this type
/// encodes the small parts (``writeMeta(to:)``) and holds the large ones.
package struct ProjectionSnapshot: Sendable {
    /// Bumped whenever the file's layout or any part's encoding changes
    /// (2: sections with their own checks, rows and index as memory images;
    /// 3: a day's HRV measure and the other measure's mean in the daily metrics;
    /// 4: the event versions it was built under after the fold versions, and
    /// whole hrv samples with their measure).
    package static let formatVersion: UInt32 = 4

    /// The fold versions the snapshot's state came from, in ``ProjectionName``
    /// order: a snapshot whose versions differ from the running code's is stale.
    package static var foldVersions: [UInt32] {
        [ReadinessProjection.foldVersion, TrendsProjection.foldVersion, WeeklyStatsProjection.foldVersion,
         SyncStatusProjection.foldVersion]
    }

    package var throughSeq: Int
    /// The current samples, in `seq` order.
    package var samples: SampleBlock
    /// Sample id → version `row + 1` of ``samples``.
    var index: SampleIndex
    package var profileSleepTargetMinutes: Double?
    package var profileSeq: Int?
    package var syncStatus: SyncStatusProjection
    /// The metrics of every day at ``throughSeq``; `nil` in a snapshot without them.
    package var dailyMetrics: [DailyMetrics]?

    /// The snapshot of projections that have all folded the same events.
    /// - Complexity: O(n log n) for n current samples (sorting them, building
    ///   the index, computing the days' metrics from `trends`, which keeps every kind).
    package init(readiness: ReadinessProjection, trends: TrendsProjection, syncStatus: SyncStatusProjection) {
        throughSeq = max(readiness.throughSeq, syncStatus.throughSeq)
        samples = readiness.samples.liveBlock()
        index = SampleIndex(indexing: samples)
        profileSleepTargetMinutes = readiness.profileSleepTargetMinutes
        profileSeq = readiness.profileSeq
        self.syncStatus = syncStatus
        dailyMetrics = trends.samples.modelDailyValues().map(DailyMetrics.init)
    }

    init(throughSeq: Int, samples: SampleBlock, index: SampleIndex, profileSleepTargetMinutes: Double?, profileSeq: Int?,
         syncStatus: SyncStatusProjection, dailyMetrics: [DailyMetrics]?) {
        self.throughSeq = throughSeq
        self.samples = samples
        self.index = index
        self.profileSleepTargetMinutes = profileSleepTargetMinutes
        self.profileSeq = profileSeq
        self.syncStatus = syncStatus
        self.dailyMetrics = dailyMetrics
    }

    // MARK: - Restoring

    /// The four projections as they were when the snapshot was taken: the
    /// three sample stores reference the same rows and index, and fill their
    /// day lists concurrently.
    /// - Complexity: O(n) for n current samples; nothing is hashed or folded.
    package func restore() async -> StoreProjectionStates {
        async let readiness = { () -> ReadinessProjection in
            var state = ReadinessProjection()
            state.restore(samples: samples, index: index, throughSeq: throughSeq)
            state.restoreProfile(sleepTargetMinutes: profileSleepTargetMinutes, seq: profileSeq)
            if let dailyMetrics { state.restoreModelMetrics(dailyMetrics, throughSeq: throughSeq) }
            return state
        }()
        async let trends = restoredTrends()
        async let weeklyStats = Self.restored(WeeklyStatsProjection(), self)
        return StoreProjectionStates(readiness: await readiness, trends: await trends, weeklyStats: await weeklyStats,
                                     syncStatus: syncStatus)
    }

    /// The trends projection as the snapshot recorded it (it keeps every kind): the store's one sample store.
    func restoredTrends() -> TrendsProjection {
        var state = Self.restored(TrendsProjection(), self)
        if let dailyMetrics { state.restoreModelMetrics(dailyMetrics, throughSeq: throughSeq) }
        return state
    }

    /// A snapshot of one sample store's `samples` and the other projections'
    /// states, all at `throughSeq` (a store's fold).
    init(throughSeq: Int, samples: SampleBlock, profileSleepTargetMinutes: Double?, profileSeq: Int?,
         syncStatus: SyncStatusProjection, dailyMetrics: [DailyMetrics]?) {
        self.init(throughSeq: throughSeq, samples: samples, index: SampleIndex(indexing: samples),
                  profileSleepTargetMinutes: profileSleepTargetMinutes, profileSeq: profileSeq, syncStatus: syncStatus,
                  dailyMetrics: dailyMetrics)
    }

    private static func restored<State: SnapshotRestorable>(_ state: State, _ snapshot: ProjectionSnapshot) -> State {
        var state = state
        state.restore(samples: snapshot.samples, index: snapshot.index, throughSeq: snapshot.throughSeq)
        return state
    }

    // MARK: - The small parts

    /// What a snapshot holds besides its rows and index image, and how to read those.
    struct Meta {
        var throughSeq: Int
        var rowCount: Int
        var indexCapacity: Int
        var sources: [String]
        var fullSamples: [Sample]
        var profileSleepTargetMinutes: Double?
        var profileSeq: Int?
        var syncStatus: SyncStatusProjection
        var dailyMetrics: [DailyMetrics]?
    }

    /// ```
    /// throughSeq                 Int64
    /// rows: count                Int64 (the rows themselves are a section of their own)
    /// index: capacity            Int64 (its slots too)
    /// sources                    count, then length-prefixed UTF-8
    /// full samples               count, then each field by field (Sample+Snapshot.swift)
    /// profile                    present UInt8, minutes Double, seq Int64
    /// sync status                see SyncStatusProjection+Snapshot.swift
    /// daily metrics              present UInt8; count, then per day: ordinal Int64,
    ///                            which metrics it has UInt8 (bit i: TrendMetric.allCases[i]),
    ///                            and those values, Double each; then the HRV measure
    ///                            UInt8 (bits 0–1: 0 none, 1 sdnn, 2 rmssd; bit 2: the
    ///                            other measure's mean follows, Double)
    /// ```
    func writeMeta(to writer: inout BinaryWriter) {
        writer.integer(throughSeq)
        writer.integer(samples.count)
        writer.integer(index.capacity)
        writer.integer(samples.sources.count)
        for source in samples.sources { writer.string(source) }
        writer.integer(samples.fullSamples.count)
        for sample in samples.fullSamples { sample.writeSnapshot(to: &writer) }
        writer.uint8(profileSleepTargetMinutes == nil ? 0 : 1)
        writer.double(profileSleepTargetMinutes ?? 0)
        writer.integer(profileSeq ?? 0)
        syncStatus.write(to: &writer)
        writer.uint8(dailyMetrics == nil ? 0 : 1)
        guard let dailyMetrics else { return }
        writer.integer(dailyMetrics.count)
        for day in dailyMetrics {
            writer.integer(day.date.ordinal)
            writer.uint8(day.present)
            for (index, value) in day.values.enumerated() where day.present & (1 << UInt8(index)) != 0 { writer.double(value) }
            let measure: UInt8 = switch day.hrvMeasure { case nil: 0; case .sdnn: 1; case .rmssd: 2 }
            writer.uint8(measure | (day.otherHRV == nil ? 0 : 4))
            if let other = day.otherHRV { writer.double(other) }
        }
    }

    /// The meta part `reader` holds, or `nil` when its bytes are not a whole, valid one.
    static func readMeta(from reader: inout BinaryReader) -> Meta? {
        guard let throughSeq = reader.integer(), throughSeq >= 0, let rowCount = reader.integer(), rowCount >= 0,
              rowCount < Int(UInt32.max) - 1, let indexCapacity = reader.integer(), indexCapacity >= 0,
              let sourceCount = reader.count(itemBytes: 8)
        else { return nil }
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
        guard let hasProfile = reader.uint8(), let minutes = reader.double(), let profileSeq = reader.integer(),
              let syncStatus = SyncStatusProjection(from: &reader), let hasInputs = reader.uint8(), hasInputs <= 1
        else { return nil }
        var dailyMetrics: [DailyMetrics]?
        if hasInputs == 1 {
            guard let count = reader.count(itemBytes: 10) else { return nil }
            var days: [DailyMetrics] = []
            days.reserveCapacity(count)
            let metricCount = TrendMetric.allCases.count
            for _ in 0..<count {
                guard let ordinal = reader.integer(), -100_000_000 < ordinal, ordinal < 100_000_000, let present = reader.uint8(),
                      days.last.map({ $0.date.ordinal < ordinal }) ?? true
                else { return nil }
                var values = [Double](repeating: 0, count: metricCount)
                for index in 0..<metricCount where present & (1 << UInt8(index)) != 0 {
                    guard let value = reader.double() else { return nil }
                    values[index] = value
                }
                guard let hrv = reader.uint8(), hrv & 3 != 3, hrv < 8 else { return nil }
                let measure: HRVMeasure? = switch hrv & 3 { case 1: .sdnn; case 2: .rmssd; default: nil }
                var otherHRV: Double?
                if hrv & 4 != 0 {
                    guard let other = reader.double() else { return nil }
                    otherHRV = other
                }
                days.append(DailyMetrics(date: DayKey(ordinal: ordinal), present: present, values: values, hrvMeasure: measure,
                                         otherHRV: otherHRV))
            }
            dailyMetrics = days
        }
        return Meta(throughSeq: throughSeq, rowCount: rowCount, indexCapacity: indexCapacity, sources: sources,
                    fullSamples: fullSamples, profileSleepTargetMinutes: hasProfile == 1 ? minutes : nil,
                    profileSeq: hasProfile == 1 ? profileSeq : nil, syncStatus: syncStatus, dailyMetrics: dailyMetrics)
    }

    /// Whether `rows` are what ``writeMeta(to:)`` and the row section of a
    /// snapshot with `meta` can hold: each names a kind and points inside the
    /// tables it indexes, and their seqs rise and end at or before `throughSeq`.
    static func rowsAreValid(_ rows: [PackedSample], _ meta: Meta) -> Bool {
        var previousSeq = 0
        let kinds = UInt8(SampleKind.allCases.count)
        for row in rows {
            guard row.kindIndex < kinds, row.seq > previousSeq else { return false }
            previousSeq = row.seq
            if row.isFull {
                guard row.fullIndex >= 0, row.fullIndex < meta.fullSamples.count else { return false }
            } else {
                guard Int(row.source) < meta.sources.count else { return false }
            }
        }
        return previousSeq <= meta.throughSeq
    }

}

/// The four projections' states, restored together.
package struct StoreProjectionStates: Sendable {
    package var readiness: ReadinessProjection
    package var trends: TrendsProjection
    package var weeklyStats: WeeklyStatsProjection
    package var syncStatus: SyncStatusProjection
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
