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
}
