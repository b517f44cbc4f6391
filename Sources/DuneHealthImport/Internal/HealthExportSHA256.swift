import DuneEvents

/// SHA-256 (FIPS 180-4) in plain Swift, for the stable ids of imported records.
///
/// The toolchain has no hash in the standard library and the project takes no
/// third-party packages (swift-crypto), so this is the textbook algorithm,
/// checked against the FIPS test vectors in the tests. Each emitted record
/// hashes about 150 bytes, so the block function works on raw memory to
/// stay cheap next to the scanning.
struct HealthExportSHA256 {
    private var state: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
    ]
    private var pending: [UInt8] = []
    private var totalBytes: UInt64 = 0

    init() {
        pending.reserveCapacity(64)
    }

    /// The 32-byte digest of `bytes`.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = HealthExportSHA256()
        hasher.update(bytes)
        return hasher.finish()
    }

    /// Adds `bytes` to the message.
    mutating func update(_ bytes: [UInt8]) {
        totalBytes &+= UInt64(bytes.count)
        var index = 0
        if !pending.isEmpty {
            let take = min(64 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            index = take
            guard pending.count == 64 else { return }
            let block = pending
            block.withUnsafeBytes { compress($0, blocks: 1) }
            pending.removeAll(keepingCapacity: true)
        }
        let whole = (bytes.count - index) / 64
        if whole > 0 {
            bytes.withUnsafeBytes { raw in
                compress(UnsafeRawBufferPointer(rebasing: raw[index..<(index + whole * 64)]), blocks: whole)
            }
            index += whole * 64
        }
        pending.append(contentsOf: bytes[index...])
    }

    /// Pads, compresses the last block(s) and returns the digest.
    mutating func finish() -> [UInt8] {
        let bitLength = totalBytes &* 8
        var tail = pending
        tail.append(0x80)
        while tail.count % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        tail.withUnsafeBytes { compress($0, blocks: tail.count / 64) }
        pending.removeAll(keepingCapacity: true)
        var digest: [UInt8] = []
        digest.reserveCapacity(32)
        for word in state {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    // MARK: - Compression

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]

    @inline(__always)
    private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }

    /// Runs the block function over `blocks` consecutive 64-byte blocks of `data`.
    private mutating func compress(_ data: UnsafeRawBufferPointer, blocks: Int) {
        var h0 = state[0], h1 = state[1], h2 = state[2], h3 = state[3]
        var h4 = state[4], h5 = state[5], h6 = state[6], h7 = state[7]
        Self.roundConstants.withUnsafeBufferPointer { k in
            withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
                for block in 0..<blocks {
                    let base = block * 64
                    for index in 0..<16 {
                        let offset = base + 4 * index
                        w[index] = UInt32(data[offset]) << 24 | UInt32(data[offset + 1]) << 16
                            | UInt32(data[offset + 2]) << 8 | UInt32(data[offset + 3])
                    }
                    for index in 16..<64 {
                        let w15 = w[index - 15], w2 = w[index - 2]
                        let s0 = Self.rotateRight(w15, 7) ^ Self.rotateRight(w15, 18) ^ (w15 >> 3)
                        let s1 = Self.rotateRight(w2, 17) ^ Self.rotateRight(w2, 19) ^ (w2 >> 10)
                        w[index] = w[index - 16] &+ s0 &+ w[index - 7] &+ s1
                    }
                    var a = h0, b = h1, c = h2, d = h3, e = h4, f = h5, g = h6, h = h7
                    for index in 0..<64 {
                        let s1 = Self.rotateRight(e, 6) ^ Self.rotateRight(e, 11) ^ Self.rotateRight(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ choice &+ k[index] &+ w[index]
                        let s0 = Self.rotateRight(a, 2) ^ Self.rotateRight(a, 13) ^ Self.rotateRight(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = s0 &+ majority
                        h = g; g = f; f = e; e = d &+ t1
                        d = c; c = b; b = a; a = t1 &+ t2
                    }
                    h0 = h0 &+ a; h1 = h1 &+ b; h2 = h2 &+ c; h3 = h3 &+ d
                    h4 = h4 &+ e; h5 = h5 &+ f; h6 = h6 &+ g; h7 = h7 &+ h
                }
            }
        }
        state = [h0, h1, h2, h3, h4, h5, h6, h7]
    }
}
