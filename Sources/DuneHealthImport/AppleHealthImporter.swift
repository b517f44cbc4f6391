import DuneEvents

/// Streams an Apple Health `export.xml` and turns its records into
/// input objects for `dune-replay ingest --format apple-health`.
///
/// ```swift
/// let importer = AppleHealthImporter(path: "apple_health_export/export.xml")
/// var summary = AppleHealthImportSummary(path: importer.path)
/// do {
///     try importer.run(into: &summary) { record in
///         try ingest.append(record.input, line: record.line)
///     }
/// } catch {
///     // `summary` still says what was read before the error.
/// }
/// ```
///
/// **Mapping.** `HKQuantityTypeIdentifierHeartRateVariabilitySDNN` → `hrv`,
/// `…RestingHeartRate` → `restingHeartRate`, `…StepCount` → `stepCount`,
/// `…BodyMass` → `bodyMass`, `…BodyFatPercentage` → `bodyFatPercentage`,
/// `…BodyMassIndex` → `bodyMassIndex` (value and unit as written; ingest
/// converts), `HKCategoryTypeIdentifierSleepAnalysis` → `sleep` (see
/// `SleepStage`), `Workout` → `workout` with `activityType` from
/// `HKWorkoutActivityType…` in lower camel case, and `energy`/`distance`
/// from the `totalEnergyBurned`/`totalDistance` attributes or, when those are
/// absent (iOS 16 and later), from the `WorkoutStatistics` sums of active
/// energy and of the distance types, units as written. Every other record
/// type, `ActivitySummary`, `Correlation` and other top-level elements are
/// counted and skipped. `Record`s inside a `Correlation` are not counted at
/// all: the export repeats them at the top level. Each emitted object has a
/// stable ``AppleHealthSampleID``.
///
/// **Rejections.** A record with a missing required attribute, an
/// unparsable date or number, an unknown sleep value, a bad entity
/// reference, or a start or end after the export's `ExportDate` is not
/// emitted; the summary counts it and keeps the first examples with their
/// line. Such records never stop the import.
///
/// **Why a hand-written scanner.** FoundationXML's `XMLParser` on Linux
/// crashes (SIGSEGV) on the `<!ATTLIST …>` declarations every export's DTD
/// has, traps on invalid UTF-8 in names, and rejects the iOS 16 DTD with its
/// unclosed `ATTLIST`; a crash is not an error message. The export is
/// attributes-only XML, so a small scanner that skips the DTD, comments and
/// processing instructions, checks tag structure and UTF-8, and decodes
/// entities only in the attributes it needs is enough, never crashes, reads
/// fixed-size chunks with bounded element sizes, and is faster (it builds no
/// strings for the millions of elements it skips).
///
/// **Failures.** A truncated, corrupted or hostile file, or one that is not an
/// export, ends the import with a `DuneEventsError(.invalidInput)` whose
/// location has the path, line and byte offset; records emitted before it
/// stay emitted, and the summary says how far the import got.
///
/// - Complexity: O(file size) time; memory O(`chunkSize` +
///   `maximumElementBytes`), independent of the file size.
package struct AppleHealthImporter: Sendable {
    /// The export's path; `-` reads standard input.
    package var path: String
    /// Bytes per `read(2)`.
    package var chunkSize: Int
    /// The longest tag accepted (a `Record` with its attributes is a few
    /// hundred bytes); a longer one is an error, which bounds memory.
    package var maximumElementBytes: Int

    /// An importer for the export at `path`.
    ///
    /// - Parameters:
    ///   - path: The `export.xml` file (unzipped), or `-` for standard input.
    ///   - chunkSize: Bytes per read, 1 MiB by default.
    ///   - maximumElementBytes: The longest tag accepted, 1 MiB by default.
    package init(path: String, chunkSize: Int = 1 << 20, maximumElementBytes: Int = 1 << 20) {
        self.path = path
        self.chunkSize = max(1, chunkSize)
        self.maximumElementBytes = max(64, maximumElementBytes)
    }

    /// Reads the whole export, calling `emit` for each record it maps.
    ///
    /// - Parameters:
    ///   - progress: Called as reading advances (at most once per chunk read),
    ///     with the bytes read and the file size.
    ///   - emit: Called once per mapped record, in file order; an error it
    ///     throws stops the import and is rethrown.
    /// - Returns: The per-type counts, with ``AppleHealthImportSummary/isComplete`` set.
    /// - Throws: `DuneEventsError(.inputUnavailable)` when the file cannot be
    ///   opened or read, `DuneEventsError(.invalidInput)` with a location when it
    ///   is malformed or truncated, or whatever `emit` throws. Use
    ///   ``run(into:progress:emit:)`` to keep the counts of a failed import.
    /// - Complexity: O(file size).
    package func run(progress: (AppleHealthImportProgress) -> Void = { _ in },
                    emit: (AppleHealthRecord) throws -> Void) throws -> AppleHealthImportSummary {
        var summary = AppleHealthImportSummary(path: path)
        try run(into: &summary, progress: progress, emit: emit)
        return summary
    }

    /// Reads the whole export into `summary`, which holds what was read even
    /// when this throws.
    ///
    /// - Parameters:
    ///   - summary: Replaced by this import's counts; on return or throw it
    ///     covers everything read so far.
    ///   - progress: Called as reading advances (at most once per chunk read).
    ///   - emit: Called once per mapped record, in file order.
    /// - Throws: See ``run(progress:emit:)``.
    /// - Complexity: O(file size).
    package func run(into summary: inout AppleHealthImportSummary,
                    progress: (AppleHealthImportProgress) -> Void = { _ in },
                    emit: (AppleHealthRecord) throws -> Void) throws {
        summary = AppleHealthImportSummary(path: path)
        let file = try HealthExportFile(path: path)
        summary.totalBytes = file.size
        let scanner = HealthExportScanner(file: file, chunkSize: chunkSize, maximumElementBytes: maximumElementBytes)
        var state = HealthExportImportState()
        defer {
            summary.bytesRead = scanner.bytesRead
            summary.exportDate = state.exportDate
            summary.recordTypes = state.tally.sortedSummaries()
            summary.recordsInCorrelations = state.tally.recordsInCorrelations
        }
        var reported: Int64 = 0
        while true {
            let event = try scanner.next()
            if scanner.bytesRead != reported {
                reported = scanner.bytesRead
                progress(AppleHealthImportProgress(bytesRead: reported, totalBytes: file.size))
            }
            switch event {
            case .startTag(let tag):
                try state.handleStart(tag, scanner: scanner, emit: emit)
            case .endTag(let element):
                if element == .workout, scanner.depth == 1 {
                    try state.finishWorkout(emit: emit)
                }
            case .endOfInput:
                summary.isComplete = true
                return
            }
        }
    }
}
