import DuneProjections

/// A ``HealthSampleSource`` held in memory that behaves like HealthKit: for
/// tests, SwiftUI previews, the Linux example, benchmarks.
///
/// Each type keeps an ordered list of changes (added samples, deletions,
/// unmapped samples); an anchor is a position in that list. Like HealthKit it
/// can:
/// - page: ``changes(of:after:limit:)`` answers at most `limit` changes after the anchor;
/// - re-deliver: ``redeliver(_:)`` delivers a sample again (same id and
///   content), and ``redeliveredOverlap`` makes every page repeat the last
///   changes before its anchor, as HealthKit may after an app was killed;
/// - forget deletions: ``expireDeletions(of:)`` purges deleted-object
///   records, so a client behind them misses the deletion (reconcile finds it);
/// - fail: ``failNext(_:with:count:)`` (e.g. ``SyncSourceError/databaseInaccessible``);
/// - never answer: ``hangNext(_:)`` makes the next query wait until
///   ``releaseHungQueries()``, ignoring cancellation, like a query HealthKit never answers;
/// - wake observers: ``notifyObservers(of:isBackgroundDelivery:)`` calls the
///   registered handler with an ``ObserverWake`` whose completions it counts.
///
/// ```swift
/// let source = InMemoryHealthSource()
/// await source.add([hrvSample], of: .hrv)
/// let engine = HealthSyncEngine(store: store, source: source)
/// _ = try await engine.sync(.hrv)
/// ```
public actor InMemoryHealthSource: HealthSampleSource {
    private enum Change: Sendable {
        case added(SampleInput)
        case deleted(String)
        case unmapped(UnmappedSample)
    }

    private struct TypeHistory {
        /// Changes in order; a purged deletion stays as `nil` so positions (anchors) keep their meaning.
        var changes: [Change?] = []
        /// Live samples by id (the latest version).
        var live: [String: SampleInput] = [:]
    }

    private var histories: [SampleKind: TypeHistory] = [:]
    private var failures: [SampleKind: [(error: SyncSourceError, remaining: Int)]] = [:]
    private var hangs: [SampleKind: Int] = [:]
    private var hung: [CheckedContinuation<Void, Never>] = []
    private var observer: (@Sendable (ObserverWake) -> Void)?
    private var observedTypes: Set<SampleKind> = []
    /// How many changes before its anchor every page repeats (0 by default).
    public var redeliveredOverlap = 0
    /// How many queries were made, all types together.
    public private(set) var queryCount = 0
    /// How many observer completions were called.
    public private(set) var completions = 0

    /// Creates an empty source.
    public init() {}

    // MARK: - Changing the data

    /// Adds samples (new ids, or new versions of stored ids) to `type`'s history.
    /// - Parameters:
    ///   - samples: The samples, each of kind `type`.
    ///   - type: The sample type.
    public func add(_ samples: [SampleInput], of type: SampleKind) {
        var history = histories[type] ?? TypeHistory()
        history.changes.reserveCapacity(history.changes.count + samples.count)
        for sample in samples {
            history.changes.append(.added(sample))
            history.live[sample.id] = sample
        }
        histories[type] = history
    }

    /// Deletes samples of `type` by id (a deleted-object record each).
    /// - Parameters:
    ///   - ids: The ids.
    ///   - type: The sample type.
    public func delete(_ ids: [String], of type: SampleKind) {
        var history = histories[type] ?? TypeHistory()
        for id in ids {
            history.changes.append(.deleted(id))
            history.live[id] = nil
        }
        histories[type] = history
    }

    /// Adds a sample the mapping could not express (an unknown category value).
    /// - Parameters:
    ///   - sample: The id and reason.
    ///   - type: The sample type.
    public func addUnmapped(_ sample: UnmappedSample, of type: SampleKind) {
        histories[type, default: TypeHistory()].changes.append(.unmapped(sample))
    }

    /// Delivers the current version of each sample again (same id and content).
    /// - Parameter ids: Ids of live samples; others are ignored.
    public func redeliver(_ ids: [String]) {
        for (type, history) in histories {
            for id in ids {
                if let sample = history.live[id] { histories[type]?.changes.append(.added(sample)) }
            }
        }
    }

    /// Purges every deleted-object record of `type`, as HealthKit does after a while.
    /// - Parameter type: The sample type.
    public func expireDeletions(of type: SampleKind) {
        guard var history = histories[type] else { return }
        for index in history.changes.indices {
            if case .deleted? = history.changes[index] { history.changes[index] = nil }
        }
        histories[type] = history
    }

    /// Makes the next `count` queries of `type` fail with `error`.
    /// - Parameters:
    ///   - type: The sample type.
    ///   - error: The error to throw.
    ///   - count: How many queries fail.
    public func failNext(_ type: SampleKind, with error: SyncSourceError, count: Int = 1) {
        failures[type, default: []].append((error, count))
    }

    /// Makes the next query of `type` never answer (until ``releaseHungQueries()``), ignoring cancellation.
    /// - Parameter type: The sample type.
    public func hangNext(_ type: SampleKind) {
        hangs[type, default: 0] += 1
    }

    /// Lets every hung query go on (they then answer normally; the engine has stopped waiting).
    public func releaseHungQueries() {
        let waiting = hung
        hung = []
        for continuation in waiting { continuation.resume() }
    }

    /// How many queries are hung now.
    public var hungQueryCount: Int { hung.count }

    /// The ids of the live samples of `type`.
    /// - Parameter type: The sample type.
    /// - Returns: The ids, sorted.
    public func liveIDs(of type: SampleKind) -> [String] {
        (histories[type]?.live.keys).map { $0.sorted() } ?? []
    }

    // MARK: - Observers

    /// Calls the registered observer for `type` with a wake whose completion
    /// this source counts (``completions``); does nothing when `type` is not observed.
    /// - Parameters:
    ///   - type: The sample type that changed.
    ///   - isBackgroundDelivery: Whether it comes through background delivery.
    /// - Returns: The wake handed to the observer, or `nil`.
    @discardableResult
    public func notifyObservers(of type: SampleKind, isBackgroundDelivery: Bool = true) -> ObserverWake? {
        guard let observer, observedTypes.contains(type) else { return nil }
        let wake = ObserverWake(type: type, isBackgroundDelivery: isBackgroundDelivery) { [weak self] in
            Task { await self?.countCompletion() }
        }
        observer(wake)
        return wake
    }

    private func countCompletion() {
        completions += 1
    }

    // MARK: - HealthSampleSource

    /// See ``HealthSampleSource/changes(of:after:limit:)``: the anchor is the
    /// position after the page's last change, as text (`"<type>:<position>"`).
    public func changes(of type: SampleKind, after anchor: SyncAnchor?, limit: Int) async throws -> SyncPage {
        queryCount += 1
        if let count = hangs[type], count > 0 {
            hangs[type] = count - 1
            await withCheckedContinuation { hung.append($0) }
        }
        if var queue = failures[type], !queue.isEmpty {
            let error = queue[0].error
            queue[0].remaining -= 1
            if queue[0].remaining <= 0 { queue.removeFirst() }
            failures[type] = queue
            throw error
        }
        guard let history = histories[type] else { return SyncPage(anchor: anchor ?? SyncAnchor("\(type.rawValue):0")) }
        let position = try anchor.map { try Self.position($0, of: type) } ?? 0
        var index = max(0, min(position, history.changes.count) - redeliveredOverlap)
        var page = SyncPage(anchor: anchor ?? SyncAnchor("\(type.rawValue):0"))
        var taken = 0
        while index < history.changes.count, taken < max(1, limit) {
            defer { index += 1 }
            guard let change = history.changes[index] else { continue }
            taken += 1
            switch change {
            case .added(let sample): page.added.append(sample)
            case .deleted(let id): page.deletedIDs.append(id)
            case .unmapped(let sample): page.unmapped.append(sample)
            }
        }
        page.anchor = SyncAnchor("\(type.rawValue):\(max(index, position))")
        return page
    }

    /// See ``HealthSampleSource/sampleIDs(of:on:)``: exact, by the day rule.
    public func sampleIDs(of type: SampleKind, on days: ClosedRange<DayKey>) async throws -> Set<String> {
        queryCount += 1
        if var queue = failures[type], !queue.isEmpty {
            let error = queue[0].error
            queue[0].remaining -= 1
            if queue[0].remaining <= 0 { queue.removeFirst() }
            failures[type] = queue
            throw error
        }
        var ids: Set<String> = []
        for (id, sample) in histories[type]?.live ?? [:] where days.contains(Self.day(of: sample)) { ids.insert(id) }
        return ids
    }

    /// See ``HealthSampleSource/startObserving(_:onChange:)``.
    public func startObserving(_ types: [SampleKind], onChange: @escaping @Sendable (ObserverWake) -> Void) async throws {
        observer = onChange
        observedTypes.formUnion(types)
    }

    /// See ``HealthSampleSource/stopObserving()``.
    public func stopObserving() async {
        observer = nil
        observedTypes = []
    }

    // MARK: - Helpers

    /// The day a sample counts for: the local date of its start; for sleep, of `end + 6 h`.
    static func day(of sample: SampleInput) -> DayKey {
        sample.kind == .sleep ? sample.end.adding(seconds: 6 * 3600).localDate : sample.start.localDate
    }

    private static func position(_ anchor: SyncAnchor, of type: SampleKind) throws -> Int {
        let prefix = "\(type.rawValue):"
        guard anchor.text.hasPrefix(prefix), let position = Int(anchor.text.dropFirst(prefix.count)), position >= 0 else {
            throw SyncSourceError(code: "invalidAnchor", message: "anchor \(anchor.text) is not one of this source's \(type.rawValue) anchors")
        }
        return position
    }
}
