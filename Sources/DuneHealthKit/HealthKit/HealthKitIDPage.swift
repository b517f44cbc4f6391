#if canImport(HealthKit)
import HealthKit

/// The ids of one page of a reconcile's anchored query, and where the next page starts.
struct HealthKitIDPage: Sendable {
    /// The UUIDs of the samples the page held.
    var ids: [String]
    /// Samples and deleted objects in the page: fewer than the limit ends the reconcile's paging.
    var changes: Int
    /// The anchor to continue from.
    var anchor: HKQueryAnchor?
}
#endif
