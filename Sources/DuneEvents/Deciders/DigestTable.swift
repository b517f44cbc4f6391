/// A map from ``ContentDigest`` to `Value`, for the deciders' idempotency state.
///
/// Digests are already uniformly mixed, so their bits are the hash: no
/// `Hasher` (SipHash) per lookup, and no hash seed — placement is the same
/// in every process. Entries live in two dense arrays in insertion order
/// (which is what the checkpoint file stores); an open-addressing table of
/// 8-byte slots (32 hash bits and the entry's index) points into them, at
/// most half full. The slots are a ``SlotTable`` (on huge pages where the
/// system offers them): a replay's probes of a million-sample table each
/// miss the cache, and ``warm(_:first:count:)`` lets it start a group's
/// misses together. The deciders only add and overwrite; entries are removed
/// only when `forget` erases samples (``removeEntries(at:)``, one pass that
/// keeps the others in their order). A value type: the arrays copy on
/// write, and the slots are copied before a write when shared.
struct DigestTable<Value: Sendable>: Sendable {
    /// Keys in insertion order.
    private(set) var keys: [ContentDigest] = []
    /// `values[i]` belongs to `keys[i]`.
    private(set) var values: [Value] = []
    /// 0 for an empty slot, else the key's 32 hash bits and its index + 1;
    /// `nil` before the first entry.
    private var table: SlotTable?

    init() {}

    /// A table of `keys` (distinct) and their `values`, e.g. read back from a checkpoint.
    init(keys: [ContentDigest], values: [Value]) {
        precondition(keys.count == values.count, "DigestTable: one value per key")
        self.keys = keys
        self.values = values
        rebuildSlots(capacity: Self.capacity(for: keys.count))
    }

    var count: Int { keys.count }

    private static func capacity(for count: Int) -> Int {
        var capacity = 64
        while capacity < count * 2 { capacity *= 2 }
        return capacity
    }

    /// The index of `key`'s entry.
    @inline(__always)
    func index(of key: ContentDigest) -> Int? {
        guard let table else { return nil }
        let slots = table.slots
        let fingerprint = key.low & 0xFFFF_FFFF
        let mask = table.capacity - 1
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if entry >> 32 == fingerprint {
                let index = Int(entry & 0xFFFF_FFFF) - 1
                if keys[index] == key { return index }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Loads the home slot of the key `digests[first + k * 2]` for each k
    /// below `count`, so that the lookups that follow find them in the
    /// cache: independent loads overlap, where lookups one by one would each
    /// wait for memory. Returns a value derived from the loads (keep it, or
    /// the loads may be optimised away).
    @inline(__always)
    func warm(_ digests: [ContentDigest], first: Int, count: Int) -> UInt64 {
        guard let table else { return 0 }
        let mask = table.capacity - 1
        var sink: UInt64 = 0
        for k in 0..<count { sink ^= table.slots[Int(truncatingIfNeeded: digests[first + k * 2].low & 0xFFFF_FFFF) & mask] }
        return sink
    }

    @inline(__always)
    subscript(key: ContentDigest) -> Value? {
        index(of: key).map { values[$0] }
    }

    /// Whether `key` has an entry.
    @inline(__always)
    func contains(_ key: ContentDigest) -> Bool {
        index(of: key) != nil
    }

    /// Makes room for `count` entries in all, so that adding up to that many
    /// grows no array and places no entry twice.
    mutating func reserveCapacity(_ count: Int) {
        keys.reserveCapacity(count)
        values.reserveCapacity(count)
        if Self.capacity(for: count) > capacity { rebuildSlots(capacity: Self.capacity(for: count)) }
    }

    /// Sets `key`'s value, adding the entry if new; returns its index.
    @discardableResult
    mutating func set(_ key: ContentDigest, _ value: Value) -> Int {
        if let index = index(of: key) {
            values[index] = value
            return index
        }
        return append(key, value)
    }

    /// Adds an entry for `key`, which must not have one.
    @discardableResult
    mutating func append(_ key: ContentDigest, _ value: Value) -> Int {
        let index = keys.count
        precondition(index < Int(UInt32.max) - 1, "DigestTable holds at most 2^32 − 2 entries")
        keys.append(key)
        values.append(value)
        if keys.count * 2 > capacity {
            rebuildSlots(capacity: Self.capacity(for: keys.count))
        } else {
            place(index)
        }
        return index
    }

    /// Changes the value at `index` in place.
    @inline(__always)
    mutating func update(at index: Int, _ body: (inout Value) -> Void) {
        body(&values[index])
    }

    /// Removes the entries at `indices` (in any order, each at most once),
    /// keeping the others in their insertion order.
    ///
    /// - Complexity: O(n) for n entries; nothing is done when `indices` is empty.
    mutating func removeEntries(at indices: [Int]) {
        guard !indices.isEmpty else { return }
        var removed = [Bool](repeating: false, count: keys.count)
        for index in indices { removed[index] = true }
        var keptKeys: [ContentDigest] = []
        var keptValues: [Value] = []
        keptKeys.reserveCapacity(keys.count - indices.count)
        keptValues.reserveCapacity(keys.count - indices.count)
        for index in keys.indices where !removed[index] {
            keptKeys.append(keys[index])
            keptValues.append(values[index])
        }
        keys = keptKeys
        values = keptValues
        rebuildSlots(capacity: Self.capacity(for: keys.count))
    }

    /// The number of slots (0 before the first entry).
    private var capacity: Int { table?.capacity ?? 0 }

    private mutating func place(_ index: Int) {
        if !isKnownUniquelyReferenced(&table), let shared = table { table = shared.copy() }
        guard let table else { return }
        Self.placing(index, key: keys[index], in: table)
    }

    private static func placing(_ index: Int, key: ContentDigest, in table: SlotTable) {
        let fingerprint = key.low & 0xFFFF_FFFF
        let mask = table.capacity - 1
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        while table.slots[slot] != 0 { slot = (slot + 1) & mask }
        table.slots[slot] = fingerprint << 32 | UInt64(index + 1)
    }

    private mutating func rebuildSlots(capacity: Int) {
        let rebuilt = SlotTable(capacity: capacity)
        for index in keys.indices { Self.placing(index, key: keys[index], in: rebuilt) }
        table = rebuilt
    }
}
