/// Which sample versions of a ``SampleStore`` are current (in its id index),
/// a bit per version, and each current version's rank among them: its row
/// in a snapshot that keeps only the current versions, in version order.
///
/// 1.2 million versions take 150 KB of bits and 75 KB of ranks, where a
/// sorted list of the current versions would take 4.7 MB.
struct LiveVersions: Sendable {
    private var bits: [UInt64]
    /// `ranks[w]`: the current versions before word `w` of `bits`.
    private var ranks: [UInt32]
    /// Whether every version of `1…versionCount` is current.
    let allCurrent: Bool

    /// The current versions of `index`, among versions `1…versionCount`.
    init(_ index: SampleIndex, versionCount: Int) {
        allCurrent = index.count == versionCount
        bits = []
        ranks = []
        guard !allCurrent else { return }
        bits = [UInt64](repeating: 0, count: versionCount / 64 + 1)
        index.forEachVersion { version in bits[Int(version) / 64] |= 1 << (UInt64(version) % 64) }
        ranks.reserveCapacity(bits.count)
        var before: UInt32 = 0
        for word in bits {
            ranks.append(before)
            before += UInt32(word.nonzeroBitCount)
        }
    }

    @inline(__always)
    func contains(_ version: UInt32) -> Bool {
        allCurrent || bits[Int(version) / 64] & (1 << (UInt64(version) % 64)) != 0
    }

    /// The position (from 1) of current version `version` among the current versions.
    @inline(__always)
    func rank(of version: UInt32) -> UInt32 {
        if allCurrent { return version }
        let word = Int(version) / 64
        let below = bits[word] & ((1 << (UInt64(version) % 64)) - 1)
        return ranks[word] + UInt32(below.nonzeroBitCount) + 1
    }
}
