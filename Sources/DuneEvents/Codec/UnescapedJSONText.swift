/// The bytes of a JSON string that need no escaping — a string member the fast
/// scanner took from an input line (it takes none with escapes) — copied
/// between quotes as they are.
struct UnescapedJSONText: EscapeFreeJSONText {
    let bytes: ByteView

    @inline(__always)
    func write(into output: inout [UInt8]) {
        bytes.append(to: &output)
    }
}
