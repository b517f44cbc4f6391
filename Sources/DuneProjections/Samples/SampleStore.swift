import DuneEvents

/// The current samples of a log, keyed by sample id and indexed by day.
///
/// `sample.ingested` adds a sample or, for an id already present, replaces it
/// (a correction; it takes the correcting event's `seq` and may move the sample
/// to another day). `sample.deleted` removes it. Every other event is ignored.
/// Lookups hand samples out sorted by `seq`, never in hash order.
public struct SampleStore: Sendable, Equatable {
    private var byID: [String: StoredSample] = [:]
    private var idsByDay: [DayKey: Set<String>] = [:]

    public init() {}

    /// Folds a sample event into the store; other events leave it unchanged.
    public mutating func apply(_ event: RecordedEvent) {
        switch event.payload {
        case .sampleIngested(let sample):
            remove(id: sample.id)
            byID[sample.id] = StoredSample(sample: sample, seq: event.seq)
            idsByDay[sample.day, default: []].insert(sample.id)
        case .sampleDeleted(let deletion):
            remove(id: deletion.sampleID)
        case .refreshRequested, .task, .profileUpdated:
            break
        }
    }

    private mutating func remove(id: String) {
        guard let old = byID.removeValue(forKey: id) else { return }
        let day = old.sample.day
        idsByDay[day]?.remove(id)
        if idsByDay[day]?.isEmpty == true { idsByDay[day] = nil }
    }

    /// How many samples the store holds.
    public var count: Int { byID.count }

    /// The current version of sample `id`, or `nil` when absent or deleted.
    public func sample(id: String) -> StoredSample? { byID[id] }

    /// Every day that has at least one sample, ascending.
    /// - Complexity: O(d log d) for d days.
    public var days: [DayKey] { idsByDay.keys.sorted() }

    /// The samples whose ``Sample/day`` is `day`, in `seq` order.
    /// - Complexity: O(k log k) for k samples on that day.
    public func samples(on day: DayKey) -> [StoredSample] {
        guard let ids = idsByDay[day] else { return [] }
        return ids.compactMap { byID[$0] }.sorted { $0.seq < $1.seq }
    }

    /// The daily values of every day with a sample, ascending by date.
    /// - Complexity: O(n log n) for n samples.
    public func allDailyValues() -> [DailyValues] {
        days.map { DailyValues(date: $0, samples: samples(on: $0)) }
    }

    /// The daily values of `day`, or `nil` when it has no sample.
    public func dailyValues(on day: DayKey) -> DailyValues? {
        idsByDay[day] == nil ? nil : DailyValues(date: day, samples: samples(on: day))
    }
}
