import DuneEvents

/// Sample id → current version: an open-addressing hash table of 8-byte slots.
///
/// A slot holds 32 bits of the id's hash and the version (0 marks an empty
/// slot). Keys themselves stay in the version's block, so the table costs
/// 8–20 bytes per sample; the stored hash bits make a probe touch the block
/// only on a real candidate. Linear probing, at most 5/8 full, deletion by
/// backward shift (no tombstones). Placement depends only on the ids, never
/// on the process's hash seed — and nothing is ever read out of it in table
/// order, so it cannot affect any output.
///
/// Random ids make every lookup a cache miss; the slots of a large table sit
/// on 2 MiB pages (``SlotTable``) so that the miss is not also a TLB miss,
/// and ``warm(_:count:)`` lets a caller start a group's misses together.
/// A value type: the storage is copied before a write when shared.
///
/// One of the few owners of raw memory (the slots, through ``SlotTable``).
/// The invariants: `slots` points at `capacity` `UInt64`s (a power of two) in
/// the table's ``ZeroedMemory``, alive as long as the table; every slot index
/// is masked with `capacity - 1`; a snapshot's image is written and read as a
/// ``ByteView`` / ``MutableByteView`` of exactly `capacity × 8` bytes and
/// checked (every version in `1…count`, exactly `count` used) before use.
struct SampleIndex: Sendable {
    private var table: SlotTable?
    private(set) var count = 0

    /// The 32 hash bits kept in a slot.
    @inline(__always)
    static func fingerprint(_ hash: UInt64) -> UInt32 { UInt32(truncatingIfNeeded: hash ^ (hash >> 32)) }

    /// The slot holding a version for which `matches` is true, searched with `hash`.
    @inline(__always)
    func find(hash: UInt64, matches: (UInt32) -> Bool) -> (slot: Int, version: UInt32)? {
        guard let table else { return nil }
        let slots = table.slots
        let fingerprint = Self.fingerprint(hash)
        let mask = table.capacity - 1
        var slot = Int(fingerprint) & mask
        while true {
            let entry = slots[slot]
            if entry == 0 { return nil }
            if UInt32(truncatingIfNeeded: entry >> 32) == fingerprint {
                let version = UInt32(truncatingIfNeeded: entry)
                if matches(version) { return (slot, version) }
            }
            slot = (slot + 1) & mask
        }
    }

    /// Loads the home slot of each hash, so that the lookups that follow find
    /// them in the cache: independent loads overlap, where the lookups one by
    /// one would each wait for memory. Returns a value derived from the loads
    /// (keep it, or the loads may be optimised away).
    @inline(__always)
    func warm(_ hashes: [UInt64], count: Int) -> UInt64 {
        guard let table else { return 0 }
        let slots = table.slots
        let mask = table.capacity - 1
        var sink: UInt64 = 0
        for hash in hashes[..<count] { sink ^= slots[Int(Self.fingerprint(hash)) & mask] }
        return sink
    }

    /// Adds `version` under `hash`; the id must not be in the table.
    @inline(__always)
    mutating func insert(hash: UInt64, version: UInt32) {
        if (count + 1) * 8 > (table?.capacity ?? 0) * 5 { grow() }
        makeUnique()
        guard let table else { return }
        let fingerprint = Self.fingerprint(hash)
        let mask = table.capacity - 1
        var slot = Int(fingerprint) & mask
        while table.slots[slot] != 0 { slot = (slot + 1) & mask }
        table.slots[slot] = UInt64(fingerprint) << 32 | UInt64(version)
        count += 1
    }

    /// Sizes the table for `expected` ids, so that filling it never rehashes.
    mutating func reserveCapacity(_ expected: Int) {
        var capacity = 1024
        while capacity * 5 < expected * 8 { capacity *= 2 }
        guard capacity > (table?.capacity ?? 0) else { return }
        grow(to: capacity)
    }

    /// Points the slot found by ``find(hash:matches:)`` at `version`.
    @inline(__always)
    mutating func update(slot: Int, version: UInt32) {
        makeUnique()
        guard let table else { return }
        table.slots[slot] = table.slots[slot] & 0xFFFF_FFFF_0000_0000 | UInt64(version)
    }

