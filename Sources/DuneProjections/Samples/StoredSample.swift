import DuneEvents

/// A sample as a projection holds it: the latest version and the `seq` of the
/// event that wrote it (a correction takes the correcting event's `seq`).
public struct StoredSample: Sendable, Hashable {
    public let sample: Sample
    /// The `seq` of the `sample.ingested` event this version came from.
    public let seq: Int

    public init(sample: Sample, seq: Int) {
        self.sample = sample
        self.seq = seq
    }

    /// The id and `seq` that name this sample version in an explanation.
    public var reference: SampleReference {
        SampleReference(id: sample.id, seq: seq)
    }
}

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
