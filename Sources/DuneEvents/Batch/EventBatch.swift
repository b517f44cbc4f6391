/// Consecutive events of a log, decoded into a compact form, in `seq` order.
///
/// The fast replay path: `LogReader` decodes a log into batches of thousands
/// of events without building a `RecordedEvent` (and its five strings) per
/// sample, and projections fold the compact rows directly. Any event can
/// still be had in full — ``subscript(_:)`` rebuilds exactly the `RecordedEvent`
/// the reference decoder (`EventCodec.decode`) gives.
///
/// ```swift
/// try LogReader(path: path).forEachEventBatch { batch in
///     for index in 0..<batch.count { print(batch.seq(at: index), batch[index].event.payload) }
/// }
/// ```
package struct EventBatch: Sendable {
    /// Per event: `≥ 0` a row of ``samples``; `< 0` the index `~row` into ``others``.
    package var rows: [Int32]
    /// The `sample.ingested` events' samples, shared with the projections that keep them.
    package var samples: SampleBlock
    /// Every other event, in full (of the whole decoded chunk: a ``slice(_:)``
    /// shares it; read `otherEvents` (DuneTools) for the batch's own).
    package var others: [RecordedEvent]
    /// The envelope of each row of ``samples``.
    package var envelopes: [SampleEnvelope]
    /// What does not fit a ``SampleEnvelope``, by sample row (rare).
    package var envelopeExtras: [Int32: SampleEnvelopeExtra]
}

extension EventBatch {
    /// A batch of `events`, which must be in increasing `seq` order.
    package init(_ events: some Sequence<RecordedEvent>) {
        var builder = EventBatchBuilder()
        for event in events { builder.append(event) }
        self = builder.build()
    }

    /// The number of events.
    package var count: Int { rows.count }

    package var isEmpty: Bool { rows.isEmpty }

    /// The `seq` of the last event; `nil` when empty.
    package var lastSeq: Int? { isEmpty ? nil : seq(at: count - 1) }

    /// The `seq` of the event at `position`.
    @inline(__always)
    package func seq(at position: Int) -> Int {
        let row = rows[position]
        return row >= 0 ? samples.rows[Int(row)].seq : others[Int(~row)].seq
    }

    /// `recordedAt.instant` of the event at `position`.
    package func recordedAtInstant(at position: Int) -> Double {
        let row = rows[position]
        if row < 0 { return others[Int(~row)].recordedAt.instant }
        if let recordedAt = envelopeExtras[row]?.recordedAt { return recordedAt.instant }
        return envelopes[Int(row)].recordedAt.instant
    }

    /// The event at `position`, in full.
    package subscript(position: Int) -> RecordedEvent {
        let row = rows[position]
        if row < 0 { return others[Int(~row)] }
        let sampleRow = Int(row)
        let envelope = envelopes[sampleRow]
        let extra = envelope.hasExtra ? envelopeExtras[row] : nil
        let id = extra?.id ?? envelope.packedID.text
        let recordedAt = extra?.recordedAt ?? envelope.recordedAt.timestamp
        let event = Event(.sampleIngested(samples.sample(at: sampleRow)), eventID: extra?.eventID, extra: extra?.extra ?? JSONObject())
        return RecordedEvent(seq: samples.rows[sampleRow].seq, id: id, recordedAt: recordedAt, event: event,
                             storedVersion: Int(envelope.version))
    }

    /// Where this batch's events that are not `sample.ingested` lie in
    /// ``others``, in order: all of it, except in a ``slice(_:)``, which
    /// shares the whole array. Fold them as `batch.others[index]` for each
    /// index, without copying the events out as `otherEvents` (DuneTools) does.
    /// - Complexity: O(n) at worst (a batch of samples only); O(1) when the
    ///   first and last rows are other events.
    package var otherIndices: Range<Int> {
        guard let first = rows.first(where: { $0 < 0 }), let last = rows.last(where: { $0 < 0 }) else { return 0..<0 }
        return Int(~first)..<(Int(~last) + 1)
    }

    /// The events at `positions` (a contiguous part of this batch), sharing its storage.
    package func slice(_ positions: Range<Int>) -> EventBatch {
        EventBatch(rows: Array(rows[positions]), samples: samples, others: others, envelopes: envelopes,
                   envelopeExtras: envelopeExtras)
    }
}

