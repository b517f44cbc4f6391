import DuneEvents

/// A record of an Apple Health export that the importer did not emit because
/// it cannot be mapped to an input object.
///
/// Rejections never stop an import; the summary counts them per record type
/// and per ``Reason`` and keeps the first few as examples with their line.
package struct AppleHealthRejection: Sendable, Equatable, CustomStringConvertible {
    /// Why a record was rejected.
    package enum Reason: String, Sendable, CaseIterable, Comparable {
        /// A required attribute (`sourceName`, `startDate`, `endDate`,
        /// `value`, `unit`, `workoutActivityType`, `type`) is absent.
        case missingAttribute
        /// A date is not `YYYY-MM-DD HH:MM:SS ±HHMM` with a valid day and time.
        case invalidDate
        /// A numeric value (`value`, `totalEnergyBurned`, …) is not a finite number.
        case invalidNumber
        /// A value is not one the kind allows (an unknown sleep value or activity type).
        case invalidValue
        /// An attribute value has a bad entity reference (`&foo;`, `&#0;`, a bare `&`).
        case invalidAttribute
        /// The record starts or ends after the export's `ExportDate`.
        case afterExportDate

        package static func < (lhs: Reason, rhs: Reason) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The record type (`HKQuantityTypeIdentifierStepCount`, `Workout`, …).
    package var recordType: String
    package var reason: Reason
    /// What exactly is wrong, e.g. `startDate "2023-02-30 07:00:00 +0100" is not a valid date`.
    package var detail: String
    /// The 1-based line of the record's start tag.
    package var line: Int
    /// The byte offset of the record's start tag.
    package var byteOffset: Int

    /// `line 12 (byte 3456): HKQuantityTypeIdentifierStepCount: invalidNumber: value "12,5" is not a number`.
    package var description: String {
        "line \(line) (byte \(byteOffset)): \(recordType): \(reason.rawValue): \(detail)"
    }
}

/// How many records of one type were rejected for one reason.
package struct AppleHealthRejectionCount: Sendable, Equatable {
    package var reason: AppleHealthRejection.Reason
    package var count: Int

    package init(reason: AppleHealthRejection.Reason, count: Int) {
        self.reason = reason
        self.count = count
    }
}
