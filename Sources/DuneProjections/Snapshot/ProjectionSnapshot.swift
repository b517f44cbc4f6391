import DuneEvents

/// The four projections' state at one seq, as the bytes `<log>.snapshot`
/// keeps: enough to restore them without replaying the log before that seq.
///
/// What it keeps is what the folds' results depend on, nothing more:
/// - every current sample (the last version of each id not deleted), in
///   `seq` order — the three sample projections are restored by folding them,
///   which gives the same stores as the full history did;
/// - the latest sleep target and its seq;
/// - the sync-status state as it is (it counts every refresh and task event,
///   so it cannot be refolded from fewer events);
/// - the seq it was taken at.
///
/// ## Encoding (little-endian, see `BinaryWriter`)
///
/// ```
/// throughSeq                         Int64
/// samples: count                     Int64
///          rows                      64 bytes each (PackedSample, field by field)
///          sources                   count, then length-prefixed UTF-8
///          full samples              count, then length-prefixed stored lines
/// profile: present UInt8, minutes Double, seq Int64
/// sync status (see SyncStatusProjection+Snapshot.swift)
/// ```
package struct ProjectionSnapshot: Sendable {
    /// Bumped whenever this encoding changes.
    package static let formatVersion: UInt32 = 1

    /// The fold versions the snapshot's state came from, in ``ProjectionName``
    /// order: a snapshot whose versions differ from the running code's is stale.
    package static var foldVersions: [UInt32] {
        [ReadinessProjection.foldVersion, TrendsProjection.foldVersion, WeeklyStatsProjection.foldVersion,
         SyncStatusProjection.foldVersion]
    }

    package var throughSeq: Int
    /// The current samples, in `seq` order.
    package var samples: SampleBlock
    package var profileSleepTargetMinutes: Double?
    package var profileSeq: Int?
    package var syncStatus: SyncStatusProjection

    /// The snapshot of projections that have all folded the same events.
    package init(readiness: ReadinessProjection, syncStatus: SyncStatusProjection) {
        throughSeq = max(readiness.throughSeq, syncStatus.throughSeq)
        samples = readiness.samples.liveBlock()
        profileSleepTargetMinutes = readiness.profileSleepTargetMinutes
        profileSeq = readiness.profileSeq
        self.syncStatus = syncStatus
    }

    // MARK: - Restoring

    /// The four projections as they were when the snapshot was taken, the
    /// three sample projections folded concurrently.
    package func restore() async -> StoreProjectionStates {
        let batch = EventBatch(liveSamples: samples)
        async let readiness = { () -> ReadinessProjection in
            var state = ReadinessProjection()
            state.reserveCapacity(samples: samples.count)
            state.apply(batch)
            state.restoreProfile(sleepTargetMinutes: profileSleepTargetMinutes, seq: profileSeq)
            state.advance(throughSeq: throughSeq)
            return state
        }()
        async let trends = Self.restored(TrendsProjection(), from: batch, throughSeq: throughSeq)
        async let weeklyStats = Self.restored(WeeklyStatsProjection(), from: batch, throughSeq: throughSeq)
        return StoreProjectionStates(readiness: await readiness, trends: await trends, weeklyStats: await weeklyStats,
                                     syncStatus: syncStatus)
    }

    private static func restored<State: SnapshotRestorable & SampleReserving>(_ state: State, from batch: EventBatch,
                                                                             throughSeq: Int) -> State {
        var state = state
        state.reserveCapacity(samples: batch.count)
        state.apply(batch)
        state.advance(throughSeq: throughSeq)
        return state
    }

    // MARK: - Bytes

    package func write(to writer: inout BinaryWriter) {
        writer.integer(throughSeq)
        writer.integer(samples.count)
        for row in samples.rows { Self.write(row, to: &writer) }
        writer.integer(samples.sources.count)
        for source in samples.sources { writer.string(source) }
        writer.integer(samples.fullSamples.count)
        for sample in samples.fullSamples {
            // A full sample is kept as the stored line of an event that carries it (its row has the
            // real seq): the codec that reads the log reads it back exactly.
            writer.data(EventCodec.encodeLine(RecordedEvent(seq: 1, id: Self.placeholderEventID, recordedAt: Self.placeholderTime,
                                                            event: Event(.sampleIngested(sample)))))
        }
        writer.uint8(profileSleepTargetMinutes == nil ? 0 : 1)
        writer.double(profileSleepTargetMinutes ?? 0)
        writer.integer(profileSeq ?? 0)
        syncStatus.write(to: &writer)
    }

    /// The snapshot `reader` holds, or `nil` when its bytes are not a whole, valid one.
    package init?(from reader: inout BinaryReader) {
        guard let throughSeq = reader.integer(), let count = reader.count(itemBytes: 64) else { return nil }
        var rows: [PackedSample] = []
        rows.reserveCapacity(count)
        let complete: Void? = reader.withBytes(count * 64) { bytes in
            for index in 0..<count { rows.append(Self.row(bytes, at: index * 64)) }
        }
        guard complete != nil, let sourceCount = reader.count(itemBytes: 8) else { return nil }
        var sources: [String] = []
        for _ in 0..<sourceCount {
            guard let source = reader.string() else { return nil }
            sources.append(source)
        }
        guard let fullCount = reader.count(itemBytes: 8) else { return nil }
        var fullSamples: [Sample] = []
        for _ in 0..<fullCount {
            guard let line = reader.data(),
                  let event = try? line.withUnsafeBytes({ try EventCodec.decode($0) }),
                  case .sampleIngested(let sample) = event.payload
            else { return nil }
            fullSamples.append(sample)
        }
        // Every row must point inside the tables it indexes.
        for row in rows {
            guard row.kindIndex < SampleKind.allCases.count else { return nil }
            if row.isFull {
                guard row.fullIndex >= 0, row.fullIndex < fullSamples.count else { return nil }
            } else {
                guard Int(row.source) < sources.count else { return nil }
            }
        }
        guard let hasProfile = reader.uint8(), let minutes = reader.double(), let profileSeq = reader.integer(),
              let syncStatus = SyncStatusProjection(from: &reader)
        else { return nil }
        self.throughSeq = throughSeq
        samples = SampleBlock(rows: rows, fullSamples: fullSamples, sources: sources)
        profileSleepTargetMinutes = hasProfile == 1 ? minutes : nil
        self.profileSeq = hasProfile == 1 ? profileSeq : nil
        self.syncStatus = syncStatus
    }

    private static let placeholderEventID = "00000000-0000-7000-8000-000000000000"
    private static let placeholderTime = Timestamp(epochSeconds: 0, offsetSeconds: 0)

    private static func write(_ row: PackedSample, to writer: inout BinaryWriter) {
        writer.uint64(row.idHigh)
        writer.uint64(row.idLow)
        writer.integer(row.seq)
        writer.double(row.value)
        writer.uint64(UInt64(bitPattern: row.startSeconds))
        writer.uint64(UInt64(bitPattern: row.endSeconds))
        writer.uint32(UInt32(bitPattern: row.startNanoseconds))
        writer.uint32(UInt32(bitPattern: row.endNanoseconds))
        writer.uint16(UInt16(bitPattern: row.startOffsetMinutes))
        writer.uint16(UInt16(bitPattern: row.endOffsetMinutes))
        writer.uint16(row.source)
        writer.uint8(row.kindIndex)
        writer.uint8(row.flags)
    }

    @inline(__always)
    private static func row(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> PackedSample {
        @inline(__always) func load<T: FixedWidthInteger>(_ at: Int, _ type: T.Type) -> T {
            T(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + at, as: T.self))
        }
        return PackedSample(idHigh: load(0, UInt64.self), idLow: load(8, UInt64.self), seq: Int(Int64(bitPattern: load(16, UInt64.self))),
                            value: Double(bitPattern: load(24, UInt64.self)),
                            startSeconds: Int64(bitPattern: load(32, UInt64.self)), endSeconds: Int64(bitPattern: load(40, UInt64.self)),
                            startNanoseconds: Int32(bitPattern: load(48, UInt32.self)), endNanoseconds: Int32(bitPattern: load(52, UInt32.self)),
                            startOffsetMinutes: Int16(bitPattern: load(56, UInt16.self)), endOffsetMinutes: Int16(bitPattern: load(58, UInt16.self)),
                            source: load(60, UInt16.self), kindIndex: load(62, UInt8.self), flags: load(63, UInt8.self))
    }
}

/// The four projections' states, restored together.
package struct StoreProjectionStates: Sendable {
    package var readiness: ReadinessProjection
    package var trends: TrendsProjection
    package var weeklyStats: WeeklyStatsProjection
    package var syncStatus: SyncStatusProjection
}

extension EventBatch {
    /// A batch of the sample events of `block`, every row in order: how a
    /// snapshot's samples are folded back into projections.
    package init(liveSamples block: SampleBlock) {
        let envelope = SampleEnvelope(id: nil, recordedAt: nil, hasExtra: false)
        self.init(rows: (0..<Int32(block.count)).map { $0 }, samples: block, others: [],
                  envelopes: Array(repeating: envelope, count: block.count), envelopeExtras: [:])
    }
}
