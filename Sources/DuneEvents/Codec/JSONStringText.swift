/// A value written as a JSON string, quotes included: a `String` (escaped as
/// ``JSONWriter/writeString(_:into:)`` does), bytes known to need no escaping
/// (``UnescapedJSONText``), or a packed timestamp or UUID (written from its
/// numbers). Lets ``SampleObjectWriter`` write a member from whichever form
/// its caller holds, with the same bytes.
package protocol JSONStringText {
    /// Appends `"…"`.
    func writeQuoted(into output: inout [UInt8])
}

extension String: JSONStringText {
    @inline(__always)
    package func writeQuoted(into output: inout [UInt8]) {
        JSONWriter.writeString(self, into: &output)
    }
}

/// Text that never needs escaping: written between quotes as it is.
package protocol EscapeFreeJSONText: JSONStringText {
    /// Appends the text, without quotes.
    func write(into output: inout [UInt8])
}

extension EscapeFreeJSONText {
    @inline(__always)
    package func writeQuoted(into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        write(into: &output)
        output.append(UInt8(ascii: "\""))
    }
}

/// The canonical text (``Timestamp/canonicalText``).
extension PackedTimestamp: EscapeFreeJSONText {}

extension PackedUUID: EscapeFreeJSONText {}

/// A timestamp's canonical text (``Timestamp/canonicalText``) as a JSON
/// string: its own text when that is canonical already, without formatting.
struct CanonicalTimestampText: JSONStringText {
    let timestamp: Timestamp

    @inline(__always)
    func writeQuoted(into output: inout [UInt8]) {
        if let packed = PackedTimestamp(timestamp) {
            packed.writeQuoted(into: &output)
        } else {
            timestamp.canonicalText.writeQuoted(into: &output)
        }
    }
}

/// `sdnn` or `rmssd`.
extension HRVMeasure: EscapeFreeJSONText {
    @inline(__always)
    package func write(into output: inout [UInt8]) {
        switch self {
        case .sdnn: output.appendLiteral("sdnn")
        case .rmssd: output.appendLiteral("rmssd")
        }
    }
}
