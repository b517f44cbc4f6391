/// A block of bytes with a chosen alignment that one reader or writer owns:
/// the chunk buffer file reads land in (the log's chunk decoder), the aligned
/// buffer a cache-bypassing write goes out from (forget's copy of the log).
///
/// It is one of the few types that hold raw memory; its invariants are the
/// audit:
///
/// - **Bounds.** `storage` covers exactly ``count`` bytes (at least 1),
///   allocated with `alignment`. ``bytes(_:)`` and ``room(_:)`` check that
///   their range lies in `0...count` (one check per range, never per byte);
///   the views they return cover exactly that range.
/// - **Lifetime.** The memory is freed when the owner goes away, and
///   reallocated by ``grow()``: a view is valid until the next `grow()` or
///   the owner's end, so callers take views for one step of work and never
///   keep them.
/// - **Initialization.** The memory starts zeroed, so every byte a view
///   covers is initialized even before a read fills it.
/// - **Alignment.** `storage`'s base is aligned to `alignment` (a power of
///   two); ``grow()`` keeps it.
///
/// A reference type, owned by one thread at a time (it is not `Sendable`).
package final class AlignedBytes {
    /// The memory.
    private var storage: UnsafeMutableRawBufferPointer
    /// The alignment of `storage`'s base.
    package let alignment: Int

    /// `count` zeroed bytes (at least 1) aligned to `alignment` (a power of two).
    package init(count: Int, alignment: Int) {
        precondition(alignment > 0 && alignment & (alignment - 1) == 0, "AlignedBytes: alignment \(alignment) is not a power of two")
        self.alignment = alignment
        storage = .allocate(byteCount: max(1, count), alignment: alignment)
        storage.initializeMemory(as: UInt8.self, repeating: 0)
    }

    deinit {
        storage.deallocate()
    }

    /// The number of bytes.
    package var count: Int { storage.count }

    /// The bytes at `range`, read-only; valid until ``grow()`` or the owner's end.
    @inline(__always)
    package func bytes(_ range: Range<Int>) -> ByteView {
        precondition(range.lowerBound >= 0 && range.upperBound <= storage.count, "AlignedBytes: range outside the buffer")
        return ByteView(UnsafeRawBufferPointer(rebasing: storage[range]))
    }

    /// The bytes at `range`, writable (for a read to land in); valid until
    /// ``grow()`` or the owner's end.
    @inline(__always)
    package func room(_ range: Range<Int>) -> MutableByteView {
        precondition(range.lowerBound >= 0 && range.upperBound <= storage.count, "AlignedBytes: range outside the buffer")
        return MutableByteView(UnsafeMutableRawBufferPointer(rebasing: storage[range]))
    }

    /// Copies `source` (which may be bytes of this buffer: the ranges may
    /// overlap) to the bytes from `offset` on; they must fit.
    @inline(__always)
    package func copy(_ source: ByteView, to offset: Int) {
        room(offset..<(offset + source.count)).copy(source, to: 0)
    }

    /// Doubles the buffer, keeping every byte and the alignment; every view
    /// taken before is invalid afterwards.
    package func grow() {
        let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: alignment)
        grown.copyMemory(from: UnsafeRawBufferPointer(storage))
        UnsafeMutableRawBufferPointer(rebasing: grown[storage.count...]).initializeMemory(as: UInt8.self, repeating: 0)
        storage.deallocate()
        storage = grown
    }
}
