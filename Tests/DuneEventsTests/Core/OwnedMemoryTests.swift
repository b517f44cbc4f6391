import Testing
@testable import DuneEvents

/// The owner types that write raw memory — `MutableByteView`, `AlignedBytes` —
/// and `PackedRows` read in place from a mapped file, at the edges their
/// invariants name: every unaligned offset, empty ranges, overlapping copies,
/// growth, and rows past the file's end.
@Suite struct OwnedMemoryTests {
    // MARK: - MutableByteView

    @Test func aMutableViewWritesOnlyItsOwnBytes() {
        var bytes = [UInt8](repeating: 0xEE, count: 12)
        MutableByteView.with(&bytes) { view in
            let middle = view.subview(4..<8)
            #expect(middle.count == 4)
            for index in 0..<middle.count { middle[index] = UInt8(index + 1) }
            #expect(Array(middle.view) == [1, 2, 3, 4])
            #expect(view.subview(12..<12).count == 0)
        }
        #expect(bytes == [0xEE, 0xEE, 0xEE, 0xEE, 1, 2, 3, 4, 0xEE, 0xEE, 0xEE, 0xEE])
    }

    @Test func littleEndianStoresWriteEveryUnalignedOffsetAndNothingAround() {
        for offset in 0...8 {
            var bytes = [UInt8](repeating: 0xAA, count: 17)
            MutableByteView.with(&bytes) { $0.storeLittleEndian(UInt64(0x0807_0605_0403_0201), at: offset) }
            #expect(Array(bytes[offset..<(offset + 8)]) == [1, 2, 3, 4, 5, 6, 7, 8], "offset \(offset)")
            #expect(bytes[..<offset].allSatisfy { $0 == 0xAA } && bytes[(offset + 8)...].allSatisfy { $0 == 0xAA })
            #expect(ByteView.with(bytes) { $0.loadLittleEndian(at: offset, as: UInt64.self) } == 0x0807_0605_0403_0201)
        }
        var short = [UInt8](repeating: 0, count: 3)
        MutableByteView.with(&short) { $0.storeLittleEndian(UInt16(0xBEEF), at: 1) }
        #expect(short == [0, 0xEF, 0xBE])
    }

    @Test func copiesMayOverlapInEitherDirection() {
        var forward = Array(0..<10 as Range<UInt8>)
        MutableByteView.with(&forward) { $0.copy($0.view.subview(0..<6), to: 3) }
        #expect(forward == [0, 1, 2, 0, 1, 2, 3, 4, 5, 9])
        var backward = Array(0..<10 as Range<UInt8>)
        MutableByteView.with(&backward) { $0.copy($0.view.subview(3..<9), to: 1) }
        #expect(backward == [0, 3, 4, 5, 6, 7, 8, 7, 8, 9])
        var unchanged = Array(0..<4 as Range<UInt8>)
        MutableByteView.with(&unchanged) { $0.copy($0.view.subview(2..<2), to: 4) }
        #expect(unchanged == [0, 1, 2, 3])
    }

    @Test func appendingFillsExactlyTheNewBytesAfterWhatWasThere() {
        var output = Array("id=".utf8)
        MutableByteView.appending(4, to: &output) { room in
            #expect(room.count == 4)
            #expect(Array(room.view) == [0, 0, 0, 0])
            for index in 0..<4 { room[index] = UInt8(ascii: "a") + UInt8(index) }
        }
        #expect(output == Array("id=abcd".utf8))
        MutableByteView.appending(0, to: &output) { #expect($0.count == 0) }
        #expect(output == Array("id=abcd".utf8))
        var empty: [UInt8] = []
        MutableByteView.with(&empty) { #expect($0.count == 0) }
    }

    @Test func aStringIsMadeOfExactlyTheBytesWritten() {
        #expect(MutableByteView.string(count: 3) { room in
            room[0] = UInt8(ascii: "a")
            room[1] = UInt8(ascii: "b")
            room[2] = UInt8(ascii: "c")
        } == "abc")
        #expect(MutableByteView.string(count: 0) { _ in } == "")
        #expect(CRC32.hex(0x0000_00ff) == "000000ff")
        #expect(PackedUUID("6F9619FF-8B86-D011-B42D-00C04FC964FF")?.text == "6F9619FF-8B86-D011-B42D-00C04FC964FF")
    }

