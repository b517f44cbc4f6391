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
    package static func checksums(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer,
                                 _ c: UnsafeRawBufferPointer, _ d: UnsafeRawBufferPointer) -> (UInt32, UInt32, UInt32, UInt32) {
        guard let pa = a.baseAddress, let pb = b.baseAddress, let pc = c.baseAddress, let pd = d.baseAddress else {
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
