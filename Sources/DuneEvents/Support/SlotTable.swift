/// The zero-filled 8-byte slots of an open-addressing hash table (the
/// deciders' ``DigestTable`` and the projections' sample index), in memory
/// from the platform layer (``ZeroedMemory``: huge pages for large tables
/// where the system offers them, so that a random probe's cache miss is not
/// also a TLB miss).
///
/// `@unchecked Sendable`: the slots are written only through a table that
/// holds the only reference (it copies a shared one first), exactly like an
/// array's buffer. One of the few owners of raw memory: every access is an
/// index below `capacity` (the tables mask theirs with `capacity - 1`), and
/// the byte views cover exactly `capacity × 8` bytes.
package final class SlotTable: @unchecked Sendable {
    package let slots: UnsafeMutablePointer<UInt64>
    /// The number of slots.
    package let capacity: Int
    private let memory: ZeroedMemory

    /// `capacity` slots, all zero.
    package init(capacity: Int) {
        self.capacity = capacity
        memory = ZeroedMemory(byteCount: capacity * MemoryLayout<UInt64>.stride)
        slots = memory.base.bindMemory(to: UInt64.self, capacity: capacity)
    }

    /// The slots' memory as bytes (in the machine's byte order), valid while the table lives.
    package var bytes: ByteView {
        ByteView(UnsafeRawBufferPointer(start: slots, count: capacity * MemoryLayout<UInt64>.stride))
    }

    /// The slots' memory as bytes to write, for the owner of the only reference.
    package var mutableBytes: MutableByteView {
        MutableByteView(UnsafeMutableRawBufferPointer(start: slots, count: capacity * MemoryLayout<UInt64>.stride))
    }

    /// A table of the same slots in memory of its own.
    package func copy() -> SlotTable {
        let copy = SlotTable(capacity: capacity)
        copy.slots.update(from: slots, count: capacity)
        return copy
    }
}
