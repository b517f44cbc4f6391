/// The `sync.anchored` event (docs/sync-trace.md): the end of one page of a HealthKit
/// sync of one sample type, appended in the same atomic batch as the page's
/// samples and deletions, so the stored anchor never runs ahead of its data.
///
/// The anchor of a type is that of its latest `sync.anchored`. Projections
/// fold it only into sync status.
package struct SyncAnchorRecord: Sendable, Hashable {
    /// The sample kind name of the synced type (never a HealthKit identifier).
    package var sampleType: SampleKind
    /// The anchor after the page: opaque text (base64 of an archived
    /// `HKQueryAnchor`; a trace's anchor string verbatim).
    package var anchor: String
    /// How many added samples the page delivered (appended, already stored and rejected).
    package var added: Int
    /// How many deleted ids the page delivered.
    package var deleted: Int
    /// Samples of the page that were not appended, by reason code
    /// (a rejection code of the input rules, or the mapping's, e.g. `unknownCategoryValue`).
    package var rejected: [String: Int]
    /// The earliest `start` of the page's stored samples: how far back the
    /// sync has reached; `nil` when the page stored none.
    package var earliestStart: Timestamp?

    package init(sampleType: SampleKind, anchor: String, added: Int, deleted: Int, rejected: [String: Int] = [:],
                 earliestStart: Timestamp? = nil) {
        self.sampleType = sampleType
        self.anchor = anchor
        self.added = added
        self.deleted = deleted
        self.rejected = rejected
        self.earliestStart = earliestStart
    }
}
