import DuneEvents

/// The current samples of a log, keyed by sample id and indexed by day.
///
/// `sample.ingested` adds a sample or, for an id already present, replaces it
/// (a correction; it takes the correcting event's `seq` and may move the sample
/// to another day). `sample.deleted` removes it. Every other event is ignored.
///
/// A store keeps the full content only of the kinds its projection reads
/// (``retainedKinds``); samples of other kinds are tracked by id and day alone,
/// so that they still make "a day with any sample", and their corrections and
/// deletions still move or remove that day.
///
/// Each day's retained samples are kept in `seq` order by construction: events
/// arrive in `seq` order, so a new version is always appended at the end, and a
/// replaced or deleted one is found by binary search on its `seq`. Lookups
/// therefore never sort and never depend on hash order.
public struct SampleStore: Sendable, Equatable {
    /// The kinds whose content the store keeps.
    public let retainedKinds: Set<SampleKind>
    private let retainedMask: UInt16
    private var locations: [String: SampleLocation] = [:]
    private var retainedByDay: [DayKey: [StoredSample]] = [:]
    private var countByDay: [DayKey: Int] = [:]

    /// Where the current version of a sample is.
    private struct SampleLocation: Sendable, Equatable {
        var day: DayKey
        var seq: Int
        var retained: Bool
    }

    /// A store that keeps the content of `retainedKinds` (all kinds by default).
    public init(retaining retainedKinds: Set<SampleKind> = Set(SampleKind.allCases)) {
        self.retainedKinds = retainedKinds
        var mask: UInt16 = 0
        for (index, kind) in SampleKind.allCases.enumerated() where retainedKinds.contains(kind) {
            mask |= 1 << UInt16(index)
        }
        retainedMask = mask
    }

    private func retains(_ kind: SampleKind) -> Bool {
        guard let index = SampleKind.allCases.firstIndex(of: kind) else { return false }
        return retainedMask & (1 << UInt16(index)) != 0
    }

    /// Folds a sample event into the store; other events leave it unchanged.
    ///
    /// Events must come in increasing `seq` (the projections guarantee it by
    /// skipping `seq ≤ throughSeq`).
    /// - Complexity: O(1) amortised for a new sample; O(k) for a correction or
    ///   deletion, k the samples of the old version's day.
    public mutating func apply(_ event: RecordedEvent) {
        switch event.payload {
        case .sampleIngested(let sample):
            remove(id: sample.id)
            let day = sample.day
            let retained = retains(sample.kind)
            locations[sample.id] = SampleLocation(day: day, seq: event.seq, retained: retained)
            countByDay[day, default: 0] += 1
            if retained {
                retainedByDay[day, default: []].append(StoredSample(sample: sample, seq: event.seq))
            }
        case .sampleDeleted(let deletion):
            remove(id: deletion.sampleID)
        case .refreshRequested, .task, .profileUpdated:
            break
        }
    }

    private mutating func remove(id: String) {
        guard let old = locations.removeValue(forKey: id) else { return }
        if let count = countByDay[old.day], count > 1 {
            countByDay[old.day] = count - 1
        } else {
            countByDay[old.day] = nil
        }
        guard old.retained, var samples = retainedByDay.removeValue(forKey: old.day) else { return }
        var low = 0
        var high = samples.count
        while low < high {
            let mid = (low + high) / 2
            if samples[mid].seq < old.seq { low = mid + 1 } else { high = mid }
        }
        if low < samples.count, samples[low].seq == old.seq {
            samples.remove(at: low)
        }
        if !samples.isEmpty { retainedByDay[old.day] = samples }
    }

    /// How many samples the store tracks (retained or not).
    public var count: Int { locations.count }

    /// The current version of sample `id`, or `nil` when absent, deleted or of a kind not retained.
    public func sample(id: String) -> StoredSample? {
        guard let location = locations[id], location.retained else { return nil }
        return retainedByDay[location.day]?.first { $0.seq == location.seq }
    }

    /// Every day that has at least one sample (of any kind), ascending.
    /// - Complexity: O(d log d) for d days.
    public var days: [DayKey] { countByDay.keys.sorted() }

    /// The retained samples whose ``Sample/day`` is `day`, in `seq` order.
    /// - Complexity: O(1).
    public func samples(on day: DayKey) -> [StoredSample] {
        retainedByDay[day] ?? []
    }

    /// The daily values of every day with a sample, ascending by date.
    /// - Complexity: O(n + d log d) for n retained samples and d days.
    public func allDailyValues() -> [DailyValues] {
        days.map { DailyValues(date: $0, samples: samples(on: $0)) }
    }

    /// The daily values of `day`, or `nil` when it has no sample.
    public func dailyValues(on day: DayKey) -> DailyValues? {
        countByDay[day] == nil ? nil : DailyValues(date: day, samples: samples(on: day))
    }
}
