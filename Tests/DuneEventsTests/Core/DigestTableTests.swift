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

    /// The slots live in a shared ``SlotTable``: a copy that adds keys (a
    /// store's `next` state, before the batch is written) must leave the
    /// original's lookups as they were, and the other way round — also for
    /// a table large enough for huge pages (2 MiB of slots).
    @Test(arguments: [100, 300_000])
    func copiesDoNotShareAdditions(count: Int) {
        func key(_ n: Int) -> ContentDigest { ContentDigest(high: UInt64(n) &* 0x9E37_79B9_7F4A_7C15, low: UInt64(n) | UInt64(n) << 32) }
        var original = DigestTable<Int>()
        original.reserveCapacity(2 * count)
        for n in 0..<count { original.append(key(n), n) }
        var copy = original
        for n in count..<(2 * count) { copy.append(key(n), n) }
        let extra = key(2 * count + 1)
        original.append(extra, -1)
        #expect(original.count == count + 1 && copy.count == 2 * count)
        for n in stride(from: 0, to: 2 * count, by: max(1, count / 500)) {
            #expect(original[key(n)] == (n < count ? n : nil))
            #expect(copy[key(n)] == n)
        }
        #expect(original[extra] == -1 && copy[extra] == nil)
    }

    /// ``DigestTable/warm(_:first:count:)`` only reads: lookups after it answer as before.
    @Test func warmingChangesNothing() {
        var table = DigestTable<Int>()
        let keys = (0..<64).map { ContentDigest(high: UInt64($0), low: UInt64($0) &* 0x9E37_79B9) }
        for (n, key) in keys.enumerated() where n % 2 == 0 { table.append(key, n) }
        _ = table.warm(keys, first: 1, count: 31)
        for (n, key) in keys.enumerated() { #expect(table[key] == (n % 2 == 0 ? n : nil)) }
    }
}
