import Testing
@testable import DuneEvents
@testable import DuneTools

/// `ByteView`'s invariants at their edges: empty views, every length around the
/// eight-byte step of its comparison, a difference at every position, unaligned
/// starts, and the lookups that take a view (`FieldKey`, `InputMember`).
@Suite struct ByteViewTests {
    @Test func anEmptyArrayGivesAnEmptyViewThatMatchesOnlyTheEmptyName() {
        ByteView.with([]) { view in
            #expect(view.count == 0)
            #expect(Array(view) == [])
            #expect(view.matches(""))
            #expect(!view.matches("a"))
        }
        let empties = ByteView.with([]) { left in ByteView.with([]) { right in left == right } }
        #expect(empties)
    }

    @Test func countSubscriptAndCopyReadExactlyTheBytesInView() {
        let bytes: [UInt8] = [0, 1, 0x7F, 0x80, 0xFF]
        ByteView.with(bytes) { view in
            #expect(view.count == 5)
            #expect((0..<view.count).map { view[$0] } == bytes)
            #expect(Array(view) == bytes)
            #expect(view.elementsEqual(bytes))
            #expect(view.dropFirst().dropLast().elementsEqual(bytes.dropFirst().dropLast()))
            var output: [UInt8] = [9]
            view.append(to: &output)
            #expect(output == [9] + bytes)
        }
    }

    @Test(arguments: 0...20)
    func equalityFindsADifferenceAtEveryPosition(length: Int) {
        let base = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        #expect(ByteView.with(base) { left in ByteView.with(base) { right in left == right } })
        for position in 0..<length {
            var changed = base
            changed[position] ^= 0x01
            #expect(!ByteView.with(base) { left in ByteView.with(changed) { right in left == right } })
        }
        if length > 0 {
            #expect(!ByteView.with(base) { left in ByteView.with(Array(base.dropLast())) { right in left == right } })
        }
    }

    @Test func equalReadsUnalignedStartsOnBothSides() {
        let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let copy = [0xAA] + bytes
        bytes.withUnsafeBytes { left in
            copy.withUnsafeBytes { right in
                for offset in 0..<8 {
                    let count = 64 - 8 - offset
                    #expect(ByteView.equal(left.baseAddress! + offset, right.baseAddress! + 1 + offset, count: count))
                    #expect(!ByteView.equal(left.baseAddress! + offset, right.baseAddress! + offset, count: count))
                }
            }
        }
    }

    @Test func matchesNeedsTheSameLengthAndBytes() {
        ByteView.with(Array("source".utf8)) { view in
            #expect(view.matches("source"))
            #expect(!view.matches("sourc"))
            #expect(!view.matches("sources"))
            #expect(!view.matches("Source"))
        }
    }

    @Test func everyFieldKeyIsFoundByItsNameAndNothingElse() {
        for key in FieldKey.allCases {
            let name = Array(String(describing: key).utf8)
            #expect(ByteView.with(name) { FieldKey.named($0) } == key)
            #expect(ByteView.with(name + [UInt8(ascii: "x")]) { FieldKey.named($0) } == nil)
            #expect(ByteView.with(Array(name.dropLast())) { FieldKey.named($0) } == nil)
        }
        #expect(ByteView.with([]) { FieldKey.named($0) } == nil)
    }

    @Test func everyInputMemberIsFoundByItsNameAndNothingElse() {
        let members: [InputMember] = [.at, .end, .error, .eventID, .feature, .id, .kind, .measure, .phase, .source, .start,
                                      .task, .type, .unit, .value]
        for member in members {
            let name = Array(String(describing: member).utf8)
            #expect(ByteView.with(name) { InputMember.named($0) } == member)
            #expect(ByteView.with(name + [UInt8(ascii: "s")]) { InputMember.named($0) } == nil)
        }
        #expect(ByteView.with(Array("sleepTargetMinutes".utf8)) { InputMember.named($0) } == nil)
    }

    @Test func aStaticStringViewHoldsItsUTF8() {
        let view = ByteView("\"name\":")
        #expect(Array(view) == Array("\"name\":".utf8))
        #expect(view.dropFirst().dropLast(2).elementsEqual("name".utf8))
        #expect(view.matches("\"name\":"))
    }

    @Test(arguments: ["", "Oura", "é Whoop ☃", "Apple Watch"])
    func aStringViewHoldsItsUTF8(text: String) {
        #expect(ByteView.with(text) { Array($0) } == Array(text.utf8))
    }

    @Test func hrvMeasureFoldsCaseOverAView() {
        #expect(HRVMeasure(source: "My OURA ring") == .rmssd)
        #expect(HRVMeasure(source: "WHOOP 4.0") == .rmssd)
        #expect(HRVMeasure(source: "whoo") == .sdnn)
        #expect(HRVMeasure(source: "") == .sdnn)
        #expect(ByteView.with(Array("xxoUrA".utf8)) { HRVMeasure(sourceBytes: $0) } == .rmssd)
    }

