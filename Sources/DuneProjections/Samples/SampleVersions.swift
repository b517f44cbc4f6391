import DuneEvents

/// Every sample version a ``SampleStore`` has seen, numbered 1, 2, 3, … in `seq` order.
///
/// Versions live in ``SampleBlock``s: blocks decoded by the log reader are
/// referenced, not copied (the projections fed the same ``EventBatch`` share
/// them), and samples applied one event at a time go to a private tail block
/// that is sealed every ``tailCapacity`` rows. A version number is its
/// block's first version plus the row, so numbers grow with `seq` and a
/// day's versions sort like its samples.
///
/// A value type: the tail is a struct of arrays (copy on write) and sealed
/// blocks are immutable.
struct SampleVersions: Sendable {
    /// Rows per sealed private block.
    static let tailCapacity = 4096
    /// Blocks smaller than this are copied into the tail instead of referenced.
    static let smallestShared = 256

    private(set) var blocks: [SampleBlock] = []
    /// `firstVersions[i]` is the version of `blocks[i].rows[0]`.
    private(set) var firstVersions: [UInt32] = []
    private var tail = SampleBlockBuilder()
    private var tailFirst: UInt32 = 1

    /// Versions `1…block.count` are the rows of `block`, referenced (a snapshot's live samples).
    init(restoring block: SampleBlock) {
        guard block.count > 0 else { return }
        precondition(UInt64(block.count) < UInt64(UInt32.max), "SampleStore holds at most 2^32 − 2 sample versions")
        blocks = [block]
        firstVersions = [1]
        tailFirst = 1 + UInt32(block.count)
    }

    init() {}

    /// The version the next appended row gets.
    var nextVersion: UInt32 { tailFirst + UInt32(tail.count) }

    /// Makes `block`'s rows versions `first…first+count−1` and returns `first`,
    /// or returns `nil` when the block is small and its rows should be copied
    /// with ``appendCopy(of:row:)``.
    mutating func reference(_ block: SampleBlock) -> UInt32? {
        guard block.count >= Self.smallestShared else { return nil }
        sealTail()
        let first = tailFirst
        precondition(UInt64(first) + UInt64(block.count) < UInt64(UInt32.max), "SampleStore holds at most 2^32 − 2 sample versions")
        blocks.append(block)
        firstVersions.append(first)
        tailFirst = first + UInt32(block.count)
        return first
    }

    /// Appends `sample` to the private tail; returns its version.
    mutating func append(_ sample: Sample, seq: Int) -> UInt32 {
        let version = nextVersion
        tail.append(sample, seq: seq)
        if tail.count >= Self.tailCapacity { sealTail() }
        return version
    }

    /// Copies row `row` of `block` into the private tail; returns its version.
    mutating func appendCopy(of block: SampleBlock, row: Int) -> UInt32 {
        append(block.sample(at: row), seq: block.rows[row].seq)
    }

    private mutating func sealTail() {
        guard !tail.isEmpty else { return }
        precondition(UInt64(nextVersion) < UInt64(UInt32.max), "SampleStore holds at most 2^32 − 2 sample versions")
        let block = tail.build()
        blocks.append(block)
        firstVersions.append(tailFirst)
        tailFirst += UInt32(block.count)
        tail = SampleBlockBuilder()
    }

    // MARK: - Reading a version

    /// Where a version lives.
    struct Location {
        /// `nil` for the private tail.
        var block: SampleBlock?
        var row: Int
    }

    @inline(__always)
    func locate(_ version: UInt32) -> Location {
        if version >= tailFirst { return Location(block: nil, row: Int(version - tailFirst)) }
        let index = Self.blockIndex(of: version, in: firstVersions)
        return Location(block: blocks[index], row: Int(version - firstVersions[index]))
    }

    /// The index of the block holding `version`: the last whose first version is not after it.
    /// - Complexity: O(log b) for b blocks.
    @inline(__always)
    static func blockIndex(of version: UInt32, in firstVersions: [UInt32]) -> Int {
        var low = 0
        var high = firstVersions.count
        while high - low > 1 {
            let mid = (low + high) / 2
            if firstVersions[mid] <= version { low = mid } else { high = mid }
        }
        return low
    }

    @inline(__always)
    func row(_ version: UInt32) -> PackedSample {
        let location = locate(version)
        return location.block?.rows[location.row] ?? tail.rows[location.row]
    }

    func sample(_ version: UInt32) -> Sample {
        let location = locate(version)
        if let block = location.block { return block.sample(at: location.row) }
        return tail.sample(at: location.row)
    }

    func storedSample(_ version: UInt32) -> StoredSample {
        StoredSample(sample: sample(version), seq: row(version).seq)
    }

    /// The source name of a packed row (full rows keep theirs in the sample).
    func sourceName(_ version: UInt32) -> String {
        let location = locate(version)
        let packed = location.block?.rows[location.row] ?? tail.rows[location.row]
        return location.block?.sources[Int(packed.source)] ?? tail.sources[Int(packed.source)]
    }

    /// The full sample of a row that is kept whole.
    func fullSample(_ version: UInt32) -> Sample {
        let location = locate(version)
        let packed = location.block?.rows[location.row] ?? tail.rows[location.row]
        return location.block?.fullSamples[packed.fullIndex] ?? tail.fullSamples[packed.fullIndex]
    }

    @inline(__always)
    func dayOrdinal(_ version: UInt32) -> Int {
        let packed = row(version)
        return packed.isFull ? fullSample(version).day.ordinal : packed.packedDayOrdinal
    }

    /// Whether the sample id of `version` is `key`.
    @inline(__always)
    func hasKey(_ version: UInt32, _ key: SampleKey) -> Bool {
        let packed = row(version)
        switch key {
        case .uuid(let id): return packed.hasPackedID && packed.packedID == id
        case .text(let text): return !packed.hasPackedID && fullSample(version).id == text
        }
    }

    /// Every block, the tail sealed into a temporary one, with first versions.
    var allBlocks: (blocks: [SampleBlock], firstVersions: [UInt32]) {
        guard !tail.isEmpty else { return (blocks, firstVersions) }
        return (blocks + [tail.build()], firstVersions + [tailFirst])
    }
}

extension SampleBlockBuilder {
    /// Row `row` as the sample it was packed from (see ``SampleBlock/sample(at:)``).
    func sample(at row: Int) -> Sample {
        let packed = rows[row]
        if packed.isFull { return fullSamples[packed.fullIndex] }
        return SampleBlock(rows: [packed], fullSamples: [], sources: sources).sample(at: 0)
    }
}
