/// Sample versions decoded together, in compact rows; immutable once built, so
/// every projection fed the same batch can keep a reference instead of a copy.
///
/// Rows are in `seq` order. Use ``sample(at:)`` to get a row back as the
/// ``Sample`` it was packed from (byte for byte the same strings).
package final class SampleBlock: Sendable {
    /// In memory, or in place in a mapped snapshot (see ``PackedRows``).
    package let rows: PackedRows
    /// Samples that do not pack (see ``PackedSample``).
    package let fullSamples: [Sample]
    /// The distinct source names of the packed rows, byte for byte as written.
    package let sources: [String]

    package init(rows: PackedRows, fullSamples: [Sample], sources: [String]) {
        self.rows = rows
        self.fullSamples = fullSamples
        self.sources = sources
    }

    package convenience init(rows: [PackedSample], fullSamples: [Sample], sources: [String]) {
        self.init(rows: PackedRows(rows), fullSamples: fullSamples, sources: sources)
    }

    package var count: Int { rows.count }

    /// Row `row` as the sample it was packed from.
    package func sample(at row: Int) -> Sample {
        let packed = rows[row]
        if packed.isFull { return fullSamples[packed.fullIndex] }
        let kind = packed.kind
        let reading: Sample.Reading
        if kind == .sleep {
            reading = .sleep(SleepStage.packed(Int(packed.value)))
        } else {
            reading = .quantity(Quantity(value: packed.value, inputValue: packed.value, inputUnit: kind.canonicalUnit ?? ""))
        }
        return Sample(id: packed.packedID.text, kind: kind, start: packed.start.timestamp, end: packed.end.timestamp,
                      source: sources[Int(packed.source)], reading: reading,
                      hrvMeasure: kind == .hrv ? packed.hrvMeasure : nil)
    }

    /// The key of row `row`'s sample id.
    @inline(__always)
    package func key(at row: Int) -> SampleKey {
        let packed = rows[row]
        if packed.hasPackedID { return .uuid(packed.packedID) }
        return .text(fullSamples[packed.fullIndex].id)
    }
}

/// A sample id as a hash-table key: a packed UUID, or the text of any other id.
///
/// An id that packs never equals one that does not (packing depends on the
/// text alone), so comparing keys is comparing ids.
package enum SampleKey: Sendable, Hashable {
    case uuid(PackedUUID)
    case text(String)

    package init(_ id: String) {
        if let packed = PackedUUID(id) { self = .uuid(packed) } else { self = .text(id) }
    }

    /// A 64-bit hash, the same in every process.
    @inline(__always)
    package var hash64: UInt64 {
        switch self {
        case .uuid(let packed): packed.hashValue64
        case .text(let text): ContentDigest(string: text).low
        }
    }

    /// Whether the key is the packed id `packed`.
    @inline(__always)
    package func equals(_ packed: PackedUUID) -> Bool {
        if case .uuid(let mine) = self { return mine == packed }
        return false
    }
}

