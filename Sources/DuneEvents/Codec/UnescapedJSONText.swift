/// The bytes of a JSON string that need no escaping — a string member the fast
/// scanner took from an input line (it takes none with escapes) — copied
/// between quotes as they are.
struct UnescapedJSONText: EscapeFreeJSONText {
    let bytes: UnsafeRawBufferPointer

    @inline(__always)
    func write(into output: inout [UInt8]) {
        output.append(contentsOf: bytes)
    }
}
