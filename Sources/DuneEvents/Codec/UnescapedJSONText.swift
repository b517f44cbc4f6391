/// The bytes of a JSON string that need no escaping — a string member the fast
/// scanner took from an input line (it takes none with escapes) — copied
/// between quotes as they are.
struct UnescapedJSONText: JSONStringText {
    let bytes: UnsafeRawBufferPointer

    @inline(__always)
    func writeQuoted(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        output.append(contentsOf: bytes)
        output.append(UInt8(ascii: "\""))
    }
}
