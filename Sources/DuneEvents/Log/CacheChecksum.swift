/// A 256-bit check of a cache section (the projections' snapshot), several
/// times faster than ``CRC32`` in software: a snapshot of 60 MB is checked in
/// a few milliseconds instead of tens.
///
/// The bytes are read as little-endian 64-bit words; word `i` goes to lane
/// `i % 4`, and each lane folds its words with `h = rotl(h ^ word, 29) &* P`
/// (`P` odd). Each step is a bijection of `h` for a fixed word and of the word
/// for a fixed `h`, so a change confined to one word of a lane always changes
/// that lane's result: every damage of up to 25 consecutive bytes (at most one
/// changed word per lane) is detected, like a flipped bit or a torn sector
/// boundary; other damage escapes with probability about 2⁻⁶⁴ per lane. The
/// last partial word is zero-padded and the byte count is folded in at the
/// end, so a truncated or extended section differs too.
///
/// Not a cryptographic hash: it catches accidents (a flipped bit, a torn or
/// mixed-up file), not tampering — as the CRCs of the log lines do.
package struct CacheChecksum: Sendable, Equatable {
    package var lanes: (UInt64, UInt64, UInt64, UInt64)

    private static let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15

    package init(lanes: (UInt64, UInt64, UInt64, UInt64)) {
        self.lanes = lanes
    }

    /// The check of `bytes`.
    /// - Complexity: O(n), about one word per cycle.
    package init(_ bytes: ByteView) {
        self.init(parts: [bytes])
    }

    /// The check of `parts` one after the other, as if joined, without
    /// joining them: every part but the last must be a whole number of
    /// 32-byte groups (a part that is not is joined with the rest first).
    /// - Complexity: O(n), about one word per cycle.
    package init(parts: [ByteView]) {
        if let uneven = parts.dropLast().firstIndex(where: { $0.count % 32 != 0 }) {
            let rest = parts[uneven...].flatMap { Array($0) }
            self = ByteView.with(rest) { joined in CacheChecksum(parts: Array(parts[..<uneven]) + [joined]) }
            return
        }
        var accumulator = Accumulator()
        for part in parts { accumulator.add(part) }
        self = accumulator.checksum
    }

    /// A check computed over bytes given piece by piece (bytes made as they
    /// are written, never whole in memory): every piece but the last must be
    /// a whole number of 32-byte groups.
    ///
    /// ```swift
    /// var accumulator = CacheChecksum.Accumulator()
    /// accumulator.add(first)                  // 32 × k bytes
    /// accumulator.add(last)                   // any length
    /// accumulator.checksum == CacheChecksum(parts: [first, last])
    /// ```
    package struct Accumulator: Sendable {
        private var a: UInt64 = 0x243F_6A88_85A3_08D3
        private var b: UInt64 = 0x1319_8A2E_0370_7344
        private var c: UInt64 = 0xA409_3822_299F_31D0
        private var d: UInt64 = 0x082E_FA98_EC4E_6C89
        private var count = 0
        /// The last piece's final 0–31 bytes, zero-padded to four words.
        private var tail: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

        package init() {}

        @inline(__always) private static func step(_ h: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = h ^ word
            return ((mixed << 29) | (mixed >> 35)) &* CacheChecksum.multiplier
        }

        /// Adds the next piece.
        /// - Precondition: every piece before it was a whole number of 32-byte groups.
        package mutating func add(_ bytes: ByteView) {
            precondition(count % 32 == 0, "CacheChecksum: only the last piece may end inside a 32-byte group")
            count += bytes.count
            var index = 0
            let whole = bytes.count & ~31
            while index < whole {
                a = Self.step(a, bytes.loadLittleEndian(at: index, as: UInt64.self))
                b = Self.step(b, bytes.loadLittleEndian(at: index + 8, as: UInt64.self))
                c = Self.step(c, bytes.loadLittleEndian(at: index + 16, as: UInt64.self))
                d = Self.step(d, bytes.loadLittleEndian(at: index + 24, as: UInt64.self))
                index += 32
            }
            tail = (bytes.loadLittleEndianZeroPadded(at: whole), bytes.loadLittleEndianZeroPadded(at: whole + 8),
                    bytes.loadLittleEndianZeroPadded(at: whole + 16), bytes.loadLittleEndianZeroPadded(at: whole + 24))
        }

        /// The check of every byte added.
        package var checksum: CacheChecksum {
            let length = UInt64(count)
            return CacheChecksum(lanes: (Self.step(Self.step(a, tail.0), length), Self.step(Self.step(b, tail.1), length),
                                         Self.step(Self.step(c, tail.2), length), Self.step(Self.step(d, tail.3), length)))
        }
    }

    /// The check of a collection of bytes (in place when its storage is contiguous).
    package init(_ bytes: some Collection<UInt8>) {
        self = ByteView.with(contentsOf: bytes) { CacheChecksum($0) }
    }

    package static func == (lhs: CacheChecksum, rhs: CacheChecksum) -> Bool {
        lhs.lanes.0 == rhs.lanes.0 && lhs.lanes.1 == rhs.lanes.1 && lhs.lanes.2 == rhs.lanes.2 && lhs.lanes.3 == rhs.lanes.3
    }

    /// 32 bytes, little-endian.
    package func write(to writer: inout BinaryWriter) {
        writer.uint64(lanes.0)
        writer.uint64(lanes.1)
        writer.uint64(lanes.2)
        writer.uint64(lanes.3)
    }

    package init?(from reader: inout BinaryReader) {
        guard let a = reader.uint64(), let b = reader.uint64(), let c = reader.uint64(), let d = reader.uint64() else { return nil }
        lanes = (a, b, c, d)
    }
}
