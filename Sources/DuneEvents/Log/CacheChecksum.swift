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
        var a: UInt64 = 0x243F_6A88_85A3_08D3
        var b: UInt64 = 0x1319_8A2E_0370_7344
        var c: UInt64 = 0xA409_3822_299F_31D0
        var d: UInt64 = 0x082E_FA98_EC4E_6C89
        @inline(__always) func step(_ h: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = h ^ word
            return ((mixed << 29) | (mixed >> 35)) &* Self.multiplier
        }
        let last = parts.last ?? .empty
        var count = 0
        for bytes in parts.dropLast() + [last] {
            count += bytes.count
            var index = 0
            let whole = bytes.count & ~31
            while index < whole {
                a = step(a, bytes.loadLittleEndian(at: index, as: UInt64.self))
                b = step(b, bytes.loadLittleEndian(at: index + 8, as: UInt64.self))
                c = step(c, bytes.loadLittleEndian(at: index + 16, as: UInt64.self))
                d = step(d, bytes.loadLittleEndian(at: index + 24, as: UInt64.self))
                index += 32
            }
        }
        // The last 0–31 bytes, zero-padded to four words.
        let index = last.count & ~31
        a = step(a, last.loadLittleEndianZeroPadded(at: index))
        b = step(b, last.loadLittleEndianZeroPadded(at: index + 8))
        c = step(c, last.loadLittleEndianZeroPadded(at: index + 16))
        d = step(d, last.loadLittleEndianZeroPadded(at: index + 24))
        let length = UInt64(count)
        lanes = (step(a, length), step(b, length), step(c, length), step(d, length))
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
