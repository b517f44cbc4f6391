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
