import DuneEvents

/// One record of an Apple Health export, turned into an ingest input object.
///
/// ``input`` is exactly what a JSON input line of `dune-replay ingest` parses
/// to (docs/input-format.md), so the ingest pipeline validates and appends it like any
/// other line:
///
/// ```json
/// {"type":"sample","kind":"hrv","id":"3F2A…","start":"2023-01-05T07:12:00+01:00",
///  "end":"2023-01-05T07:12:00+01:00","value":48.2,"unit":"ms","source":"Apple Watch"}
/// ```
///
/// Values and units are passed through as the export wrote them (a body-fat
/// fraction with unit `%`, a body mass in `lb`, energy in `Cal`); conversion
/// to canonical units and the plausibility checks happen at ingest.
package struct AppleHealthRecord: Sendable, Equatable {
    /// The HealthKit type as written (`HKQuantityTypeIdentifierStepCount`,
    /// `HKCategoryTypeIdentifierSleepAnalysis`), or `Workout`.
    package var recordType: String
    /// The sample kind the record maps to.
    package var kind: SampleKind
    /// The input object of docs/input-format.md (`type`, `kind`, `id`, `start`, `end`, …).
    package var input: JSONObject
    /// The 1-based line of the record's start tag in the export.
    package var line: Int
    /// The byte offset of the record's start tag (`<`) in the export.
    package var byteOffset: Int
}

/// How far an import has read, reported as reading advances.
package struct AppleHealthImportProgress: Sendable, Equatable {
    /// Bytes read from the export so far.
    package var bytesRead: Int64
    /// The export's size, or `nil` when it is read from a pipe.
    package var totalBytes: Int64?

    package init(bytesRead: Int64, totalBytes: Int64?) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
    }
}
