/// The bytes of a JSON string that need no escaping — a string member the fast
/// scanner took from an input line (it takes none with escapes) — copied
/// between quotes as they are.
package struct UnescapedJSONText: EscapeFreeJSONText {
    package let bytes: ByteView

    package init(bytes: ByteView) {
        self.bytes = bytes
    }

    @inline(__always)
    package func write(into output: inout [UInt8]) {
        bytes.append(to: &output)
    }
}
