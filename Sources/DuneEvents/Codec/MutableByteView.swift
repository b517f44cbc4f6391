/// A writable view of bytes that another value owns: the room a value writer
/// fills (a UUID's 36 characters, a timestamp's text), the part of an array a
/// file read lands in.
///
/// `MutableByteView` is the writing half of ``ByteView``: the value writers and
/// the file readers take one, so they need no pointer of their own. It is one
/// of the few types that hold raw memory; its invariants are the audit:
///
/// - **Bounds.** `buffer` covers exactly ``count`` writable bytes (`count ≥ 0`;
///   an empty view may have no base address). ``subscript(_:)`` and
///   ``storeLittleEndian(_:at:)`` check their offsets in debug builds only,
///   like the raw buffer they wrap: the writers compute their offsets from a
///   fixed layout, and a check per byte would slow them.
/// - **Lifetime.** A view owns nothing. It is valid only inside the closure
///   that made it (``with(_:_:)``, ``appending(_:to:_:)``,
///   ``string(count:_:)``); never store one.
/// - **Exclusivity.** While a view of an array's storage exists, nothing else
///   reads or writes that array: the closures hold the array `inout`.
/// - **Alignment.** None is assumed: multi-byte stores are unaligned.
@usableFromInline package struct MutableByteView {
    @usableFromInline let buffer: UnsafeMutableRawBufferPointer

    /// A view of `buffer`; the caller promises the memory outlives the view
    /// and that nothing else uses it meanwhile.
    @inlinable @inline(__always)
    package init(_ buffer: UnsafeMutableRawBufferPointer) {
        self.buffer = buffer
    }

    /// The number of bytes in view.
    @inlinable
    package var count: Int {
        @inline(__always) get { buffer.count }
    }

    /// The byte at `index`, which must be in `0..<count` (checked in debug builds).
    @inlinable
    package subscript(_ index: Int) -> UInt8 {
        @inline(__always) get { buffer[index] }
        @inline(__always) nonmutating set { buffer[index] = newValue }
    }

    /// The same bytes, read-only.
    @inlinable
    package var view: ByteView {
        @inline(__always) get { ByteView(UnsafeRawBufferPointer(buffer)) }
    }

    /// The bytes at `range` (which must lie in `0...count`) as a view of the same memory.
    @inlinable @inline(__always)
    package func subview(_ range: Range<Int>) -> MutableByteView {
        MutableByteView(UnsafeMutableRawBufferPointer(rebasing: buffer[range]))
    }

    /// Stores `value` little-endian in the `MemoryLayout<T>.size` bytes at
    /// `offset`, which must lie inside the view (checked in debug builds).
    @inlinable @inline(__always)
    package func storeLittleEndian<T: FixedWidthInteger>(_ value: T, at offset: Int) {
        assert(offset >= 0 && offset + MemoryLayout<T>.size <= buffer.count, "store outside the view")
        buffer.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
    }

    /// Copies `source` to the bytes starting at `offset`; they must fit
    /// (checked in debug builds). The two may overlap.
    @inlinable @inline(__always)
    package func copy(_ source: ByteView, to offset: Int) {
        assert(offset >= 0 && offset + source.count <= buffer.count, "copy outside the view")
        guard let from = source.buffer.baseAddress, let to = buffer.baseAddress else { return }
        (to + offset).copyMemory(from: from, byteCount: source.count)
    }

    // MARK: - Making views

    /// Runs `body` with a writable view of `bytes`' storage; the view is
    /// valid only inside `body`.
    @inlinable @inline(__always)
    package static func with<Result>(_ bytes: inout [UInt8], _ body: (MutableByteView) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeMutableBytes { try body(MutableByteView($0)) }
    }

    /// Appends `count` zero bytes to `output` and runs `body` with a view of
    /// them, for a writer that fills a fixed-size text in place.
    @inlinable @inline(__always)
    package static func appending<Result>(_ count: Int, to output: inout [UInt8], _ body: (MutableByteView) -> Result) -> Result {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: count))
        return output.withUnsafeMutableBytes { body(MutableByteView(UnsafeMutableRawBufferPointer(rebasing: $0[start..<(start + count)]))) }
    }

    /// A string of `count` UTF-8 bytes that `body` writes into the view it
    /// is given (`body` must write valid UTF-8 to all of them: ASCII, for the
    /// value writers).
    @inlinable @inline(__always)
    package static func string(count: Int, _ body: (MutableByteView) -> Void) -> String {
        String(unsafeUninitializedCapacity: count) { buffer in
            body(MutableByteView(UnsafeMutableRawBufferPointer(buffer)))
            return count
        }
    }
}
