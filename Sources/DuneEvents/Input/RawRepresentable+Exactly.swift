extension RawRepresentable where RawValue == String {
    /// The case whose raw value is `text` byte for byte.
    ///
    /// `init(rawValue:)` compares strings by canonical equivalence, so it also
    /// takes, say, `health\u{212A}itObserver` (U+212A KELVIN SIGN) for
    /// `healthKitObserver`. Input must not: the line's content keeps the bytes
    /// as written while the stored event gives back the raw value, and a
    /// retry of the line would then be answered as a conflict.
    package init?(exactly text: String) {
        guard let value = Self(rawValue: text), value.rawValue.utf8.elementsEqual(text.utf8) else { return nil }
        self = value
    }
}