    // MARK: - AlignedBytes

    @Test(arguments: [1, 16, 64, 4096])
    func alignedBytesStartZeroedAndAligned(alignment: Int) {
        let buffer = AlignedBytes(count: 100, alignment: alignment)
        #expect(buffer.count == 100)
        let view = buffer.bytes(0..<100)
        #expect(Array(view).allSatisfy { $0 == 0 })
        #expect(Int(bitPattern: view.buffer.baseAddress) % alignment == 0)
        #expect(AlignedBytes(count: 0, alignment: alignment).count == 1)
    }

    @Test func alignedBytesReadBackWhatTheirRoomsHold() {
        let buffer = AlignedBytes(count: 16, alignment: 64)
        let room = buffer.room(5..<9)
        for index in 0..<4 { room[index] = UInt8(10 + index) }
        #expect(Array(buffer.bytes(4..<10)) == [0, 10, 11, 12, 13, 0])
        #expect(buffer.bytes(16..<16).count == 0)
        // Overlapping moves, as the forget copy makes when it keeps an unaligned end.
        buffer.copy(buffer.bytes(5..<9), to: 0)
        #expect(Array(buffer.bytes(0..<9)) == [10, 11, 12, 13, 0, 10, 11, 12, 13])
        buffer.copy(buffer.bytes(0..<4), to: 2)
        #expect(Array(buffer.bytes(0..<6)) == [10, 11, 10, 11, 12, 13])
    }

