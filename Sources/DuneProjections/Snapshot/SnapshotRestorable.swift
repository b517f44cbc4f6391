/// A projection whose state a snapshot can restore: its samples are folded
/// from the snapshot's live samples, then its `throughSeq` is moved to the
/// seq the snapshot was taken at.
package protocol SnapshotRestorable: Projection {
    /// Moves `throughSeq` forward to `seq` (never back): the events between the
    /// last live sample and `seq` changed nothing this projection keeps.
    mutating func advance(throughSeq seq: Int)
}
