/// A read-only view of bytes that another value owns: a key a scanner found in
/// a line, a piece of text copied between quotes, a name to compare.
///
/// `ByteView` is where the codec's scanners hand bytes to the code that names,
/// compares and copies them, so that code needs no pointer of its own. It is one
/// of the few types that hold raw memory; its invariants are the audit:
///
/// - **Bounds.** `buffer` covers exactly ``count`` readable bytes (`count ≥ 0`;
///   an empty view may have no base address). Every accessor reads inside them.
///   ``subscript(_:)`` checks its index in debug builds only, like the raw
///   buffer it wraps: the scanners that make views have checked the slice
///   against the line already, and a check per byte would slow them.
/// - **Lifetime.** A view owns nothing and keeps nothing alive. It is valid
///   while the memory it was made from is: inside the closure of
///   ``with(_:_:)``, or while the owner that made it (the line buffer under a
///   `Cursor`) holds the line. Use it and drop it; never store one in a
///   property that outlives that scope.
/// - **Alignment.** None is assumed: multi-byte loads are unaligned.
///
/// A view is a random-access collection of its bytes (indices `0..<count`),
/// so `Array(view)`, `elementsEqual` and `String(decoding:as:)` work on it;
/// `==` compares contents. Not `Sendable`: a view is only ever used on the
/// thread that holds its bytes.
@usableFromInline package struct ByteView: RandomAccessCollection {
    @usableFromInline package let buffer: UnsafeRawBufferPointer

    /// A view of `buffer`; the caller promises `buffer`'s memory outlives the view.
    @inlinable @inline(__always)
    package init(_ buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
    }

    /// A view of no bytes.
    package static var empty: ByteView { ByteView(UnsafeRawBufferPointer(start: nil, count: 0)) }

    /// A view of a static string's UTF-8: static memory, so the view is valid
    /// for the whole run. `text` must be a literal of more than one scalar (one
    /// with a pointer representation).
    @inlinable
    package init(_ text: StaticString) {
        self.buffer = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// The same view: lets code written for a raw buffer's wrapper take a view as it is.
    @inlinable @inline(__always)
    package init(_ view: ByteView) {
        self = view
    }

    /// Runs `body` with a view of `bytes`' storage; the view is valid only inside `body`.
    @inlinable @inline(__always)
    package static func with<Result>(_ bytes: [UInt8], _ body: (ByteView) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes { try body(ByteView($0)) }
    }

    /// Runs `body` with a view of `bytes` (the slice's own storage, not a
    /// copy); the view is valid only inside `body`.
    @inlinable @inline(__always)
    package static func with<Result>(_ bytes: ArraySlice<UInt8>, _ body: (ByteView) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBytes { try body(ByteView($0)) }
    }

    /// Runs `body` with a view of any collection of bytes: in place when its
    /// storage is contiguous (an array, a slice, a raw buffer, a view), else
    /// on a copy. The view is valid only inside `body`.
    @inlinable @inline(__always)
    package static func with<Bytes: Collection<UInt8>, Result>(contentsOf bytes: Bytes, _ body: (ByteView) throws -> Result) rethrows -> Result {
        if let result = try bytes.withContiguousStorageIfAvailable({ try body(ByteView(UnsafeRawBufferPointer($0))) }) {
            return result
        }
        return try Array(bytes).withUnsafeBytes { try body(ByteView($0)) }
    }

    /// Runs `body` with a view of `text`'s UTF-8, in place for a native
    /// string (a bridged one is made contiguous first, on a copy); the view is
    /// valid only inside `body`.
    @inlinable @inline(__always)
    package static func with<Result>(_ text: String, _ body: (ByteView) -> Result) -> Result {
        var text = text
        return text.withUTF8 { body(ByteView(UnsafeRawBufferPointer($0))) }
    }

    /// The number of bytes in view.
    @inlinable
    package var count: Int {
        @inline(__always) get { buffer.count }
    }

    /// `0`.
    @inlinable
    package var startIndex: Int {
        @inline(__always) get { 0 }
    }

    /// ``count``.
    @inlinable
    package var endIndex: Int {
        @inline(__always) get { buffer.count }
    }

    /// The byte at `index`, which must be in `0..<count` (checked in debug builds).
    @inlinable
    package subscript(_ index: Int) -> UInt8 {
        @inline(__always) get { buffer[index] }
    }

    /// The bytes at `range` of this view, as a view of the same memory.
    /// `range` must lie in `0...count` (checked in debug builds).
    @inlinable @inline(__always)
    package func subview(_ range: Range<Int>) -> ByteView {
        ByteView(UnsafeRawBufferPointer(rebasing: buffer[range]))
    }

    /// The bytes from `start` to the end of the view.
    @inlinable @inline(__always)
    package func subview(from start: Int) -> ByteView {
        subview(start..<buffer.count)
    }

    /// The little-endian integer in the `MemoryLayout<T>.size` bytes at
    /// `offset`, which must lie inside the view (checked in debug builds).
    /// No alignment is assumed.
    @inlinable @inline(__always)
    package func loadLittleEndian<T: FixedWidthInteger>(at offset: Int, as type: T.Type) -> T {
        assert(offset >= 0 && offset + MemoryLayout<T>.size <= buffer.count, "load outside the view")
        return T(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: T.self))
    }

    /// The plain value (every byte pattern a value: integers and
    /// floating-point fields only) in the `MemoryLayout<T>.size` bytes at
    /// `offset`, in memory layout, which must lie inside the view (checked
    /// always: a row read in place from a mapped file). No alignment is assumed.
    @inline(__always)
    package func load<T: BitwiseCopyable>(at offset: Int, as type: T.Type) -> T {
        precondition(offset >= 0 && offset + MemoryLayout<T>.size <= buffer.count, "load outside the view")
        return buffer.loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    /// Calls `body` with a view of the memory of `values` (plain values, as
    /// for ``load(at:as:)``), valid only during the call.
    package static func with<Element: BitwiseCopyable, Result>(bytesOf values: [Element], _ body: (ByteView) -> Result) -> Result {
        values.withUnsafeBytes { body(ByteView($0)) }
    }

    /// The little-endian `UInt64` at `offset`, the bytes past the view's end
    /// read as zero (0 when `offset` is at or past it): a hash's last, partial word.
    @inlinable @inline(__always)
    package func loadLittleEndianZeroPadded(at offset: Int) -> UInt64 {
        var word: UInt64 = 0
        var byte = offset
        while byte < Swift.min(offset + 8, buffer.count) {
            word |= UInt64(buffer[byte]) << UInt64(8 * (byte - offset))
            byte += 1
        }
        return word
    }

    /// The byte's storage, for `Array.append(contentsOf:)` and other bulk copies.
    @inlinable @inline(__always)
    package func withContiguousStorageIfAvailable<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        try body(buffer.assumingMemoryBound(to: UInt8.self))
    }

    /// Whether the bytes in view are exactly `name`'s UTF-8.
    @inlinable @inline(__always)
    package func matches(_ name: StaticString) -> Bool {
        let nameCount = name.utf8CodeUnitCount
        guard buffer.count == nameCount else { return false }
        guard let base = buffer.baseAddress else { return true }
        return Self.equal(base, name.utf8Start, count: nameCount)
    }

    /// Whether two views hold the same bytes.
    @inlinable @inline(__always)
    package static func == (left: ByteView, right: ByteView) -> Bool {
        guard left.count == right.count else { return false }
        guard let leftBase = left.buffer.baseAddress, let rightBase = right.buffer.baseAddress else { return true }
        return equal(leftBase, rightBase, count: left.count)
    }

    /// Appends the bytes in view to `output`.
    @inlinable @inline(__always)
    package func append(to output: inout [UInt8]) {
        output.append(contentsOf: buffer)
    }

    /// The bytes as a `String`, or `nil` when they are not valid UTF-8. ASCII
    /// (nearly every stored id, time and name) is taken as it is; only other
    /// bytes go through the standard library's validation.
    @inlinable
    package var utf8String: String? {
        if allSatisfy({ $0 < 0x80 }) { return String(decoding: self, as: UTF8.self) }
        return String(validating: self, as: UTF8.self)
    }

    /// The bytes in view, copied into an array in one bulk copy (`Array(view)`
    /// copies them one at a time, through the collection's iterator).
    @inlinable
    package var copied: [UInt8] {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return bytes
    }

    /// Whether `count` bytes at `left` equal `count` bytes at `right`: for the
    /// owner types that compare inside their own memory (a scanner's chunk,
    /// a block's stored source), and for ``matches(_:)`` and `==`.
    ///
    /// Eight bytes per step with unaligned loads, then the rest one by one. For
    /// the short lengths compared here (member names, enum names, ids: under
    /// about 64 bytes) this is as fast as the C library's `memcmp`, and it keeps
    /// the core free of libc. Both ranges must hold `count` readable bytes.
    @inlinable @inline(__always)
    package static func equal(_ left: UnsafeRawPointer, _ right: UnsafeRawPointer, count: Int) -> Bool {
        var index = 0
        while index + 8 <= count {
            if left.loadUnaligned(fromByteOffset: index, as: UInt64.self) != right.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                return false
            }
            index += 8
        }
        while index < count {
            if left.load(fromByteOffset: index, as: UInt8.self) != right.load(fromByteOffset: index, as: UInt8.self) { return false }
            index += 1
        }
        return true
    }
}
