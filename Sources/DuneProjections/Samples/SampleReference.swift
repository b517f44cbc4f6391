import DuneEvents

/// Which sample version a value came from: its id and the `seq` of the event
/// that wrote this version. `dune-replay show SEQ` prints that event.
public struct SampleReference: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let id: String
    public let seq: Int

    public init(id: String, seq: Int) {
        self.id = id
        self.seq = seq
    }

    public var description: String { "\(id)@\(seq)" }

    /// Ordered by `seq` (unique per version in a log), then id.
    public static func < (lhs: SampleReference, rhs: SampleReference) -> Bool {
        lhs.seq != rhs.seq ? lhs.seq < rhs.seq : lhs.id.utf8.lexicographicallyPrecedes(rhs.id.utf8)
    }
}