/// The envelope of a `sample.ingested` row: event id and `recordedAt`.
package struct SampleEnvelope: Sendable {
    package var idHigh: UInt64
    package var idLow: UInt64
    package var recordedAt: PackedTimestamp
    /// ``PackedSample/idUppercase`` and ``hasExtraFlag``.
    package var flags: UInt8
    /// The stored line's `v` (``RecordedEvent/storedVersion``).
    package var version: UInt8

    /// The row has a ``SampleEnvelopeExtra``.
    package static let hasExtraFlag: UInt8 = 8

    package init(id: PackedUUID?, recordedAt: PackedTimestamp?, hasExtra: Bool, version: Int) {
        self.version = UInt8(truncatingIfNeeded: version)
        idHigh = id?.high ?? 0
        idLow = id?.low ?? 0
        self.recordedAt = recordedAt ?? PackedTimestamp(epochSeconds: 0, nanoseconds: 0, offsetMinutes: 0)
        flags = (id?.uppercase == true ? PackedSample.idUppercase : 0) | (hasExtra ? Self.hasExtraFlag : 0)
    }

    @inline(__always) package var hasExtra: Bool { flags & Self.hasExtraFlag != 0 }

    @inline(__always) package var packedID: PackedUUID {
        PackedUUID(high: idHigh, low: idLow, uppercase: flags & PackedSample.idUppercase != 0)
    }
}

/// The parts of a sample event's envelope and event that rarely occur.
package struct SampleEnvelopeExtra: Sendable {
    /// The event id, when it is not a canonical UUID.
    package var id: String?
    /// `recordedAt`, when its text is not canonical.
    package var recordedAt: Timestamp?
    package var eventID: String?
    package var extra: JSONObject?
}

/// Builds an ``EventBatch`` event by event.
package struct EventBatchBuilder: Sendable {
    package private(set) var rows: [Int32] = []
    package private(set) var samples: SampleBlockBuilder
    package private(set) var others: [RecordedEvent] = []
    private var envelopes: [SampleEnvelope] = []
    private var envelopeExtras: [Int32: SampleEnvelopeExtra] = [:]
    /// The seq of the last event appended (0 before any).
    package private(set) var lastSeq = 0

    package init(capacity: Int = 0) {
        rows.reserveCapacity(capacity)
        envelopes.reserveCapacity(capacity)
        samples = SampleBlockBuilder(capacity: capacity)
    }

    package var count: Int { rows.count }

    /// Appends any event (the general path).
    package mutating func append(_ recorded: RecordedEvent) {
        guard case .sampleIngested(let sample) = recorded.payload else {
            appendOther(recorded)
            return
        }
        let row = Int32(samples.count)
        samples.append(sample, seq: recorded.seq)
        let packedID = PackedUUID(recorded.id)
        let recordedAt = PackedTimestamp(recorded.recordedAt)
        let extra = SampleEnvelopeExtra(id: packedID == nil ? recorded.id : nil, recordedAt: recordedAt == nil ? recorded.recordedAt : nil,
                                        eventID: recorded.event.eventID,
                                        extra: recorded.event.extra.isEmpty ? nil : recorded.event.extra)
        let hasExtra = extra.id != nil || extra.recordedAt != nil || extra.eventID != nil || extra.extra != nil
        if hasExtra { envelopeExtras[row] = extra }
        envelopes.append(SampleEnvelope(id: packedID, recordedAt: recordedAt, hasExtra: hasExtra, version: recorded.storedVersion))
        rows.append(row)
        lastSeq = recorded.seq
    }

    /// Appends an event that is kept in full.
    @inline(__always)
    package mutating func appendOther(_ recorded: RecordedEvent) {
        rows.append(~Int32(others.count))
        others.append(recorded)
        lastSeq = recorded.seq
    }

    /// Appends a packed `sample.ingested` event; see ``SampleBlockBuilder/appendPacked(id:seq:kindIndex:value:start:end:source:hrvMeasure:)``.
    ///
    /// - Returns: `false` (nothing appended) when the source does not pack.
    @inline(__always)
    package mutating func appendPackedSample(eventID: PackedUUID, recordedAt: PackedTimestamp, sampleEventID: String?,
                                             id: PackedUUID, seq: Int, kindIndex: UInt8, value: Double,
                                             start: PackedTimestamp, end: PackedTimestamp, source: ByteView,
                                             hrvMeasure: HRVMeasure? = nil, version: Int = EventVersions.current(.sampleIngested)) -> Bool {
        let row = Int32(samples.count)
        guard samples.appendPacked(id: id, seq: seq, kindIndex: kindIndex, value: value, start: start, end: end, source: source,
                                   hrvMeasure: hrvMeasure) else {
            return false
        }
        if let sampleEventID { envelopeExtras[row] = SampleEnvelopeExtra(eventID: sampleEventID) }
        envelopes.append(SampleEnvelope(id: eventID, recordedAt: recordedAt, hasExtra: sampleEventID != nil, version: version))
        rows.append(row)
        lastSeq = seq
        return true
    }

    package func build() -> EventBatch {
        EventBatch(rows: rows, samples: samples.build(), others: others, envelopes: envelopes, envelopeExtras: envelopeExtras)
    }
}