    @Test func unescapedTextIsCopiedAsItIs() {
        var output: [UInt8] = []
        ByteView.with(Array("2026-03-01T07:30:00Z".utf8)) { UnescapedJSONText(bytes: $0).write(into: &output) }
        #expect(output == Array("2026-03-01T07:30:00Z".utf8))
    }

    @Test func subviewsCoverExactlyTheirRangeAtBothEnds() {
        let bytes = (0..<20).map { UInt8($0) }
        ByteView.with(bytes) { view in
            #expect(Array(view.subview(0..<0)) == [])
            #expect(Array(view.subview(20..<20)) == [])
            #expect(Array(view.subview(0..<20)) == bytes)
            #expect(Array(view.subview(3..<7)) == [3, 4, 5, 6])
            #expect(Array(view.subview(from: 17)) == [17, 18, 19])
            #expect(Array(view.subview(2..<12).subview(5..<10)) == [7, 8, 9, 10, 11])
        }
    }

    @Test func littleEndianLoadsReadEveryUnalignedOffset() {
        let bytes = (0..<40).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
        func expected<T: FixedWidthInteger>(_ offset: Int, _ type: T.Type) -> T {
            (0..<MemoryLayout<T>.size).reduce(T.zero) { $0 | T(bytes[offset + $1]) << (8 * $1) }
        }
        ByteView.with(bytes) { view in
            for offset in 0...(40 - 8) {
                #expect(view.loadLittleEndian(at: offset, as: UInt64.self) == expected(offset, UInt64.self))
                #expect(view.loadLittleEndian(at: offset, as: UInt32.self) == expected(offset, UInt32.self))
                #expect(view.loadLittleEndian(at: offset, as: UInt16.self) == expected(offset, UInt16.self))
            }
            // The last whole word ends at the view's last byte.
            #expect(view.loadLittleEndian(at: 32, as: UInt64.self) == expected(32, UInt64.self))
        }
    }

    @Test func anyCollectionGivesAViewOfTheSameBytes() {
        let bytes = Array("a line of bytes".utf8)
        #expect(ByteView.with(contentsOf: bytes) { Array($0) } == bytes)
        #expect(ByteView.with(contentsOf: bytes[2..<6]) { Array($0) } == Array(bytes[2..<6]))
        #expect(ByteView.with(bytes[2..<6]) { Array($0) } == Array(bytes[2..<6]))
        // Not contiguous: copied once, same bytes.
        #expect(ByteView.with(contentsOf: bytes.lazy.map { $0 }) { Array($0) } == bytes)
        #expect(ByteView.with(contentsOf: "text".utf8) { Array($0) } == Array("text".utf8))
        #expect(ByteView.with(contentsOf: [UInt8]()) { $0.count } == 0)
        // A view passes through as itself.
        ByteView.with(bytes) { view in
            #expect(ByteView.with(contentsOf: view) { $0 == view })
            #expect(ByteView(view) == view)
        }
    }

    @Test func aViewAppendsAndDecodesThroughItsContiguousStorage() {
        let bytes = Array("caf\u{e9}".utf8)
        ByteView.with(bytes) { view in
            #expect(view.withContiguousStorageIfAvailable { Array($0) } == bytes)
            var output: [UInt8] = [1]
            output.append(contentsOf: view)
            #expect(output == [1] + bytes)
            #expect(String(decoding: view, as: UTF8.self) == "caf\u{e9}")
        }
    }

    @Test func newlinesAreFoundInAViewWithinItsBounds() {
        let bytes = Array("ab\ncd\n\nxyz".utf8)
        ByteView.with(bytes) { view in
            #expect(LineScanning.firstNewline(in: view, from: 0, to: view.count) == 2)
            #expect(LineScanning.firstNewline(in: view, from: 3, to: view.count) == 5)
            #expect(LineScanning.firstNewline(in: view, from: 3, to: 5) == nil)  // `to` is excluded
            #expect(LineScanning.firstNewline(in: view, from: 7, to: view.count) == nil)
            #expect(LineScanning.firstNewline(in: view, from: 4, to: 4) == nil)
            #expect(LineScanning.newlineCount(in: view) == 3)
            var lines: [String] = []
            LineScanning.forEachCompleteLine(in: view) { start, end in
                lines.append(String(decoding: view.subview(start..<end), as: UTF8.self))
            }
            #expect(lines == ["ab", "cd", ""])  // "xyz" has no newline: not a line
        }
        #expect(ByteView.with([]) { LineScanning.newlineCount(in: $0) } == 0)
        #expect(ByteView.with([]) { LineScanning.firstNewline(in: $0, from: 0, to: 0) } == nil)
    }
}
