import Foundation
import Testing
@testable import DuneEvents

/// A buffer the tests and Python can both regenerate: bytes from a 64-bit LCG.
struct ZlibVector: Sendable, CustomTestStringConvertible {
    var seed: UInt64
    var length: Int
    /// `zlib.crc32(lcgBytes(seed, length))`, computed with Python 3's zlib.
    var crc: UInt32

    var bytes: [UInt8] { lcgBytes(seed: seed, count: length) }
    var testDescription: String { "seed \(seed), \(length) bytes" }
}

/// `s = s * 6364136223846793005 + 1442695040888963407 (mod 2^64)`, byte = `s >> 56`.
func lcgBytes(seed: UInt64, count: Int) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 56)
    }
}

/// The classic byte-at-a-time CRC-32, the reference for slicing-by-8.
func bytewiseCRC32(_ bytes: [UInt8]) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    return ~crc
}

@Suite struct CRC32Tests {
    /// Computed once with `python3 -c 'import zlib; …'`; see `lcgBytes`.
    static let zlibVectors: [ZlibVector] = [
        ZlibVector(seed: 1, length: 1, crc: 0x9606_c2fe),
        ZlibVector(seed: 2, length: 7, crc: 0xa8ba_4847),
        ZlibVector(seed: 3, length: 8, crc: 0xd1be_585c),
        ZlibVector(seed: 4, length: 9, crc: 0x3248_9c26),
        ZlibVector(seed: 5, length: 63, crc: 0xe603_8cff),
        ZlibVector(seed: 6, length: 64, crc: 0xb5e1_81b7),
        ZlibVector(seed: 7, length: 65, crc: 0x4ae2_27cf),
        ZlibVector(seed: 8, length: 1000, crc: 0xa371_1874),
        ZlibVector(seed: 9, length: 4099, crc: 0x5418_be1b),
        ZlibVector(seed: 10, length: 100_000, crc: 0xfffa_7d47),
    ]

    @Test func knownVectorsMatchZlib() {
        #expect(CRC32.checksum("123456789".utf8) == 0xcbf4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum("a".utf8) == 0xe8b7_be43)
        #expect(CRC32.checksum("The quick brown fox jumps over the lazy dog".utf8) == 0x414f_a339)
        #expect(CRC32.checksum(Array(repeating: Array(0...255 as ClosedRange<UInt8>), count: 4).flatMap { $0 }) == 0xb70b_4c26)
    }

    @Test(arguments: zlibVectors)
    func pseudoRandomBuffersMatchPythonZlib(_ vector: ZlibVector) {
        let bytes = vector.bytes
        #expect(CRC32.checksum(bytes) == vector.crc)
        #expect(bytes.withUnsafeBytes { CRC32.checksum($0) } == vector.crc)
    }

    @Test func slicingByEightMatchesBytewiseAtEveryLengthAndAlignment() {
        let bytes = lcgBytes(seed: 42, count: 80)
        for start in 0..<9 {
            for end in start...bytes.count {
                let slice = Array(bytes[start..<end])
                let fast = bytes.withUnsafeBytes { CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
                #expect(fast == bytewiseCRC32(slice), "bytes \(start)..<\(end)")
            }
        }
    }

    @Test func incrementalUpdateEqualsOneShotAtEverySplit() {
        let bytes = lcgBytes(seed: 7, count: 70)
        let whole = CRC32.checksum(bytes)
        for split in 0...bytes.count {
            let first = CRC32.checksum(bytes[..<split])
            #expect(CRC32.update(first, bytes[split...]) == whole, "split at \(split)")
        }
        #expect(CRC32.update(0, bytes) == whole)
    }

    @Test func nonContiguousCollectionsAreChecksummedToo() {
        let bytes = lcgBytes(seed: 3, count: 33)
        #expect(CRC32.checksum(bytes.lazy.map { $0 }) == CRC32.checksum(bytes))
        #expect(CRC32.checksum(AnyCollection(bytes)) == bytewiseCRC32(bytes))
    }

    @Test func hexIsEightLowercaseDigits() {
        #expect(CRC32.hex(0xcbf4_3926) == "cbf43926")
        #expect(CRC32.hex(0) == "00000000")
        #expect(CRC32.hex(0xABCD_EF01) == "abcdef01")
        #expect(CRC32.hex(0x0000_000F) == "0000000f")

        var bytes = Array("x=".utf8)
        CRC32.appendHex(0x1c29_1ca3, to: &bytes)
        #expect(bytes == Array("x=1c291ca3".utf8))

        var buffer = [UInt8](repeating: UInt8(ascii: "-"), count: 10)
        MutableByteView.with(&buffer) { CRC32.writeHex(0xdead_beef, into: $0) }
        #expect(buffer == Array("deadbeef--".utf8))
    }

    @Test func parseHexAcceptsOnlyTheStoredForm() {
        func parse(_ text: String) -> UInt32? { ByteView.with(Array(text.utf8)) { CRC32.parseHex($0) } }
        #expect(parse("cbf43926") == 0xcbf4_3926)
        #expect(parse("00000000") == 0)
        #expect(parse("CBF43926") == nil)
        #expect(parse("cbf4392") == nil)
        #expect(parse("cbf439260") == nil)
        #expect(parse("cbf4392g") == nil)
        for value: UInt32 in [0, 1, 0xffff_ffff, 0x1234_5678] {
            #expect(parse(CRC32.hex(value)) == value)
        }
    }

    @Test func specLineFormatChecksumMatchesZlib() {
        // The CRC covers the bytes before `,"crc":"` (SPEC §4); computed with Python's zlib.
        let payload = #"{"v":1,"seq":12,"id":"0f8b7f5e-3c1a-4f7e-9a53-2d7c4b9e1a10","type":"sample.ingested","recordedAt":"2026-02-28T07:12:03.120Z","data":{"id":"A1B2","kind":"hrv","value":48.2}"#
        #expect(CRC32.hex(CRC32.checksum(payload.utf8)) == "c923a22c")
    }

    /// `python3` on `PATH`, if any.
    static var python3Path: String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: python3Path != nil, "python3 is not installed; the hard-coded zlib vectors still run"))
    func randomBuffersMatchLivePythonZlib() throws {
        let python = try #require(Self.python3Path)
        var generator = SystemRandomNumberGenerator()
        let buffers = (0..<8).map { _ in
            (0..<Int.random(in: 0...5000, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", "import sys, zlib\nfor line in sys.stdin: print('%08x' % zlib.crc32(bytes.fromhex(line.strip())))"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let hexLines = buffers.map { $0.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined() }
        try input.fileHandleForWriting.write(contentsOf: Data((hexLines.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let answer = try output.fileHandleForReading.readToEnd() ?? Data()
        process.waitUntilExit()
        let expected = String(decoding: answer, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(expected == buffers.map { CRC32.hex(CRC32.checksum($0)) })
    }
}
