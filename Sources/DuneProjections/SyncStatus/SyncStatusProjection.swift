import DuneEvents

/// The sync-status projection (docs/read-models.md): refresh signal and counts, and each
/// feature's load phase, folded from `refresh.requested` and `task.*` events.
package struct SyncStatusProjection: Sendable, Equatable {
    /// The version of this fold's output: bump it whenever a change makes the
    /// fold produce other bytes for the same log, so that snapshots taken by
    /// the older code are not used (see `ProjectionSnapshot`).
    package static let foldVersion: UInt32 = 1
    /// CRC-32 of `sync-status.json` rebuilt from the shipped sample log (`Logs/events.jsonl`)
    /// at ``foldVersion``: `FoldVersionTests` fails when the output changes and
    /// these two constants do not.
    package static let foldVersionOutputCRC: UInt32 = 0x262f7542

    package private(set) var throughSeq = 0
    package private(set) var refresh = RefreshStatus()
    private var featuresByName: [String: FeatureLoadState] = [:]
    /// The HealthKit sync of each sample type that has a `sync.anchored` event.
    private var sampleTypesByKind: [SampleKind: SampleTypeSyncState] = [:]

    package init() {}

    /// A projection in a state a snapshot recorded.
    package init(throughSeq: Int, refresh: RefreshStatus, features: [FeatureLoadState], sampleTypes: [SampleTypeSyncState] = []) {
        self.throughSeq = throughSeq
        self.refresh = refresh
        for feature in features { featuresByName[feature.feature] = feature }
        for state in sampleTypes { sampleTypesByKind[state.sampleType] = state }
    }

    /// Folds one event; skips events with `seq ≤ throughSeq`.
    package mutating func apply(_ event: RecordedEvent) {
        guard event.seq > throughSeq else { return }
        throughSeq = event.seq
        // An event stored outside SPEC §2's window by an older version is skipped.
        guard !event.isOutsideTimestampWindow else { return }
        switch event.payload {
        case .refreshRequested(let record):
            refresh.apply(record)
        case .task(let record):
            featuresByName[record.feature, default: FeatureLoadState(feature: record.feature)]
                .apply(record, seq: event.seq)
        case .syncAnchored(let record):
            sampleTypesByKind[record.sampleType, default: SampleTypeSyncState(sampleType: record.sampleType, anchor: record.anchor)]
                .apply(record)
        case .sampleIngested, .sampleDeleted, .profileUpdated, .redacted, .dataForgotten:
            break
        }
    }

    /// Folds a decoded batch; skips events with `seq ≤ throughSeq`.
    /// Only refresh, task and sync events matter here, and the batch holds them in full.
    package mutating func apply(_ batch: EventBatch) {
        guard let last = batch.lastSeq, last > throughSeq else { return }
        for index in batch.otherIndices where batch.others[index].seq > throughSeq { apply(batch.others[index]) }
        throughSeq = last
    }

    /// Every feature a task event named, in name order.
    package var features: [FeatureLoadState] {
        featuresByName.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { featuresByName[$0] }
    }

    /// The sync state of each sample type that has a `sync.anchored` event, in
    /// kind-name order, without the phase and error of its feature (see ``readModel()``).
    package var sampleTypes: [SampleTypeSyncState] {
        sampleTypesByKind.keys.sorted { $0.rawValue.utf8.lexicographicallyPrecedes($1.rawValue.utf8) }.compactMap { sampleTypesByKind[$0] }
    }

    /// The sync state of `type`, or `nil` when no `sync.anchored` named it.
    package func sampleType(_ type: SampleKind) -> SampleTypeSyncState? {
        sampleTypesByKind[type]
    }

    /// The read model.
    /// - Complexity: O(f log f) for f features.
    package func readModel() -> SyncStatusModel {
        SyncStatusModel(throughSeq: throughSeq, refresh: refresh, features: features,
                        sampleTypes: sampleTypes.map { $0.withFeature(featuresByName[$0.feature]) })
    }
}
