import DuneProjections

/// One answer of an anchored query for one sample type: what was added or
/// changed, what was deleted, and the anchor after it.
///
/// The engine appends a page as one atomic batch — the samples, one
/// `sample.deleted` per deleted id, then the `sync.anchored` event with the
/// new anchor — so the anchor is stored exactly when the page's data is.
/// A sample the input rules reject, and an entry of ``unmapped``, is not
/// appended; it is counted with its reason in the `sync.anchored` event,
/// and the anchor still advances.
///
/// ```swift
/// let page = SyncPage(anchor: SyncAnchor(archived), added: samples.compactMap(map),
///                     deletedIDs: deleted.map { $0.uuid.uuidString })
/// ```
public struct SyncPage: Sendable, Hashable {
    /// The anchor to continue from after this page.
    public var anchor: SyncAnchor
    /// The samples added or changed, in the order the source gave them.
    public var added: [SampleInput]
    /// The ids of deleted samples (HealthKit's deleted objects).
    public var deletedIDs: [String]
    /// Samples the source delivered but could not map (counted, not appended).
    public var unmapped: [UnmappedSample]

    /// Samples already validated (a trace's sample objects), used by trace
    /// replay instead of ``added``: each a command or the rejection `ingest`
    /// gives the same line.
    package var validated: [ValidatedSample]?

    /// Creates a page.
    /// - Parameters:
    ///   - anchor: The anchor after this page.
    ///   - added: The samples added or changed.
    ///   - deletedIDs: The ids of deleted samples.
    ///   - unmapped: Samples the mapping could not express, with their reasons.
    public init(anchor: SyncAnchor, added: [SampleInput] = [], deletedIDs: [String] = [], unmapped: [UnmappedSample] = []) {
        self.anchor = anchor
        self.added = added
        self.deletedIDs = deletedIDs
        self.unmapped = unmapped
    }

    /// How many changes the page holds (added, deleted and unmapped): fewer
    /// than the query's limit ends a sync.
    public var changeCount: Int { (validated?.count ?? added.count) + deletedIDs.count + unmapped.count }
}

/// A sample of a trace page: validated by the input rules, or rejected by them.
package enum ValidatedSample: Sendable, Hashable {
    /// The command `ingest` would run for the sample's line.
    case command(IngestCommand)
    /// The rejection `ingest` gives the line, and the sample's id when it has one.
    case rejected(id: String?, Rejection)
}
