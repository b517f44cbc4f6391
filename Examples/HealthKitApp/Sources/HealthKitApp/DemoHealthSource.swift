import DuneHealthKit
import DuneProjections

/// A small in-memory stand-in for HealthKit, written the way an app would
/// write a ``HealthSampleSource`` of its own: a history per type, an anchor
/// that is the count of changes read, deletions that can expire (as
/// HealthKit purges deleted-object records), and observer notifications.
actor DemoHealthSource: HealthSampleSource {
    private enum Change {
        case added(SampleInput)
        case deleted(String)
        case unmapped(UnmappedSample)
    }

    private var history: [SampleKind: [Change]] = [:]
    private var onChange: (@Sendable (ObserverWake) -> Void)?
    private var observed: Set<SampleKind> = []

    /// Adds samples, as a watch writing to HealthKit would.
    func add(_ samples: [SampleInput]) {
        for sample in samples { history[sample.kind, default: []].append(.added(sample)) }
    }

    /// A sample HealthKit delivers but the mapping cannot express (a sleep value of a later iOS).
    func addUnmapped(_ sample: UnmappedSample, of type: SampleKind) {
        history[type, default: []].append(.unmapped(sample))
    }

    /// Deletes a sample; with `keepRecord: false` the deleted-object record is
    /// already purged when the app next asks (only a reconcile finds it).
    func delete(_ id: String, of type: SampleKind, keepRecord: Bool) {
        history[type, default: []] = history[type, default: []].filter {
            if case .added(let sample) = $0 { sample.id != id } else { true }
        }
        if keepRecord { history[type, default: []].append(.deleted(id)) }
    }

    /// Fires the observer of `type`, as HealthKit does after a change; returns whether the app answered.
    func notify(_ type: SampleKind, completion: @escaping @Sendable () -> Void) -> Bool {
        guard let onChange, observed.contains(type) else { return false }
        onChange(ObserverWake(type: type, isBackgroundDelivery: true, completion: completion))
        return true
    }

    func changes(of type: SampleKind, after anchor: SyncAnchor?, limit: Int) async throws -> SyncPage {
        let changes = history[type, default: []]
        let start = anchor.flatMap { Int($0.text.dropFirst("\(type.rawValue)-".count)) } ?? 0
        let end = min(changes.count, start + limit)
        var page = SyncPage(anchor: SyncAnchor("\(type.rawValue)-\(end)"))
        for change in changes[min(start, end)..<end] {
            switch change {
            case .added(let sample): page.added.append(sample)
            case .deleted(let id): page.deletedIDs.append(id)
            case .unmapped(let sample): page.unmapped.append(sample)
            }
        }
        return page
    }

    func sampleIDs(of type: SampleKind, on days: ClosedRange<DayKey>) async throws -> Set<String> {
        var ids = Set<String>()
        for case .added(let sample) in history[type, default: []] { ids.insert(sample.id) }
        return ids
    }

    func startObserving(_ types: [SampleKind], onChange: @escaping @Sendable (ObserverWake) -> Void) async throws {
        self.onChange = onChange
        observed.formUnion(types)
    }

    func stopObserving() async {
        onChange = nil
        observed = []
    }
}
