import DuneEvents

/// The stable sample id of an Apple Health record, derived from its content.
///
/// `export.xml` has no sample UUIDs, and a record's position in the file
/// changes between exports, so the id is a hash of what identifies the
/// record. Re-importing the same file, or a newer export of the same person,
/// gives the same id for the same record, which makes the import idempotent
/// (`alreadyAppended`).
///
/// The formula (version 1, fixed — changing it would duplicate every
/// previously imported record):
///
/// 1. Fields, each written as its UTF-8 byte count, `:`, its bytes:
///    `"dune-apple-health-v1"`, the record type (`HKQuantityTypeIdentifier…`
///    or `Workout`), the source name, the start and end instants as
///    `<epoch seconds>.<9-digit nanoseconds>` (instants, not the written
///    text: a newer export may write the same record in another UTC offset),
///    the value, and the unit (empty when there is none).
///    The value is the number in `JSONWriter.formatNumber` form (`48.2`,
///    `5`), the sleep stage name (`asleepCore`; `…Asleep` and
///    `…AsleepUnspecified` give the same), or a workout's activity type
///    (`running`). Creation dates and workout totals are left out: a workout
///    whose totals moved from attributes to `WorkoutStatistics` keeps its id.
/// 2. SHA-256 of those bytes; the first 16 bytes, with the RFC 9562 version
///    (8, custom) and variant bits set, written as an uppercase UUID.
///
/// ```swift
/// AppleHealthSampleID.make(recordType: "HKQuantityTypeIdentifierStepCount", source: "iPhone",
///                          start: start, end: end, value: "412", unit: "count")
/// // "5C1E…-…-8…"
/// ```
package enum AppleHealthSampleID {
    /// The first hashed field; names the formula's version.
    package static let namespace = "dune-apple-health-v1"

    /// The id of a record with this content.
    ///
    /// - Parameters:
    ///   - recordType: The HealthKit type, or `Workout`.
    ///   - source: The record's `sourceName` as written.
    ///   - start: The start instant.
    ///   - end: The end instant.
    ///   - value: The canonical value text (see the type's discussion).
    ///   - unit: The unit as written, or `nil`.
    /// - Returns: A UUID-formatted string, e.g. `0A6D1C3E-5B2F-8C4D-9E1F-2A3B4C5D6E7F`.
    package static func make(recordType: String, source: String, start: Timestamp, end: Timestamp, value: String, unit: String?) -> String {
        var content: [UInt8] = []
        content.reserveCapacity(160)
        func field(_ text: String) {
            content.append(contentsOf: String(text.utf8.count).utf8)
            content.append(UInt8(ascii: ":"))
            content.append(contentsOf: text.utf8)
        }
        func instant(_ timestamp: Timestamp) -> String {
            let nanos = String(timestamp.nanoseconds)
            return "\(timestamp.epochSeconds)." + String(repeating: "0", count: max(0, 9 - nanos.count)) + nanos
        }
        field(namespace)
        field(recordType)
        field(source)
        field(instant(start))
        field(instant(end))
        field(value)
        field(unit ?? "")
        var digest = HealthExportSHA256.digest(content)
        digest[6] = (digest[6] & 0x0F) | 0x80
        digest[8] = (digest[8] & 0x3F) | 0x80
        let hex = Array("0123456789ABCDEF".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for index in 0..<16 {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hex[Int(digest[index] >> 4)])
            text.append(hex[Int(digest[index] & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
