/// A projection whose state a snapshot can restore: its samples are the
/// snapshot's live samples (each id once, in `seq` order), and nothing it
/// keeps depends on the events that the snapshot's samples replaced.
protocol SnapshotRestorable: Projection {
    /// Replaces the state with the one folding `block` into an empty
    /// projection gives, `index` being `SampleIndex(indexing: block)`, at `seq`
    /// (the snapshot's seq, never less than the last sample's).
    mutating func restore(samples block: SampleBlock, index: SampleIndex, throughSeq seq: Int)
}
