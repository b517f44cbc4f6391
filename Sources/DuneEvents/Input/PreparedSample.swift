/// A common sample input line, prepared for appending without an
/// ``IngestCommand`` or a ``RecordedEvent``: the digests the deciders compare,
/// and the `data` object of its stored line, already written.
///
/// Prepared on the parsing threads (see `RawLineWindow`); ``EventLog`` then
/// decides on it exactly as on the command the tools' input line parser
/// would give (same digests, same reasons) and writes the envelope around
/// the `data` bytes — the same line ``EventCodec`` writes for that event.
package struct PreparedSample: Sendable {
    /// Digest of the line's canonical content (``IngestCommand/content``).
    package var content: ContentDigest
    /// Digest of the sample id.
    package var key: ContentDigest
    /// The sample id (only canonical UUIDs are prepared).
    package var id: PackedUUID
    package var eventID: String?
    /// The stored line's `data` object in the batch's data buffer.
    package var data: Range<Int>

    package init(content: ContentDigest, key: ContentDigest, id: PackedUUID, eventID: String?, data: Range<Int>) {
        self.content = content
        self.key = key
        self.id = id
        self.eventID = eventID
        self.data = data
    }
}
