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
public struct AppleHealthRecord: Sendable, Equatable {
    /// The HealthKit type as written (`HKQuantityTypeIdentifierStepCount`,
    /// `HKCategoryTypeIdentifierSleepAnalysis`), or `Workout`.
    public var recordType: String
    /// The sample kind the record maps to.
    public var kind: SampleKind
    /// The input object of docs/input-format.md (`type`, `kind`, `id`, `start`, `end`, …).
    public var input: JSONObject
    /// The 1-based line of the record's start tag in the export.
    public var line: Int
    /// The byte offset of the record's start tag (`<`) in the export.
    public var byteOffset: Int

    public init(recordType: String, kind: SampleKind, input: JSONObject, line: Int, byteOffset: Int) {
        self.recordType = recordType
        self.kind = kind
        self.input = input
        self.line = line
        self.byteOffset = byteOffset
    }
}

/// How far an import has read, reported as reading advances.
public struct AppleHealthImportProgress: Sendable, Equatable {
    /// Bytes read from the export so far.
    public var bytesRead: Int64
    /// The export's size, or `nil` when it is read from a pipe.
    public var totalBytes: Int64?

    public init(bytesRead: Int64, totalBytes: Int64?) {
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
    }
}
