/// Appends little-endian numbers and length-prefixed bytes: the encoding of
/// the caches beside a log (`<log>.checkpoint`, `<log>.snapshot`).
package struct BinaryWriter {
    package var bytes: [UInt8] = []

    package init() {}

    package mutating func uint32(_ value: UInt32) {
        littleEndian(value)
    }

    package mutating func uint64(_ value: UInt64) {
        littleEndian(value)
    }

    package mutating func integer(_ value: Int) {
        uint64(UInt64(bitPattern: Int64(value)))
    }

    package mutating func digest(_ digest: ContentDigest) {
        uint64(digest.high)
        uint64(digest.low)
    }

    package mutating func string(_ text: String) {
        integer(text.utf8.count)
        bytes.append(contentsOf: text.utf8)
    }

    /// `digests` back to back, 16 bytes each (as ``digest(_:)`` writes them), in one copy.
    package mutating func digests(_ digests: [ContentDigest]) {
        MutableByteView.appending(digests.count * 16, to: &bytes) { room in
            for (item, digest) in digests.enumerated() {
                room.storeLittleEndian(digest.high, at: item * 16)
                room.storeLittleEndian(digest.low, at: item * 16 + 8)
            }
        }
    }

    package mutating func uint8(_ value: UInt8) {
        bytes.append(value)
    }

    package mutating func uint16(_ value: UInt16) {
        littleEndian(value)
    }

    package mutating func double(_ value: Double) {
        uint64(value.bitPattern)
    }

    /// A length-prefixed run of raw bytes.
    package mutating func data(_ data: [UInt8]) {
        integer(data.count)
        bytes.append(contentsOf: data)
    }

    /// Appends `value`'s bytes, least significant first.
    @inline(__always)
    private mutating func littleEndian<T: FixedWidthInteger>(_ value: T) {
        MutableByteView.appending(MemoryLayout<T>.size, to: &bytes) { $0.storeLittleEndian(value, at: 0) }
    }
}
