import DuneEvents

/// Which sample version a value came from: its id and the `seq` of the event
/// that wrote this version. `dune-replay show SEQ` prints that event.
package struct SampleReference: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let id: String
    package let seq: Int

    package init(id: String, seq: Int) {
        self.id = id
        self.seq = seq
    }

    package var description: String { "\(id)@\(seq)" }

    /// Ordered by `seq` (unique per version in a log), then id.
    package static func < (lhs: SampleReference, rhs: SampleReference) -> Bool {
        lhs.seq != rhs.seq ? lhs.seq < rhs.seq : lhs.id.utf8.lexicographicallyPrecedes(rhs.id.utf8)
    }
}
