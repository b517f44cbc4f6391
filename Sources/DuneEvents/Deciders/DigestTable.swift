/// A map from ``ContentDigest`` to `Value`, for the deciders' idempotency state.
///
/// Digests are already uniformly mixed, so their bits are the hash: no
/// `Hasher` (SipHash) per lookup, and no hash seed — placement is the same
/// in every process. Entries live in two dense arrays in insertion order
/// (which is what the checkpoint file stores); an open-addressing slot table
/// of 8-byte slots (32 hash bits and the entry's index) points into them, at
/// most half full. The deciders only add and overwrite; entries are removed
/// only when `forget` erases samples (``removeEntries(at:)``, one pass that
/// keeps the others in their order). A value type: the arrays copy on write.
struct DigestTable<Value: Sendable>: Sendable {
    /// Keys in insertion order.
    private(set) var keys: [ContentDigest] = []
    /// `values[i]` belongs to `keys[i]`.
    private(set) var values: [Value] = []
    /// 0 for an empty slot, else the key's 32 hash bits and its index + 1.
    private var slots: [UInt64] = []

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
        guard !slots.isEmpty else { return nil }
        let fingerprint = key.low & 0xFFFF_FFFF
        let mask = slots.count - 1
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
        if Self.capacity(for: count) > slots.count { rebuildSlots(capacity: Self.capacity(for: count)) }
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
        if keys.count * 2 > slots.count {
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

    private mutating func place(_ index: Int) {
        let fingerprint = keys[index].low & 0xFFFF_FFFF
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = fingerprint << 32 | UInt64(index + 1)
    }

    private mutating func rebuildSlots(capacity: Int) {
        slots = [UInt64](repeating: 0, count: capacity)
        for index in keys.indices { place(index) }
    }
}
