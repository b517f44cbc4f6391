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
package enum CRC32 {
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
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
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
    package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let raw = bytes.baseAddress, !bytes.isEmpty else { return crc }
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
        if let result = bytes.withContiguousStorageIfAvailable({ update(crc, UnsafeRawBufferPointer($0)) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { update(crc, $0) }
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
        String(unsafeUninitializedCapacity: hexDigitCount) { buffer in
            writeHex(crc, into: UnsafeMutableRawBufferPointer(buffer))
            return hexDigitCount
        }
    }

    /// Writes the checksum as 8 lowercase hex digits (ASCII) into the first 8
    /// bytes of `buffer`, without allocating.
    ///
    /// - Parameters:
    ///   - crc: A checksum.
    ///   - buffer: At least 8 bytes; bytes past the eighth are left alone.
    ///     A shorter buffer is a programming error (checked with `precondition`).
    package static func writeHex(_ crc: UInt32, into buffer: UnsafeMutableRawBufferPointer) {
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
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: hexDigitCount))
        bytes.withUnsafeMutableBytes { buffer in
            writeHex(crc, into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Parses exactly 8 **lowercase** hex digits, the only form the log stores.
    ///
    /// - Parameter bytes: The digits; anything but 8 bytes of `0-9a-f` fails.
    /// - Returns: The checksum, or `nil` if `bytes` is not in the stored form
    ///   (uppercase digits are rejected: they would not round-trip byte for byte).
    package static func parseHex(_ bytes: UnsafeRawBufferPointer) -> UInt32? {
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
