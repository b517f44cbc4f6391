/// The position of a sync in a type's history: opaque text the source
/// produces and gets back.
///
/// For HealthKit it is the base64 of the `NSKeyedArchiver` archive of an
/// `HKQueryAnchor`; in a trace, the trace's anchor string verbatim. The
/// engine stores it in the `sync.anchored` event that ends each page, so the
/// anchor of a type is that of its latest `sync.anchored`, and never runs
/// ahead of the data it stands for.
public struct SyncAnchor: Sendable, Hashable, CustomStringConvertible {
    /// The anchor as text, as stored.
    public var text: String

    /// Wraps anchor text a source produced.
    /// - Parameter text: The opaque anchor text (not empty).
    public init(_ text: String) {
        self.text = text
    }

    /// The anchor text.
    public var description: String { text }
}
