/// A sample the source delivered but the mapping cannot express as a
/// `SampleInput` (docs/sync-trace.md): an unknown HealthKit type, or a category value
/// the mapping does not know (a new sleep stage in a later iOS).
///
/// It is not appended; the page's `sync.anchored` event counts it under
/// ``UnmappedSample/Reason/code`` and the anchor still advances, so one
/// sample never stalls a sync.
public struct UnmappedSample: Sendable, Hashable {
    /// The sample's id (HealthKit's UUID).
    public var id: String
    /// Why it could not be mapped.
    public var reason: Reason

    /// Creates an unmapped sample.
    /// - Parameters:
    ///   - id: The sample's id.
    ///   - reason: Why it could not be mapped.
    public init(id: String, reason: Reason) {
        self.id = id
        self.reason = reason
    }

    /// Why a sample could not be mapped: a stable code (what sync status
    /// counts by) and a detail for people.
    public struct Reason: Sendable, Hashable {
        /// The stable code sync status counts by, e.g. `unknownCategoryValue`.
        public var code: String
        /// What was not known, e.g. `HKCategoryValueSleepAnalysis 9`.
        public var detail: String

        /// Creates a reason.
        /// - Parameters:
        ///   - code: The stable code sync status counts by.
        ///   - detail: What was not known.
        public init(code: String, detail: String) {
            self.code = code
            self.detail = detail
        }

        /// A sample type the mapping does not know.
        /// - Parameter identifier: The type's identifier.
        /// - Returns: The reason `unknownSampleType`.
        public static func unknownSampleType(_ identifier: String) -> Reason {
            Reason(code: "unknownSampleType", detail: identifier)
        }

        /// A category value the mapping does not know (e.g. a sleep value added in a later iOS).
        /// - Parameter description: The type and raw value, e.g. `HKCategoryValueSleepAnalysis 9`.
        /// - Returns: The reason `unknownCategoryValue`.
        public static func unknownCategoryValue(_ description: String) -> Reason {
            Reason(code: "unknownCategoryValue", detail: description)
        }

        /// A sample whose value could not be read in any unit the kind accepts.
        /// - Parameter description: What was missing or unreadable.
        /// - Returns: The reason `unmappableValue`.
        public static func unmappableValue(_ description: String) -> Reason {
            Reason(code: "unmappableValue", detail: description)
        }
    }
}
