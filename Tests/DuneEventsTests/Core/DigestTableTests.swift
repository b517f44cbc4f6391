import Testing
@testable import DuneEvents

/// ``DigestTable`` against `Dictionary`: seeded random inserts, overwrites, in-place
/// updates, deletes (``DigestTable/removeEntries(at:)``, as `forget` uses it) and
/// lookups, with keys that share their 32 hash bits so that probing runs long, and
/// a rebuild from the entries.
@Suite struct DigestTableTests {
    @Test(arguments: [0x5EED_0001, 0x5EED_0002, 0x5EED_0003] as [UInt64])
    func agreesWithADictionary(seed: UInt64) {
        var random = SplitMix(seed: seed)
        var table = DigestTable<Int>()
        var reference: [ContentDigest: Int] = [:]
        var order: [ContentDigest] = []
        /// A key drawn from a small pool, its low 32 bits (the table's hash) from a smaller one.
        func key() -> ContentDigest {
            let n = random.next() % 3000
            return ContentDigest(high: n &* 0x9E37_79B9_7F4A_7C15, low: (n % 40) | (n << 32))
        }
        for step in 0..<20_000 {
            let k = key()
            switch random.next() % 5 {
            case 0:
                let value = Int(truncatingIfNeeded: random.next())
                let index = table.set(k, value)
                if reference.updateValue(value, forKey: k) == nil { order.append(k) }
                #expect(table.keys[index] == k)
            case 1:
                if let index = table.index(of: k) {
                    let delta = Int(random.next() % 100)
                    table.update(at: index) { $0 &+= delta }
                    reference[k]? &+= delta
                } else {
                    #expect(reference[k] == nil)
                }
            case 2 where step % 50 == 0:
                // Remove a few entries at once, this key's among them when it has one.
                var indices = Set((0..<Int(random.next() % 4)).compactMap { _ in order.isEmpty ? nil : Int(random.next() % UInt64(order.count)) })
                if let index = table.index(of: k) { indices.insert(index) }
                let gone = Set(indices.map { order[$0] })
                table.removeEntries(at: Array(indices))
                for key in gone { reference[key] = nil }
                order.removeAll { gone.contains($0) }
                #expect(table[k] == nil)
            default:
                #expect(table[k] == reference[k], "step \(step)")
                #expect(table.contains(k) == (reference[k] != nil))
            }
            #expect(table.count == reference.count)
        }
        #expect(table.keys == order)
        #expect(table.values == order.map { reference[$0]! })
        let rebuilt = DigestTable(keys: table.keys, values: table.values)
        for k in order { #expect(rebuilt[k] == reference[k]) }
        for n in 3000..<3100 as Range<UInt64> { #expect(rebuilt[ContentDigest(high: n, low: n % 40)] == nil) }
    }
}
