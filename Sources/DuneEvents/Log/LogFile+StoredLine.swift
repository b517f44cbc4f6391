/// The byte-level envelope of one stored log line: its CRC trailer (docs/log-format.md).
///
/// No JSON is parsed here; this is what `LogFile` uses to tell a torn tail
/// from a good line, and what the codec uses to seal a line it encoded.
///
/// ## Byte contract
///
/// A stored line, without its terminating `\n`, is
///
/// ```
/// P  ,"crc":"  H  "}
/// ```
///
/// - `P` is the line's bytes before the trailer: a JSON object's opening
///   `{` and its members, **without** the closing `}`, e.g.
///   `{"v":1,"seq":12,…,"data":{…}`. It must start with `{` and must not
///   contain `\n`.
/// - `,"crc":"` is the 8-byte marker, and `"}` (2 bytes) closes the object.
/// - `H` is `CRC32.checksum(P)` as exactly 8 **lowercase** hex digits.
///
/// So the trailer is always the line's last 18 bytes, and the CRC covers
/// every byte before the *last* `,"crc":"` (a `"crc"` key inside `data` is
/// just part of `P`). The file holds `line + "\n"`.
///
/// ```swift
/// var line = Array(#"{"v":1,"seq":1"#.utf8)
/// StoredLine.seal(&line)     // {"v":1,"seq":1,"crc":"xxxxxxxx"}\n
/// StoredLine.isIntact(line.dropLast())   // true
/// ```
package enum StoredLine {
    /// `,"crc":"` — the bytes that open the trailer.
    package static let crcMarker: [UInt8] = Array(#","crc":""#.utf8)

    /// `"}` — the bytes that close the trailer and the object.
    package static let closing: [UInt8] = Array(#""}"#.utf8)

    /// The trailer's length: marker (8) + hex digits (8) + closing (2) = 18.
    package static let trailerLength = 8 + CRC32.hexDigitCount + 2

    /// Appends the CRC trailer and the newline to an encoded line.
    ///
    /// - Parameters:
    ///   - bytes: On input, `P` from `start` on: the line without its closing
    ///     `}` (see the byte contract above). On output, `P + ,"crc":"H"}` +
    ///     `\n`, ready to append to the log.
    ///   - start: where the line starts in `bytes` (lines before it are left alone).
    package static func seal(_ bytes: inout [UInt8], from start: Int = 0) {
        let crc = ByteView.with(bytes[start...]) { CRC32.checksum($0) }
        bytes.append(contentsOf: crcMarker)
        CRC32.appendHex(crc, to: &bytes)
        bytes.append(contentsOf: closing)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Whether `line` is a whole stored line whose CRC matches its bytes.
    ///
    /// True exactly when `line` (without its `\n`) starts with `{`, ends with
    /// `,"crc":"` + 8 lowercase hex digits + `"}`, and those digits are the
    /// CRC-32 of everything before the marker. Says nothing about whether the
    /// JSON is well-formed beyond that; a line that passes was written whole.
    ///
    /// - Parameter line: One line, without the trailing `\n`.
    /// - Returns: `false` for anything torn, truncated, edited or empty.
    /// - Complexity: O(*n*) in the line's length (one CRC pass).
    package static func isIntact(_ line: ByteView) -> Bool {
        guard let payloadLength = payloadLength(of: line), let stored = storedCRC(of: line, payloadLength: payloadLength) else {
            return false
        }
        return CRC32.checksum(line.subview(0..<payloadLength)) == stored
    }

    /// Whether `line` is a whole stored line whose CRC matches; see
    /// `isIntact(_:)` for a ``ByteView``.
    ///
    /// - Parameter line: One line, without the trailing `\n`.
    package static func isIntact(_ line: some Collection<UInt8>) -> Bool {
        ByteView.with(contentsOf: line) { isIntact($0) }
    }

    /// The CRC a line of this shape stores in its trailer (not checked
    /// against the bytes), or `nil` when it has no trailer of 8 lowercase hex digits.
    ///
    /// - Parameter line: One line, without the trailing `\n`.
    package static func storedCRC(of line: ByteView) -> UInt32? {
        payloadLength(of: line).flatMap { storedCRC(of: line, payloadLength: $0) }
    }

    /// The trailer's CRC of a line whose payload is `payloadLength` bytes long.
    private static func storedCRC(of line: ByteView, payloadLength: Int) -> UInt32? {
        let hexStart = payloadLength + crcMarker.count
        return CRC32.parseHex(line.subview(hexStart..<(hexStart + CRC32.hexDigitCount)))
    }

    /// The length of `P`, the bytes the CRC covers, if `line` has the shape of
    /// a stored line (starts with `{`, ends with a trailer); the CRC itself is
    /// not checked.
    ///
    /// - Parameter line: One line, without the trailing `\n`.
    /// - Returns: The offset of the trailer's `,"crc":"`, or `nil`.
    package static func payloadLength(of line: some Collection<UInt8>) -> Int? {
        ByteView.with(contentsOf: line) { payloadLength(of: $0) }
    }

    /// The length of `P` (see the overload for any collection) of a line in view.
    package static func payloadLength(of line: ByteView) -> Int? {
        guard line.count > trailerLength, line[0] == UInt8(ascii: "{") else { return nil }
        let markerStart = line.count - trailerLength
        for (index, byte) in crcMarker.enumerated() where line[markerStart + index] != byte {
            return nil
        }
        guard line[line.count - 2] == closing[0], line[line.count - 1] == closing[1] else { return nil }
        return markerStart
    }
}