    @Test func growingKeepsEveryByteTheAlignmentAndZeroesTheNewHalf() {
        let buffer = AlignedBytes(count: 8, alignment: 64)
        for index in 0..<8 { buffer.room(index..<(index + 1))[0] = UInt8(index + 1) }
        buffer.grow()
        #expect(buffer.count == 16)
        #expect(Array(buffer.bytes(0..<16)) == [1, 2, 3, 4, 5, 6, 7, 8, 0, 0, 0, 0, 0, 0, 0, 0])
        #expect(Int(bitPattern: buffer.bytes(0..<1).buffer.baseAddress) % 64 == 0)
        buffer.grow()
        #expect(buffer.count == 32)
        #expect(Array(buffer.bytes(0..<8)) == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    // MARK: - Rows read in place

    /// Rows written at an odd offset of a file read back the same in place,
    /// through the mapping; rows past the file's end are refused.
    @Test(arguments: [0, 1, 3, 5_000])
    func rowsReadInPlaceFromAMappedFileAreTheRowsWritten(count: Int) async throws {
        let rows = (0..<count).map { (index: Int) in
            PackedSample(idHigh: UInt64(index) &* 0x9E37_79B9, idLow: ~UInt64(index), seq: index + 1, value: Double(index) / 3,
                         startSeconds: Int64(index) * 60, endSeconds: Int64(index) * 60 + 30, startNanoseconds: Int32(index % 1000),
                         endNanoseconds: -1, startOffsetMinutes: 120, endOffsetMinutes: -300, source: UInt16(index % 7),
                         kindIndex: UInt8(index % 9), flags: UInt8(index & 0xFF))
        }
        try await withTemporaryDirectory { directory in
            let path = directory + "/rows"
            let prefix: [UInt8] = [7, 7, 7]  // rows at an unaligned offset, as a snapshot's sections lie
            try logTestWrite(path, prefix + PackedRows(rows).withMemoryBytes { Array($0) } + [9])
            let file = try #require(MappedFile(path))
            let mapped = try #require(PackedRows(in: file, offset: prefix.count, count: count))
            #expect(mapped.isMapped)
            #expect(Array(mapped).map(\.seq) == rows.map(\.seq))
            #expect(mapped.indices.allSatisfy { index in
                withUnsafeBytes(of: mapped[index]) { Array($0) } == withUnsafeBytes(of: rows[index]) { Array($0) }
            })
            #expect(mapped.withMemoryBytes { Array($0) } == PackedRows(rows).withMemoryBytes { Array($0) })
            var visited: [Int] = []
            #expect(mapped.forEachRow { _, row in
                visited.append(row.seq)
                return true
            })
            #expect(visited == rows.map(\.seq), "forEachRow visits every row in order")
            if count > 0 {
                var stoppedAfter = 0
                #expect(!mapped.forEachRow { position, _ in
                    stoppedAfter = position
                    return position < count / 2
                }, "a body that returns false stops the pass")
                #expect(stoppedAfter == count / 2)
            }
            #expect(PackedRows(in: file, offset: prefix.count + 2, count: count) == nil, "the last row would end past the file")
        }
    }

    // MARK: - Users of the views

    @Test func binaryWriterAndReaderAgreeAtUnalignedPositions() {
        var writer = BinaryWriter()
        writer.uint8(9)
        writer.uint16(0xBEEF)
        writer.uint32(0xDEAD_BEEF)
        writer.uint64(UInt64.max - 1)
        writer.integer(-42)
        writer.double(-0.5)
        let digests = [ContentDigest(high: 1, low: 2), ContentDigest(high: .max, low: 0x0102_0304_0506_0708)]
        writer.digests(digests)
        writer.string("é ok")
        #expect(writer.bytes.count == 1 + 2 + 4 + 8 + 8 + 8 + 32 + 8 + 5)
        #expect(Array(writer.bytes[1..<3]) == [0xEF, 0xBE])
        var reader = BinaryReader(writer.bytes, from: 0)
        #expect(reader.uint8() == 9)
        #expect(reader.uint16() == 0xBEEF)
        #expect(reader.uint32() == 0xDEAD_BEEF)
        #expect(reader.uint64() == UInt64.max - 1)
        #expect(reader.integer() == -42)
        #expect(reader.double() == -0.5)
        #expect(reader.digests(2) == digests)
        #expect(reader.string() == "é ok")
        #expect(reader.isAtEnd)
        #expect(reader.uint8() == nil && reader.uint64() == nil && reader.digests(1) == nil)
    }

    @Test func storedStringsReadBackOnlyWhenTheyAreUTF8() {
        var writer = BinaryWriter()
        for text in ["", "01a21eae-c878-7c7c-a48c-24d471edfcac", "Régis’s 🏃 watch"] { writer.string(text) }
        writer.data([0x61, 0xC3])        // a two-byte scalar cut after its first byte
        writer.data([0xED, 0xA0, 0x80])  // a surrogate's encoding
        writer.data([0x80, 0x41])        // a lone continuation byte
        var reader = BinaryReader(writer.bytes, from: 0)
        #expect(reader.string() == "")
        #expect(reader.string() == "01a21eae-c878-7c7c-a48c-24d471edfcac")
        #expect(reader.string() == "Régis’s 🏃 watch")
        #expect(reader.string() == nil && reader.string() == nil && reader.string() == nil)
        #expect(reader.isAtEnd, "a refused string is still read past")
    }

    @Test func byteViewCopiedHoldsExactlyTheViewedBytes() {
        let bytes: [UInt8] = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        ByteView.with(bytes) { view in
            #expect(view.subview(3..<290).copied == Array(bytes[3..<290]))
            #expect(view.subview(5..<5).copied == [])
        }
    }

    @Test(arguments: [1, 9, 10, 99, 100, 1_234_567, Int.max, 0, -7])
    func integersAreWrittenInDecimal(value: Int) {
        var output = Array("x".utf8)
        JSONWriter.writeInteger(value, into: &output)
        #expect(output == Array("x\(value)".utf8))
    }

    @Test func theStoredCRCIsReadFromTheTrailerOnly() {
        var line = Array(#"{"a":1"#.utf8)
        StoredLine.seal(&line)
        line.removeLast()  // the newline
        let crc = CRC32.checksum(Array(#"{"a":1"#.utf8))
        #expect(ByteView.with(line) { StoredLine.storedCRC(of: $0) } == crc)
        #expect(StoredLine.isIntact(line))
        var uppercase = line
        let hexStart = line.count - 10
        for index in hexStart..<(hexStart + 8) where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(uppercase[index]) {
            uppercase[index] -= 0x20
        }
        if uppercase != line { #expect(ByteView.with(uppercase) { StoredLine.storedCRC(of: $0) } == nil) }
        #expect(ByteView.with(Array(line.dropLast())) { StoredLine.storedCRC(of: $0) } == nil)
    }
}
