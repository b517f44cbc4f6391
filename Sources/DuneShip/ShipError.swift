import DuneEvents

/// Why a ship or a mirror stopped; `kind` chooses the command's exit status.
package struct ShipError: Error, Sendable, CustomStringConvertible {
    package enum Kind: Sendable, Equatable {
        /// The server cannot be reached, refused the login, or stopped answering (exit 69).
        case unavailable
        /// The subject holds lines the log does not, another writer got in between,
        /// or an existing mirror output is not a prefix of the subject (exit 65).
        case conflict
        /// The log is damaged (a line fails its CRC, a seq is out of order) (exit 65).
        case damagedLog
        /// The log (or the subject's stream) does not exist or cannot be read (exit 66).
        case inputUnavailable
        /// Another process writes the mirror output (exit 75).
        case locked
        /// Anything else: a JetStream refusal, a write of the mirror output (exit 74).
        case failed
    }

    package let kind: Kind
    package let message: String

    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    package init(_ error: NatsError) {
        switch error.kind {
        case .unreachable, .authorization, .closed, .timedOut, .noResponders:
            self.init(.unavailable, error.message)
        case .jetStream(_, errorCode: 10071):
            self.init(.conflict, error.message + "; another writer published to the subject meanwhile: ship again to resume, or find the other writer")
        default:
            self.init(.failed, error.message)
        }
    }

    package init(_ error: DuneEventsError) {
        switch error.code {
        case .inputUnavailable: self.init(.inputUnavailable, error.message)
        case .corruptLog, .invalidInput: self.init(.damagedLog, error.message)
        case .logLocked: self.init(.locked, error.message + "; try again when it has finished")
        default: self.init(.failed, error.message)
        }
    }

    package var description: String { message }
}

/// Where a stored line's envelope members are: `{"v":1,"seq":12,"id":"…","type":"…","recordedAt":"…","data":…,"crc":"…"}`.
/// Found by scanning the bytes before `"data":` (the envelope's members come first in every stored line).
package struct StoredLineFields: Equatable {
    package var seq: Int
    package var id: [UInt8]
    package var type: [UInt8]
    package var recordedAt: [UInt8]
    package var crc: [UInt8]

    /// The fields of `line` (without its `\n`); `nil` when one is missing.
    package init?(_ line: UnsafeRawBufferPointer) {
        let bytes = UnsafeBufferPointer(start: line.baseAddress?.assumingMemoryBound(to: UInt8.self), count: line.count)
        let envelopeEnd = Self.find(Self.dataKey, in: bytes, from: 0) ?? bytes.count
        guard let seqStart = Self.find(Self.seqKey, in: bytes, from: 0, before: envelopeEnd).map({ $0 + Self.seqKey.count }) else { return nil }
        var seq = 0
        var index = seqStart
        while index < envelopeEnd, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            seq = seq &* 10 &+ Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        guard index > seqStart, index - seqStart < 19,
              let id = Self.string(Self.idKey, in: bytes, before: envelopeEnd),
              let type = Self.string(Self.typeKey, in: bytes, before: envelopeEnd),
              let recordedAt = Self.string(Self.recordedAtKey, in: bytes, before: envelopeEnd),
              bytes.count >= 12, bytes[bytes.count - 2] == UInt8(ascii: "\"") else { return nil }
        self.seq = seq
        self.id = id
        self.type = type
        self.recordedAt = recordedAt
        crc = Array(bytes[(bytes.count - 10)..<(bytes.count - 2)])
    }

    package init?(_ line: [UInt8]) {
        guard let fields = line.withUnsafeBytes({ StoredLineFields($0) }) else { return nil }
        self = fields
    }

    /// Whether the line is a `data.forgotten` event (one per forget: the log's forget generation counts them).
    package var isForgetRecord: Bool { type.elementsEqual("data.forgotten".utf8) }

    /// Whether `line`'s data is a redaction (`{"id":…,"redacted":true}`, as `forget` writes it).
    package static func isRedacted(_ line: [UInt8]) -> Bool {
        line.withUnsafeBufferPointer { bytes in
            guard let data = find(dataKey, in: bytes, from: 0) else { return false }
            return find(redactedMarker, in: bytes, from: data) != nil
        }
    }

    private static let dataKey = Array(#""data":"#.utf8)
    private static let seqKey = Array(#""seq":"#.utf8)
    private static let idKey = Array(#""id":""#.utf8)
    private static let typeKey = Array(#""type":""#.utf8)
    private static let recordedAtKey = Array(#""recordedAt":""#.utf8)
    private static let redactedMarker = Array(#""redacted":true}"#.utf8)

    private static func string(_ marker: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, before end: Int) -> [UInt8]? {
        guard let start = find(marker, in: bytes, from: 0, before: end).map({ $0 + marker.count }) else { return nil }
        var index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
        guard index < bytes.count else { return nil }
        return Array(bytes[start..<index])
    }

    private static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from start: Int, before end: Int? = nil) -> Int? {
        let limit = min(end ?? bytes.count, bytes.count) - needle.count
        guard start <= limit else { return nil }
        var index = start
        while index <= limit {
            if bytes[index] == needle[0] {
                var matched = true
                for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }
}
