/// A run of bytes in the line: offset and length.
package struct LineSlice {
    package var start: Int
    package var count: Int
    /// Whether any byte is 0x80 or above (the text must be validated as UTF-8).
    package var nonASCII: Bool
}
