/// Byte-range equality in plain Swift, for the core's short comparisons
/// (member names, enum names, ids): eight bytes per step with unaligned
/// loads, then the remaining bytes one by one. For the lengths compared here
/// (under ~64 bytes) this is as fast as a call to the C library's `memcmp`,
/// and it keeps the core free of libc.
package enum ByteComparison {
    /// Whether `count` bytes at `left` equal `count` bytes at `right`.
    @inline(__always)
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
