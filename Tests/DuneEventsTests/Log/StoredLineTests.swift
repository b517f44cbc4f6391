import Testing
@testable import DuneEvents

@Suite struct StoredLineTests {
    /// The SPEC §4 shape; the CRC was computed with Python's `zlib.crc32` over
    /// the bytes before `,"crc":"`.
    static let specPayload = #"{"v":1,"seq":12,"id":"0f8b7f5e-3c1a-4f7e-9a53-2d7c4b9e1a10","type":"sample.ingested","recordedAt":"2026-02-28T07:12:03.120Z","data":{"id":"A1B2","kind":"hrv","value":48.2}"#
    static let specLine = specPayload + #","crc":"c923a22c"}"#

    @Test func sealAppendsTheCRCTrailerAndNewline() {
        var bytes = Array(Self.specPayload.utf8)
        StoredLine.seal(&bytes)
        #expect(bytes == Array((Self.specLine + "\n").utf8))
    }

    @Test func sealedLineIsIntact() {
        #expect(StoredLine.isIntact(Array(Self.specLine.utf8)))
        #expect(Array(Self.specLine.utf8).withUnsafeBytes { StoredLine.isIntact($0) })
        #expect(Array(Self.specLine.utf8).withUnsafeBytes { StoredLine.payloadLength(of: $0) } == Self.specPayload.utf8.count)
        #expect(StoredLine.trailerLength == 18)
    }

    @Test func everySingleByteChangeIsDetected() {
        let line = Array(Self.specLine.utf8)
        for index in line.indices {
            for flip: UInt8 in [0x01, 0x20, 0x80] {
                var changed = line
                changed[index] ^= flip
                #expect(!StoredLine.isIntact(changed), "byte \(index) ^ \(flip)")
            }
        }
    }

    @Test func everyTruncationIsDetected() {
        let line = Array(Self.specLine.utf8)
        for length in 0..<line.count {
            #expect(!StoredLine.isIntact(line[..<length]), "first \(length) bytes")
        }
        // With the newline still attached it is not a line "without \n".
        #expect(!StoredLine.isIntact(line + [UInt8(ascii: "\n")]))
    }

    @Test func uppercaseHexIsNotTheStoredForm() {
        #expect(!StoredLine.isIntact(Array((Self.specPayload + #","crc":"C923A22C"}"#).utf8)))
    }

    @Test func aCRCKeyInsideDataIsJustPayload() {
        var bytes = Array(#"{"v":1,"data":{"x":1,"crc":"00000000"}"#.utf8)
        StoredLine.seal(&bytes)
        let line = Array(bytes.dropLast())
        #expect(StoredLine.isIntact(line))
        #expect(line.withUnsafeBytes { StoredLine.payloadLength(of: $0) } == line.count - 18)
    }

    @Test func lineMustStartWithABrace() {
        var bytes = Array(#"x"v":1"#.utf8)
        StoredLine.seal(&bytes)
        #expect(!StoredLine.isIntact(bytes.dropLast()))
    }
}