/// Collects rows for a ``SampleBlock``.
package struct SampleBlockBuilder: Sendable {
    package private(set) var rows: [PackedSample] = []
    package private(set) var fullSamples: [Sample] = []
    package private(set) var sources: [String] = []
    private var sourceBytes: [[UInt8]] = []
    /// For each of ``sources``, the measure an hrv sample from it has when
    /// its line names none (``HRVMeasure/init(source:)``), computed once.
    private var sourceMeasures: [HRVMeasure] = []
    private var lastSource = -1
    /// Source bytes → index, once a block has more than ``scannedSources``
    /// sources (a day of samples from thousands of sources would otherwise scan
    /// them all per sample). Only looked up, never iterated.
    private var sourceIndexByBytes: [[UInt8]: UInt16] = [:]
    private static let scannedSources = 16

    package init(capacity: Int = 0) {
        rows.reserveCapacity(capacity)
    }

    package var count: Int { rows.count }
    package var isEmpty: Bool { rows.isEmpty }

    /// Appends `sample` (version `seq`), packed when it can be rebuilt exactly.
    package mutating func append(_ sample: Sample, seq: Int) {
        if let packedID = PackedUUID(sample.id), let start = PackedTimestamp(sample.start), let end = PackedTimestamp(sample.end) {
            var value: Double?
            switch sample.reading {
            case .quantity(let quantity):
                if sample.kind != .sleep, sample.kind != .workout, quantity.inputUnit == sample.kind.canonicalUnit,
                   quantity.inputValue.bitPattern == quantity.value.bitPattern {
                    value = quantity.value
                }
            case .sleep(let stage):
                if sample.kind == .sleep { value = Double(stage.packedIndex) }
            case .workout:
                break
            }
            if let value {
                let index = ByteView.with(sample.source) { internSource($0, validated: sample.source) }
                if let index {
                    rows.append(PackedSample(
                        idHigh: packedID.high, idLow: packedID.low, seq: seq, value: value,
                        startSeconds: start.epochSeconds, endSeconds: end.epochSeconds,
                        startNanoseconds: start.nanoseconds, endNanoseconds: end.nanoseconds,
                        startOffsetMinutes: start.offsetMinutes, endOffsetMinutes: end.offsetMinutes,
                        source: index, kindIndex: sample.kind.packedIndex,
                        flags: PackedSample.idPacked | (packedID.uppercase ? PackedSample.idUppercase : 0)
                            | PackedSample.measureFlags(kindIndex: sample.kind.packedIndex, sample.hrvMeasure)))
                    return
                }
            }
        }
        appendFull(sample, seq: seq)
    }

    /// Appends a sample that is kept whole.
    package mutating func appendFull(_ sample: Sample, seq: Int) {
        let packedID = PackedUUID(sample.id)
        var flags = PackedSample.full | PackedSample.measureFlags(kindIndex: sample.kind.packedIndex, sample.hrvMeasure)
        if let packedID { flags |= PackedSample.idPacked | (packedID.uppercase ? PackedSample.idUppercase : 0) }
        rows.append(PackedSample(
            idHigh: packedID?.high ?? 0, idLow: packedID?.low ?? 0, seq: seq,
            value: Double(bitPattern: UInt64(fullSamples.count)),
            startSeconds: 0, endSeconds: 0, startNanoseconds: 0, endNanoseconds: 0, startOffsetMinutes: 0, endOffsetMinutes: 0,
            source: 0, kindIndex: sample.kind.packedIndex, flags: flags))
        fullSamples.append(sample)
    }

    /// Appends a packed quantity or sleep row whose source is `source` (UTF-8 bytes).
    ///
    /// - Parameter hrvMeasure: For an hrv row, the measure its line names;
    ///   `nil` takes the source's rule (``HRVMeasure/init(source:)``).
    /// - Returns: `false` (nothing appended) when the source is not valid
    ///   UTF-8 or the block has no room for another source name.
    @inline(__always)
    package mutating func appendPacked(id: PackedUUID, seq: Int, kindIndex: UInt8, value: Double,
                                       start: PackedTimestamp, end: PackedTimestamp,
                                       source: ByteView, hrvMeasure: HRVMeasure? = nil) -> Bool {
        guard let sourceIndex = internSource(source, validated: nil) else { return false }
        let measureFlags = kindIndex == SampleKind.hrvIndex
            ? PackedSample.measureFlags(kindIndex: kindIndex, hrvMeasure ?? sourceMeasures[Int(sourceIndex)]) : 0
        rows.append(PackedSample(
            idHigh: id.high, idLow: id.low, seq: seq, value: value,
            startSeconds: start.epochSeconds, endSeconds: end.epochSeconds,
            startNanoseconds: start.nanoseconds, endNanoseconds: end.nanoseconds,
            startOffsetMinutes: start.offsetMinutes, endOffsetMinutes: end.offsetMinutes,
            source: sourceIndex, kindIndex: kindIndex,
            flags: PackedSample.idPacked | (id.uppercase ? PackedSample.idUppercase : 0) | measureFlags))
        return true
    }

    /// The index of the source with exactly these bytes, adding it if new.
    @inline(__always)
    private mutating func internSource(_ bytes: ByteView, validated: String?) -> UInt16? {
        if lastSource >= 0, Self.equal(sourceBytes[lastSource], bytes) { return UInt16(lastSource) }
        if sourceBytes.count <= Self.scannedSources {
            for index in sourceBytes.indices where Self.equal(sourceBytes[index], bytes) {
                lastSource = index
                return UInt16(index)
            }
        } else if let index = sourceIndexByBytes[bytes.copied] {
            lastSource = Int(index)
            return index
        }
        guard sources.count < Int(UInt16.max) else { return nil }
        let name: String
        if let validated {
            name = validated
        } else {
            guard let checked = bytes.utf8String else { return nil }
            name = checked
        }
        sources.append(name)
        sourceMeasures.append(HRVMeasure(sourceBytes: bytes))
        sourceBytes.append(bytes.copied)
        lastSource = sources.count - 1
        if sourceBytes.count > Self.scannedSources {
            if sourceIndexByBytes.isEmpty {
                for (index, stored) in sourceBytes.enumerated() { sourceIndexByBytes[stored] = UInt16(index) }
            } else {
                sourceIndexByBytes[sourceBytes[lastSource]] = UInt16(lastSource)
            }
        }
        return UInt16(lastSource)
    }

    @inline(__always)
    private static func equal(_ stored: [UInt8], _ bytes: ByteView) -> Bool {
        guard stored.count == bytes.count else { return false }
        return ByteView.with(stored) { $0 == bytes }
    }

    /// The block. Rows reserved for a whole chunk's lines but not filled
    /// (a chunk's refresh and task lines: one in four of a long history)
    /// are given back: the block lives as long as the samples it holds.
    package func build() -> SampleBlock {
        SampleBlock(rows: Self.trimmed(rows), fullSamples: fullSamples, sources: sources)
    }

    /// `rows` in a buffer of its own size when more than an eighth of its capacity is unused.
    static func trimmed(_ rows: [PackedSample]) -> [PackedSample] {
        guard rows.capacity - rows.count > rows.count / 8 else { return rows }
        return Array(rows[...])  // a copy into a buffer allocated for `count` rows
    }
}
