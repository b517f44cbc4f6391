import DuneProjections

/// The instants a reconcile's query covers for a range of local days (docs/healthkit-sync.md,
/// "Deletions and reconcile"): wide enough that every sample whose day lies in the range is
/// answered, whatever its offset; the engine then keeps only the ids whose
/// day rule puts them in the range, so a wider window is harmless and a
/// narrower one would delete samples.
///
/// - A sample's day is the local date of its `start`: a start on local day D
///   lies in [D 00:00 − 14 h, D+1 00:00 + 14 h) UTC for offsets −12…+14 h
///   (±14 h both ways, as §12 asks). The query matches on the start.
/// - A sleep sample's day is the local date of `end + 6 h`, so its `end`
///   lies 6 h earlier: [first 00:00 − 20 h, after last 00:00 + 14 h). The
///   query matches on the end.
package struct ReconcileWindow: Sendable, Hashable {
    /// Which instant of a sample must fall in the window.
    package enum Match: Sendable, Hashable {
        case start
        case end
    }

    /// The first instant covered, in seconds since 1970-01-01T00:00:00Z.
    package let startSeconds: Int64
    /// The instant after the last covered.
    package let endSeconds: Int64
    /// Whether the sample's start or its end must fall in [start, end).
    package let match: Match

    /// The window of `days` for `kind`.
    package init(kind: SampleKind, days: ClosedRange<DayKey>) {
        let hour: Int64 = 3600
        let first = Int64(days.lowerBound.ordinal) * 86_400
        let afterLast = Int64(days.upperBound.ordinal + 1) * 86_400
        if kind == .sleep {
            startSeconds = first - 20 * hour
            endSeconds = afterLast + 14 * hour
            match = .end
        } else {
            startSeconds = first - 14 * hour
            endSeconds = afterLast + 14 * hour
            match = .start
        }
    }

    /// Whether a sample with these instants is among the query's answers.
    package func covers(start: Timestamp, end: Timestamp) -> Bool {
        let instant = match == .start ? start.epochSeconds : end.epochSeconds
        return instant >= startSeconds && instant < endSeconds
    }
}
