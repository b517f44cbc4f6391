/// One `data` member's value, as scanned.
struct FieldSlot {
    enum Kind: UInt8 { case absent, string, number, measurement }
    var kind: Kind = .absent
    /// A string's bytes; a measurement's unit.
    var slice = LineSlice(start: 0, count: 0, nonASCII: false)
    /// A number; a measurement's value.
    var number = 0.0
    /// The number was written as digits only (no sign, fraction or exponent), at most 15 of them.
    var isPlainInteger = false
}
