import DuneEvents

/// What one import of an Apple Health export read, emitted, skipped and
/// rejected, per record type.
///
/// The per-type list is sorted by record type (UTF-8 byte order), never in
/// `Dictionary` order, so printing it is deterministic, and each entry is a
/// plain value keyed by ``AppleHealthRecordTypeSummary/recordType``, easy to
/// join with what the ingest did with the emitted records.
///
/// After a failed import the summary still says what was read up to the
/// failure: ``isComplete`` is `false` and the counts cover the records before
/// it (see ``AppleHealthImporter/run(into:progress:emit:)``).
package struct AppleHealthImportSummary: Sendable, Equatable {
    /// The most rejection examples kept per record type.
    package static let maximumExamplesPerType = 3

    /// The export's path as given (`-` for standard input).
    package var path: String
    /// The export's `<ExportDate value=…>`, or `nil` when it is missing or
    /// unreadable (then no record is rejected as ``AppleHealthRejection/Reason/afterExportDate``).
    package var exportDate: Timestamp?
    /// Bytes read from the export.
    package var bytesRead: Int64
    /// The export's size, or `nil` when read from a pipe.
    package var totalBytes: Int64?
    /// Whether the export was read to its end without an error.
    package var isComplete: Bool
    /// One entry per record type seen, sorted by ``AppleHealthRecordTypeSummary/recordType``.
    package var recordTypes: [AppleHealthRecordTypeSummary]
    /// `Record`s inside a `Correlation` (blood pressure, food): not counted
    /// under their type, because the export repeats each of them at the top level.
    package var recordsInCorrelations: Int

    package init(path: String, exportDate: Timestamp? = nil, bytesRead: Int64 = 0, totalBytes: Int64? = nil,
                isComplete: Bool = false, recordTypes: [AppleHealthRecordTypeSummary] = [], recordsInCorrelations: Int = 0) {
        self.path = path
        self.exportDate = exportDate
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.isComplete = isComplete
        self.recordTypes = recordTypes
        self.recordsInCorrelations = recordsInCorrelations
    }

    /// The entry for `recordType`, or `nil` when the export had none.
    package subscript(recordType: String) -> AppleHealthRecordTypeSummary? {
        recordTypes.first { $0.recordType == recordType }
    }

    /// Records read, over all types.
    package var seen: Int { recordTypes.reduce(0) { $0 + $1.seen } }
    /// Records emitted, over all types.
    package var emitted: Int { recordTypes.reduce(0) { $0 + $1.emitted } }
    /// Records of unsupported types (and `ActivitySummary`, `Correlation`, …), over all types.
    package var skipped: Int { recordTypes.reduce(0) { $0 + $1.skipped } }
    /// Records rejected, over all types.
    package var rejected: Int { recordTypes.reduce(0) { $0 + $1.rejected } }
}

/// The counts of one record type in an import.
///
/// `seen == emitted + skipped + rejected`.
package struct AppleHealthRecordTypeSummary: Sendable, Equatable {
    /// The HealthKit type (`HKQuantityTypeIdentifierStepCount`), `Workout`,
    /// `ActivitySummary`, a correlation type, or another top-level element's name.
    package var recordType: String
    /// The sample kind this type maps to, or `nil` when it is not imported.
    package var kind: SampleKind?
    /// Records of this type read.
    package var seen: Int
    /// Records turned into input objects and handed to `emit`.
    package var emitted: Int
    /// Records not imported because DuneEvents has no kind for the type.
    package var skipped: Int
    /// Records that could not be mapped (see ``rejectionReasons``).
    package var rejected: Int
    /// Rejections by reason, sorted by reason; reasons that did not occur are left out.
    package var rejectionReasons: [AppleHealthRejectionCount]
    /// The first rejections of this type in file order, at most
    /// ``AppleHealthImportSummary/maximumExamplesPerType``.
    package var examples: [AppleHealthRejection]

    package init(recordType: String, kind: SampleKind?, seen: Int = 0, emitted: Int = 0, skipped: Int = 0, rejected: Int = 0,
                rejectionReasons: [AppleHealthRejectionCount] = [], examples: [AppleHealthRejection] = []) {
        self.recordType = recordType
        self.kind = kind
        self.seen = seen
        self.emitted = emitted
        self.skipped = skipped
        self.rejected = rejected
        self.rejectionReasons = rejectionReasons
        self.examples = examples
    }
}