    /// Empties the slot found by ``find(hash:matches:)``.
    mutating func remove(slot: Int) {
        makeUnique()
        guard let table else { return }
        let slots = table.slots
        let mask = table.capacity - 1
        var hole = slot
        var next = (slot + 1) & mask
        while slots[next] != 0 {
            let home = Int(UInt32(truncatingIfNeeded: slots[next] >> 32)) & mask
            // Move the entry into the hole unless its home lies cyclically in (hole, next].
            if (next - home) & mask >= (next - hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = 0
        count -= 1
    }

    // MARK: - Snapshots

    /// An empty index.
    init() {}

    /// The number of slots (a power of two; 0 before the first insertion).
    var capacity: Int { table?.capacity ?? 0 }

    /// The index of versions `1…block.count`, the rows of `block` (a
    /// snapshot's live samples, each id once), inserted in row order.
    init(indexing block: SampleBlock) {
        reserveCapacity(block.count)
        for row in 0..<block.count {
            let hash = block.rows[row].hasPackedID ? block.rows[row].packedID.hashValue64 : block.key(at: row).hash64
            insert(hash: hash, version: UInt32(row + 1))
        }
    }

    /// Calls `body` with the slots as little-endian bytes (a snapshot's image of the table).
    func withSlotBytes<Result>(_ body: (ByteView) -> Result) -> Result {
        guard let table else { return body(.empty) }
        #if _endian(little)
        return body(table.bytes)
        #else
        let swapped = (0..<table.capacity).map { table.slots[$0].littleEndian }
        return ByteView.with(swapped, body)
        #endif
    }

    /// A table of `capacity` slots that `fill` writes as little-endian bytes
    /// (a snapshot's image of one made by ``init(indexing:)``), or `nil` when
    /// `fill` fails or the slots do not hold exactly `count` versions, each in
    /// `1…count`: a table that passes is safe to probe, and the snapshot's
    /// checksum vouches that it is the one written.
    init?(capacity: Int, count: Int, fill: (MutableByteView) -> Bool) {
        guard capacity >= 1024, capacity & (capacity - 1) == 0, count >= 0, count * 8 <= capacity * 5 else { return nil }
        let table = SlotTable(capacity: capacity)
        guard fill(table.mutableBytes) else { return nil }
        var occupied = 0
        var valid = true
        for index in 0..<capacity {
            let entry = UInt64(littleEndian: table.slots[index])
            table.slots[index] = entry
            guard entry != 0 else { continue }
            occupied += 1
            let version = UInt32(truncatingIfNeeded: entry)
            valid = valid && version >= 1 && Int(version) <= count
        }
        guard valid, occupied == count else { return nil }
        self.table = table
        self.count = count
    }

    /// Every version in the table, in no particular order.
    var versions: [UInt32] {
        var versions: [UInt32] = []
        versions.reserveCapacity(count)
        forEachVersion { versions.append($0) }
        return versions
    }

    /// Calls `body` with every version in the table, in no particular order.
    func forEachVersion(_ body: (UInt32) -> Void) {
        guard let table else { return }
        for slot in 0..<table.capacity where table.slots[slot] != 0 { body(UInt32(truncatingIfNeeded: table.slots[slot])) }
    }

    /// Calls `body` with the slots as little-endian bytes, each version `v`
    /// replaced by `renumber(v)` (see ``renumbered(_:)``), `slotsPerPiece`
    /// slots at a time: the image of the renumbered table, made piece by
    /// piece as it is written, never whole in memory.
    func withRenumberedSlotBytes(slotsPerPiece: Int = 1 << 16, _ renumber: (UInt32) -> UInt32, _ body: (ByteView) -> Void) {
        guard let table else { return body(.empty) }
        var piece = [UInt64](repeating: 0, count: min(slotsPerPiece, table.capacity))
        for start in stride(from: 0, to: table.capacity, by: piece.count) {
            for offset in piece.indices {
                let entry = table.slots[start + offset]
                piece[offset] = (entry == 0 ? 0 : entry & 0xFFFF_FFFF_0000_0000 | UInt64(renumber(UInt32(truncatingIfNeeded: entry)))).littleEndian
            }
            ByteView.with(bytesOf: piece, body)
        }
    }

    /// A copy of the index with each version `v` replaced by `renumber(v)`,
    /// in the same slots: the same ids, found by the same probes, when
    /// `renumber` is one to one (a snapshot's rows, numbered from 1, that
    /// keep only the current versions).
    func renumbered(_ renumber: (UInt32) -> UInt32) -> SampleIndex {
        guard let table else { return self }
        var copy = self
        copy.table = table.copy()
        guard let slots = copy.table?.slots else { return copy }
        for slot in 0..<table.capacity where slots[slot] != 0 {
            slots[slot] = slots[slot] & 0xFFFF_FFFF_0000_0000 | UInt64(renumber(UInt32(truncatingIfNeeded: slots[slot])))
        }
        return copy
    }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&table), let shared = table {
            table = shared.copy()
        }
    }

    private mutating func grow() {
        grow(to: max(1024, (table?.capacity ?? 0) * 2))
    }

    private mutating func grow(to capacity: Int) {
        let grown = SlotTable(capacity: capacity)
        let mask = capacity - 1
        if let old = table {
            for index in 0..<old.capacity {
                let entry = old.slots[index]
                guard entry != 0 else { continue }
                var slot = Int(UInt32(truncatingIfNeeded: entry >> 32)) & mask
                while grown.slots[slot] != 0 { slot = (slot + 1) & mask }
                grown.slots[slot] = entry
            }
        }
        table = grown
    }
}
