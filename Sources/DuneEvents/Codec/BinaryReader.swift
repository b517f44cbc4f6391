/// Reads what a ``BinaryWriter`` wrote; every read is `nil` past the end.
package struct BinaryReader {
    private let bytes: [UInt8]
    private var index: Int

    package init(_ bytes: [UInt8], from index: Int) {
        self.bytes = bytes
        self.index = index
    }

    package var isAtEnd: Bool { index == bytes.count }

    /// How many bytes are left.
    package var remaining: Int { bytes.count - index }

    package mutating func uint32() -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        defer { index += 4 }
        return load(UInt32.self)
    }

    package mutating func uint64() -> UInt64? {
        guard index + 8 <= bytes.count else { return nil }
        defer { index += 8 }
        return load(UInt64.self)
    }

    package mutating func integer() -> Int? {
        uint64().map { Int(Int64(bitPattern: $0)) }
    }

    /// A count of items of at least `itemBytes` each that fit in what is left.
    package mutating func count(itemBytes: Int) -> Int? {
        guard let count = integer(), count >= 0, count <= remaining / max(1, itemBytes) else { return nil }
        return count
    }

    package mutating func digest() -> ContentDigest? {
        guard let high = uint64(), let low = uint64() else { return nil }
        return ContentDigest(high: high, low: low)
    }

    package mutating func string() -> String? {
        guard let count = count(itemBytes: 1) else { return nil }
        defer { index += count }
        return ByteView.with(bytes[index..<(index + count)]) { $0.utf8String }
    }

    /// `count` digests stored back to back.
    package mutating func digests(_ count: Int) -> [ContentDigest]? {
        guard count >= 0, index + count * 16 <= bytes.count else { return nil }
        let start = index
        index += count * 16
        return ByteView.with(bytes) { raw in
            (0..<count).map { item in
                let at = start + item * 16
                return ContentDigest(high: raw.loadLittleEndian(at: at, as: UInt64.self), low: raw.loadLittleEndian(at: at + 8, as: UInt64.self))
            }
        }
    }

    package mutating func uint8() -> UInt8? {
        guard index < bytes.count else { return nil }
        defer { index += 1 }
        return bytes[index]
    }

    package mutating func uint16() -> UInt16? {
        guard index + 2 <= bytes.count else { return nil }
        defer { index += 2 }
        return load(UInt16.self)
    }

    package mutating func double() -> Double? {
        uint64().map { Double(bitPattern: $0) }
    }

    /// A run written by ``BinaryWriter/data(_:)``.
    package mutating func data() -> ArraySlice<UInt8>? {
        guard let count = count(itemBytes: 1) else { return nil }
        defer { index += count }
        return bytes[index..<(index + count)]
    }

    /// The little-endian `T` at the read position, which the caller checked is inside the bytes.
    @inline(__always)
    private func load<T: FixedWidthInteger>(_ type: T.Type) -> T {
        ByteView.with(bytes) { $0.loadLittleEndian(at: index, as: T.self) }
    }
}
