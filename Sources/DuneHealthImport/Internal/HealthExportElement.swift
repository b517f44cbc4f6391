import DuneEvents

/// The element names of Apple Health's `export.xml` that the importer tells
/// apart; every other name is ``other``.
///
/// Matching a name is a switch on its length and one `memcmp`, so the scanner
/// never builds a `String` for the millions of elements it only steps over.
enum HealthExportElement: UInt8, Sendable, CaseIterable {
    case healthData
    case exportDate
    case me
    case record
    case correlation
    case workout
    case workoutStatistics
    case workoutEvent
    case workoutRoute
    case workoutActivity
    case metadataEntry
    case heartRateVariabilityMetadataList
    case instantaneousBeatsPerMinute
    case activitySummary
    case fileReference
    case location
    case clinicalRecord
    case audiogram
    case sensitivityPoint
    case visionPrescription
    case other

    /// The name as written in the export (`"Record"`); empty for ``other``.
    var xmlName: String {
        switch self {
        case .healthData: "HealthData"
        case .exportDate: "ExportDate"
        case .me: "Me"
        case .record: "Record"
        case .correlation: "Correlation"
        case .workout: "Workout"
        case .workoutStatistics: "WorkoutStatistics"
        case .workoutEvent: "WorkoutEvent"
        case .workoutRoute: "WorkoutRoute"
        case .workoutActivity: "WorkoutActivity"
        case .metadataEntry: "MetadataEntry"
        case .heartRateVariabilityMetadataList: "HeartRateVariabilityMetadataList"
        case .instantaneousBeatsPerMinute: "InstantaneousBeatsPerMinute"
        case .activitySummary: "ActivitySummary"
        case .fileReference: "FileReference"
        case .location: "Location"
        case .clinicalRecord: "ClinicalRecord"
        case .audiogram: "Audiogram"
        case .sensitivityPoint: "SensitivityPoint"
        case .visionPrescription: "VisionPrescription"
        case .other: ""
        }
    }

    /// Known names grouped by byte length, for ``init(name:count:)``.
    private static let byLength: [[(bytes: [UInt8], element: HealthExportElement)]] = {
        var table = [[(bytes: [UInt8], element: HealthExportElement)]](repeating: [], count: 40)
        for element in allCases where element != .other {
            let bytes = Array(element.xmlName.utf8)
            table[bytes.count].append((bytes, element))
        }
        return table
    }()

    /// The element named by `count` bytes at `name`.
    init(name: UnsafePointer<UInt8>, count: Int) {
        self = .other
        let table = Self.byLength
        guard count < table.count else { return }
        for candidate in table[count] {
            let equal = candidate.bytes.withUnsafeBufferPointer { known in
                guard let base = known.baseAddress else { return false }
                return ByteView.equal(base, name, count: count)
            }
            if equal {
                self = candidate.element
                return
            }
        }
    }
}
