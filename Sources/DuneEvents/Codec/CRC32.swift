/// CRC-32 (IEEE 802.3), bit for bit the checksum of zlib's `crc32`.
///
/// Reflected polynomial `0xEDB88320`, initial value and final XOR `0xFFFFFFFF`.
/// Every stored log line ends with the CRC of its bytes (docs/log-format.md), so this runs
/// over every byte the log ever holds; it uses slicing-by-8 (eight 256-entry
/// tables, built once) and processes 8 bytes per step.
///
/// ```swift
/// CRC32.checksum("123456789".utf8)                    // 0xcbf43926
/// CRC32.hex(0xcbf43926)                               // "cbf43926"
/// let whole = CRC32.update(CRC32.checksum(a), b)      // == CRC32.checksum(a + b)
/// ```
///
/// Incremental use follows zlib: `update(crc, bytes)` takes a *finished*
/// checksum (the value `checksum` returned, or `0` to start) and returns the
/// finished checksum of the concatenation.
///
/// One of the few types that read raw memory (the hot loops read the bytes
/// and the tables through pointers, with no check per byte). The invariants:
/// every load of the bytes is inside the ``ByteView`` it was given (8-byte
/// steps while 8 bytes remain, then single bytes; unaligned loads); every
/// table index is a slice base below 2048 plus a byte value below 256, inside
/// the 2048 entries of `tables`, which lives for the whole run. Callers pass
/// views and arrays; tested against a bytewise reference in `CRC32Tests`.
@usableFromInline package enum CRC32 {
    /// The reflected IEEE polynomial.
    package static let polynomial: UInt32 = 0xEDB8_8320

    /// The number of hex digits `hex(_:)` and `writeHex(_:into:)` produce.
    package static let hexDigitCount = 8

    /// The slicing-by-8 tables, `tables[k * 256 + b]`; table 0 is the classic
    /// byte-at-a-time table. Built once, on first use.
    static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ polynomial : crc >> 1
            }
            tables[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    // MARK: - Checksums

    /// The CRC-32 of `bytes`.
    ///
    /// - Parameter bytes: The bytes to checksum; may be empty (gives `0`).
    /// - Returns: The checksum, as zlib's `crc32(0, bytes, count)`.
    /// - Complexity: O(*n*) in the number of bytes.
    @inlinable
    package static func checksum(_ bytes: ByteView) -> UInt32 {
        update(0, bytes)
    }

    /// Continues the checksum `crc` over `bytes`.
    ///
    /// - Parameters:
    ///   - crc: The checksum of the bytes before `bytes` (`0` for none).
    ///   - bytes: The next bytes.
    /// - Returns: The checksum of the earlier bytes followed by `bytes`, as
    ///   zlib's `crc32(crc, bytes, count)`.
    /// - Complexity: O(*n*) in the number of bytes.
    @usableFromInline package static func update(_ crc: UInt32, _ bytes: ByteView) -> UInt32 {
        guard let raw = bytes.buffer.baseAddress, !bytes.isEmpty else { return crc }
        return tables.withUnsafeBufferPointer { tables in
            guard let t0 = tables.baseAddress else { return crc }
            let t1 = t0 + 256, t2 = t0 + 512, t3 = t0 + 768
            let t4 = t0 + 1024, t5 = t0 + 1280, t6 = t0 + 1536, t7 = t0 + 1792
            var crc = ~crc
            let count = bytes.count
            var index = 0
            while index + 8 <= count {
                let one = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
                let two = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
                crc = t7[Int(one & 0xFF)] ^ t6[Int((one >> 8) & 0xFF)] ^ t5[Int((one >> 16) & 0xFF)] ^ t4[Int(one >> 24)]
                    ^ t3[Int(two & 0xFF)] ^ t2[Int((two >> 8) & 0xFF)] ^ t1[Int((two >> 16) & 0xFF)] ^ t0[Int(two >> 24)]
                index += 8
            }
            while index < count {
                crc = t0[Int((crc ^ UInt32(raw.load(fromByteOffset: index, as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
            return ~crc
        }
    }

    /// The CRC-32 of a collection of bytes (`[UInt8]`, `ArraySlice<UInt8>`,
    /// `String.UTF8View`, …).
    ///
    /// Contiguous collections are checksummed in place; others are copied once.
    ///
    /// - Parameter bytes: The bytes to checksum.
    /// - Returns: The checksum, as zlib's `crc32`.
    /// - Complexity: O(*n*) in the number of bytes.
    @inlinable
    package static func checksum(_ bytes: some Collection<UInt8>) -> UInt32 {
        update(0, bytes)
    }

    /// Continues the checksum `crc` over a collection of bytes.
    ///
    /// - Parameters:
    ///   - crc: The checksum of the bytes before `bytes` (`0` for none).
    ///   - bytes: The next bytes.
    /// - Returns: The checksum of the earlier bytes followed by `bytes`.
    /// - Complexity: O(*n*) in the number of bytes.
    @inlinable
    package static func update(_ crc: UInt32, _ bytes: some Collection<UInt8>) -> UInt32 {
        ByteView.with(contentsOf: bytes) { update(crc, $0) }
    }

    // MARK: - Hex

    /// The lowercase hex digits, indexed by nibble.
    static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The checksum as exactly 8 lowercase hex digits, the form stored in the log.
    ///
    /// ```swift
    /// CRC32.hex(0x1c291ca3)   // "1c291ca3"
    /// CRC32.hex(0)            // "00000000"
    /// ```
    ///
    /// - Parameter crc: A checksum.
    /// - Returns: 8 lowercase hex digits, zero-padded.
    package static func hex(_ crc: UInt32) -> String {
        MutableByteView.string(count: hexDigitCount) { writeHex(crc, into: $0) }
    }

    /// Writes the checksum as 8 lowercase hex digits (ASCII) into the first 8
    /// bytes of `buffer`, without allocating.
    ///
    /// - Parameters:
    ///   - crc: A checksum.
    ///   - buffer: At least 8 bytes; bytes past the eighth are left alone.
    ///     A shorter buffer is a programming error (checked with `precondition`).
    package static func writeHex(_ crc: UInt32, into buffer: MutableByteView) {
        precondition(buffer.count >= hexDigitCount, "CRC32.writeHex needs 8 bytes of room")
        hexDigits.withUnsafeBufferPointer { digits in
            for position in 0..<hexDigitCount {
                let nibble = (crc >> UInt32(28 - 4 * position)) & 0xF
                buffer[position] = digits[Int(nibble)]
            }
        }
    }

    /// Appends the checksum as 8 lowercase hex digits (ASCII) to `bytes`.
    ///
    /// - Parameters:
    ///   - crc: A checksum.
    ///   - bytes: The buffer to append to.
    package static func appendHex(_ crc: UInt32, to bytes: inout [UInt8]) {
        MutableByteView.appending(hexDigitCount, to: &bytes) { writeHex(crc, into: $0) }
    }

    /// Parses exactly 8 **lowercase** hex digits, the only form the log stores.
    ///
    /// - Parameter bytes: The digits; anything but 8 bytes of `0-9a-f` fails.
    /// - Returns: The checksum, or `nil` if `bytes` is not in the stored form
    ///   (uppercase digits are rejected: they would not round-trip byte for byte).
    package static func parseHex(_ bytes: ByteView) -> UInt32? {
        guard bytes.count == hexDigitCount else { return nil }
        var value: UInt32 = 0
        for byte in bytes {
            let nibble: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte &- UInt8(ascii: "a") &+ 10
            default: return nil
            }
            value = (value << 4) | UInt32(nibble)
        }
        return value
    }
}

// MARK: - Four runs at once

extension CRC32 {
    /// The CRC-32s of four byte runs at once.
    ///
    /// Slicing-by-8 of one run is bound by the latency of its dependency chain
    /// (each step needs the previous CRC); four independent runs stepped in
    /// lockstep fill the CPU's load ports instead, about three times the
    /// throughput — what the log reader needs to check every line's CRC.
    ///
    /// - Returns: `checksum` of each run, in order.
    /// - Complexity: O(*n*) in the total number of bytes.
    package static func checksums(_ a: ByteView, _ b: ByteView, _ c: ByteView, _ d: ByteView) -> (UInt32, UInt32, UInt32, UInt32) {
        guard let pa = a.buffer.baseAddress, let pb = b.buffer.baseAddress, let pc = c.buffer.baseAddress,
              let pd = d.buffer.baseAddress else {
            return (checksum(a), checksum(b), checksum(c), checksum(d))
        }
        return tables.withUnsafeBufferPointer { tables in
            guard let t = tables.baseAddress else { return (checksum(a), checksum(b), checksum(c), checksum(d)) }
            var ca: UInt32 = ~0
            var cb: UInt32 = ~0
            var cc: UInt32 = ~0
            var cd: UInt32 = ~0
            let common = min(a.count, b.count, c.count, d.count) & ~7
            var index = 0
            while index < common {
                ca = step(ca, pa, index, t)
                cb = step(cb, pb, index, t)
                cc = step(cc, pc, index, t)
                cd = step(cd, pd, index, t)
                index += 8
            }
            return (~finish(ca, pa, from: index, to: a.count, t), ~finish(cb, pb, from: index, to: b.count, t),
                    ~finish(cc, pc, from: index, to: c.count, t), ~finish(cd, pd, from: index, to: d.count, t))
        }
    }

    /// One slicing-by-8 step over `bytes[index..<index+8]` (a running, not finished, CRC).
    @inline(__always)
    private static func step(_ crc: UInt32, _ bytes: UnsafeRawPointer, _ index: Int, _ t: UnsafePointer<UInt32>) -> UInt32 {
        let one = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
        let two = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
        return t[1792 + Int(one & 0xFF)] ^ t[1536 + Int((one >> 8) & 0xFF)] ^ t[1280 + Int((one >> 16) & 0xFF)]
            ^ t[1024 + Int(one >> 24)] ^ t[768 + Int(two & 0xFF)] ^ t[512 + Int((two >> 8) & 0xFF)]
            ^ t[256 + Int((two >> 16) & 0xFF)] ^ t[Int(two >> 24)]
    }

    /// The running CRC continued over `bytes[from..<to]`.
    @inline(__always)
    private static func finish(_ crc: UInt32, _ bytes: UnsafeRawPointer, from: Int, to: Int, _ t: UnsafePointer<UInt32>) -> UInt32 {
        var crc = crc
        var index = from
        while index + 8 <= to {
            crc = step(crc, bytes, index, t)
            index += 8
        }
        while index < to {
            crc = t[Int((crc ^ UInt32(bytes.load(fromByteOffset: index, as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
            index += 1
        }
        return crc
    }
}
