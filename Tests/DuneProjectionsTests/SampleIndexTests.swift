import Testing
import DuneEvents
@testable import DuneProjections

/// ``SampleIndex`` against `Dictionary`: seeded random inserts, updates, deletes and
/// lookups, with hashes that collide in the kept 32 bits so that probe runs are long
/// and deletion's backward shift moves entries; a copy taken midway must not change.
@Suite struct SampleIndexTests {
    @Test(arguments: [0x1D_0001, 0x1D_0002, 0x1D_0003] as [UInt64])
    func agreesWithADictionary(seed: UInt64) throws {
        var random = Xoshiro256StarStar(seed, ~seed, seed >> 7 | 1, 0x5A4D)
        var index = SampleIndex()
        var reference: [UInt64: UInt32] = [:]   // key → current version
        var keyOfVersion: [UInt32: UInt64] = [:]
        var nextVersion: UInt32 = 1
        /// Keys 0..<4000; 16 keys share each 32-bit fingerprint.
        func hash(_ key: UInt64) -> UInt64 { (key / 16 + 1) &* 0x9E37_79B9_7F4A_7C15 }
        func find(_ key: UInt64, in index: SampleIndex) -> (slot: Int, version: UInt32)? {
            index.find(hash: hash(key)) { keyOfVersion[$0] == key }
        }
        var snapshot: (index: SampleIndex, reference: [UInt64: UInt32])?
        for step in 0..<40_000 {
            let key = random.next() % 4000
            let found = find(key, in: index)
            #expect(found?.version == reference[key], "step \(step)")
            switch random.next() % 5 {
            case 0, 1:
                let version = nextVersion
                nextVersion += 1
                keyOfVersion[version] = key
                if let found {
                    index.update(slot: found.slot, version: version)
                } else {
                    index.insert(hash: hash(key), version: version)
                }
                reference[key] = version
            case 2:
                if let found {
                    index.remove(slot: found.slot)
                    reference[key] = nil
                }
            default:
                break
            }
            #expect(index.count == reference.count)
            if step == 20_000 { snapshot = (index, reference) }
        }
        #expect(index.versions.sorted() == reference.values.sorted())
        for key in 0..<4000 as Range<UInt64> { #expect(find(key, in: index)?.version == reference[key]) }
        let (copy, copied) = try #require(snapshot)
        #expect(copy.count == copied.count)
        #expect(copy.versions.sorted() == copied.values.sorted())
        for key in 0..<4000 as Range<UInt64> { #expect(find(key, in: copy)?.version == copied[key]) }
    }
}
