/// A run of bytes in the line: offset and length.
struct LineSlice {
    var start: Int
    var count: Int
    /// Whether any byte is 0x80 or above (the text must be validated as UTF-8).
    var nonASCII: Bool
}
