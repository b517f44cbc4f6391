/// A run of bytes in the line: offset and length.
@usableFromInline package struct LineSlice {
    @usableFromInline package var start: Int
    @usableFromInline package var count: Int
    /// Whether any byte is 0x80 or above (the text must be validated as UTF-8).
    @usableFromInline package var nonASCII: Bool

    @inlinable init(start: Int, count: Int, nonASCII: Bool) { (self.start, self.count, self.nonASCII) = (start, count, nonASCII) }
}
