import DuneEvents

/// A sample as a projection holds it: the latest version and the `seq` of the
/// event that wrote it (a correction takes the correcting event's `seq`).
package struct StoredSample: Sendable, Hashable {
    package let sample: Sample
    /// The `seq` of the `sample.ingested` event this version came from.
    package let seq: Int

    /// The id and `seq` that name this sample version in an explanation.
    package var reference: SampleReference {
        SampleReference(id: sample.id, seq: seq)
    }
}
