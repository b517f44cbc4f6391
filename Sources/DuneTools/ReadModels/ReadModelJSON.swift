import DuneEvents
import DuneProjections

/// A read model that can be written as one of the §6.1 files.
package protocol ReadModelJSON: ReadModel {
    /// The model as JSON, numbers rounded (3 decimals; scores 1).
    var jsonValue: JSONValue { get }

    /// Appends exactly the bytes `JSONWriter.write(jsonValue, into:)` would.
    ///
    /// The default does just that. A model with one entry per day or week
    /// writes entry by entry instead, so that only one entry's ``JSONValue``
    /// tree is alive at a time: memory stays O(one entry) beside the bytes,
    /// however many days two centuries of data span.
    func writeJSON(into output: inout [UInt8])
}

extension ReadModelJSON {
    package func writeJSON(into output: inout [UInt8]) {
        JSONWriter.write(jsonValue, into: &output)
    }

    /// The file's bytes: canonical compact JSON (sorted keys, one number format)
    /// on one line, followed by a single `\n`.
    package var fileBytes: [UInt8] {
        var bytes: [UInt8] = []
        writeJSON(into: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}

extension JSONWriter {
    /// `[e0,e1,…]`, each element's value built and written one at a time.
    static func writeArray<Elements: Sequence>(_ elements: Elements, into output: inout [UInt8],
                                               _ value: (Elements.Element) -> JSONValue) {
        output.append(UInt8(ascii: "["))
        var first = true
        for element in elements {
            if !first { output.append(UInt8(ascii: ",")) }
            first = false
            write(value(element), into: &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    /// `"key":` — for a model writing its members itself, in sorted key order.
    static func writeKey(_ key: String, first: Bool = false, into output: inout [UInt8]) {
        if !first { output.append(UInt8(ascii: ",")) }
        writeString(key, into: &output)
        output.append(UInt8(ascii: ":"))
    }
}
