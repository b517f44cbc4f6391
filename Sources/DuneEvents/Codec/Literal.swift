/// Up to 16 bytes to match, as two little-endian words and masks.
struct Literal: Equatable {
    let first: UInt64
    let second: UInt64
    let firstMask: UInt64
    let secondMask: UInt64
    let count: Int

    // The literals are written out as numbers so that they are static data,
    // not lazily initialised globals; `FastDecoderTests` checks each against
    // its text with `init(_:)`.

    init(first: UInt64, second: UInt64, firstMask: UInt64, secondMask: UInt64, count: Int) {
        self.first = first
        self.second = second
        self.firstMask = firstMask
        self.secondMask = secondMask
        self.count = count
    }

    /// The literal `text` (at most 16 bytes).
    init(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        precondition(count <= 16, "a Literal is at most 16 bytes")
        var words: [UInt64] = [0, 0]
        for offset in 0..<count { words[offset / 8] |= UInt64(text.utf8Start[offset]) << UInt64(8 * (offset % 8)) }
        first = words[0]
        second = words[1]
        firstMask = count >= 8 ? ~0 : (1 << UInt64(8 * count)) - 1
        secondMask = count >= 16 ? ~0 : (count <= 8 ? 0 : (1 << UInt64(8 * (count - 8))) - 1)
        self.count = count
    }

    /// `{"v":`
    static let version = Literal(first: 0x0000_003A_2276_227B, second: 0x0000_0000_0000_0000, firstMask: 0x0000_00FF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 5)
    /// `,"seq":`
    static let seq = Literal(first: 0x003A_2271_6573_222C, second: 0x0000_0000_0000_0000, firstMask: 0x00FF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 7)
    /// `,"measure":"`
    static let measure = Literal(first: 0x7275_7361_656D_222C, second: 0x0000_0000_223A_2265, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_FFFF_FFFF, count: 12)
    /// `,"id":"`
    static let id = Literal(first: 0x0022_3A22_6469_222C, second: 0x0000_0000_0000_0000, firstMask: 0x00FF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 7)
    /// `,"type":"`
    static let type = Literal(first: 0x3A22_6570_7974_222C, second: 0x0000_0000_0000_0022, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_00FF, count: 9)
    /// `sample.ingested"`
    static let sampleIngested = Literal(first: 0x692E_656C_706D_6173, second: 0x2264_6574_7365_676E, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0xFFFF_FFFF_FFFF_FFFF, count: 16)
    /// `,"recordedAt":"`
    static let recordedAt = Literal(first: 0x6472_6F63_6572_222C, second: 0x0022_3A22_7441_6465, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x00FF_FFFF_FFFF_FFFF, count: 15)
    /// `,"data":`
    static let data = Literal(first: 0x3A22_6174_6164_222C, second: 0x0000_0000_0000_0000, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 8)
    /// `{"end":"`
    static let end = Literal(first: 0x223A_2264_6E65_227B, second: 0x0000_0000_0000_0000, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 8)
    /// `,"kind":"`
    static let kind = Literal(first: 0x3A22_646E_696B_222C, second: 0x0000_0000_0000_0022, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_00FF, count: 9)
    /// `,"source":"`
    static let source = Literal(first: 0x6563_7275_6F73_222C, second: 0x0000_0000_0022_3A22, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_00FF_FFFF, count: 11)
    /// `,"start":"`
    static let start = Literal(first: 0x2274_7261_7473_222C, second: 0x0000_0000_0000_223A, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_FFFF, count: 10)
    /// `,"unit":"`
    static let unit = Literal(first: 0x3A22_7469_6E75_222C, second: 0x0000_0000_0000_0022, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_00FF, count: 9)
    /// `,"value":"`
    static let stringValue = Literal(first: 0x2265_756C_6176_222C, second: 0x0000_0000_0000_223A, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_FFFF, count: 10)
    /// `,"value":`
    static let numberValue = Literal(first: 0x2265_756C_6176_222C, second: 0x0000_0000_0000_003A, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_00FF, count: 9)
    /// `"unit":"`
    static let unitMember = Literal(first: 0x223A_2274_696E_7522, second: 0x0000_0000_0000_0000, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 8)
    /// `"value":`
    static let valueMember = Literal(first: 0x3A22_6575_6C61_7622, second: 0x0000_0000_0000_0000, firstMask: 0xFFFF_FFFF_FFFF_FFFF, secondMask: 0x0000_0000_0000_0000, count: 8)
}
