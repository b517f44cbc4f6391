import DuneEvents

extension SampleStore {
    /// The current samples of `kind` whose day (``Sample/day``) lies in
    /// `days`, in time order: by start, then by `seq`.
    ///
    /// Read from the day index: only the days of the range are visited, and
    /// in each only its rows' kind byte is read until a row matches.
    /// - Complexity: O(min(r, d) + k + m log m) for r days in the range, d days
    ///   with samples, k samples of any kind on the range's days, m matching;
    ///   independent of the length of the log.
    package func samples(of kind: SampleKind, in days: ClosedRange<DayKey>) -> [StoredSample] {
        let kindIndex = kind.packedIndex
        var found: [StoredSample] = []
        func collect(_ bucket: DayBuckets.Bucket) {
            for version in bucket.current where versions.row(version).kindIndex == kindIndex {
                found.append(versions.storedSample(version))
            }
        }
        let first = days.lowerBound.ordinal
        let last = days.upperBound.ordinal
        if last - first < buckets.buckets.count {
            for ordinal in first...last { buckets.existing(ordinal).map(collect) }
        } else {
            for bucket in buckets.buckets where bucket.day >= first && bucket.day <= last { collect(bucket) }
        }
        return found.sorted { $0.sample.start != $1.sample.start ? $0.sample.start < $1.sample.start : $0.seq < $1.seq }
    }
}
