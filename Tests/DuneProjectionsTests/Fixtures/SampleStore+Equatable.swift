@testable import DuneProjections

/// Stores are equal when they track the same samples (id, version `seq` and
/// day) with the same content — however they were fed. Only the tests
/// compare stores (a restored one with the one it was taken of, a batched
/// fold with an event-by-event one).
extension SampleStore: Equatable {
    public static func == (lhs: SampleStore, rhs: SampleStore) -> Bool {
        guard lhs.count == rhs.count, lhs.days == rhs.days
        else { return false }
        for day in lhs.days where lhs.samples(on: day) != rhs.samples(on: day) { return false }
        for version in lhs.index.versions {
            let key = lhs.versions.key(version)
            guard let other = rhs.index.find(hash: key.hash64, matches: { rhs.versions.hasKey($0, key) }),
                  lhs.versions.row(version).seq == rhs.versions.row(other.version).seq,
                  lhs.versions.dayOrdinal(version) == rhs.versions.dayOrdinal(other.version)
            else { return false }
        }
        return true
    }
}

extension SampleVersions {
    /// The sample id of `version`, as a key.
    fileprivate func key(_ version: UInt32) -> SampleKey {
        let packed = row(version)
        return packed.hasPackedID ? .uuid(packed.packedID) : .text(fullSample(version).id)
    }
}
