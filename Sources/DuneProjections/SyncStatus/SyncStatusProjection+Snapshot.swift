import DuneEvents

extension SyncStatusProjection {
    /// Writes the whole state: `throughSeq`; refresh signal, last refresh
    /// (`at` as written), pending invalidation, counts; then each feature.
    func write(to writer: inout BinaryWriter) {
        writer.integer(throughSeq)
        writer.integer(refresh.refreshSignal)
        writer.string(refresh.lastRefreshAt?.text ?? "")
        writer.uint8(refresh.pendingInvalidation ? 1 : 0)
        writer.integer(refresh.counts.count)
        for count in refresh.counts {
            writer.string(count.source.rawValue)
            writer.string(count.outcome.rawValue)
            writer.integer(count.count)
        }
        writer.integer(features.count)
        for feature in features {
            writer.string(feature.feature)
            writer.string(feature.phase.rawValue)
            writer.string(feature.settledPhase.rawValue)
            writer.uint8(feature.currentTask == nil ? 0 : 1)
            writer.string(feature.currentTask ?? "")
            writer.uint8(feature.lastError == nil ? 0 : 1)
            writer.string(feature.lastError ?? "")
            for count in [feature.counts.started, feature.counts.completed, feature.counts.failed, feature.counts.cancelled,
                          feature.counts.staleIgnored] {
                writer.integer(count)
            }
            writer.integer(feature.lastEventSeq)
        }
        writer.integer(sampleTypes.count)
        for state in sampleTypes {
            writer.string(state.sampleType.rawValue)
            writer.string(state.anchor)
            writer.integer(state.pages)
            writer.integer(state.samples)
            writer.integer(state.deleted)
            writer.string(state.earliestStart?.text ?? "")
            writer.integer(state.rejected.count)
            for count in state.rejected {
                writer.string(count.reason)
                writer.integer(count.count)
            }
        }
    }

    /// The state `reader` holds; `nil` when it is not a whole, valid one.
    init?(from reader: inout BinaryReader) {
        guard let throughSeq = reader.integer(), let refreshSignal = reader.integer(), let lastRefreshText = reader.string(),
              let pending = reader.uint8(), let countCount = reader.count(itemBytes: 24)
        else { return nil }
        let lastRefreshAt: Timestamp?
        if lastRefreshText.isEmpty {
            lastRefreshAt = nil
        } else {
            guard let at = try? Timestamp(parsing: lastRefreshText) else { return nil }
            lastRefreshAt = at
        }
        var counts: [RefreshCount] = []
        for _ in 0..<countCount {
            guard let source = reader.string().flatMap(RefreshSource.init(rawValue:)),
                  let outcome = reader.string().flatMap(RefreshOutcome.init(rawValue:)), let count = reader.integer()
            else { return nil }
            counts.append(RefreshCount(source: source, outcome: outcome, count: count))
        }
        guard let featureCount = reader.count(itemBytes: 80) else { return nil }
        var features: [FeatureLoadState] = []
        for _ in 0..<featureCount {
            guard let name = reader.string(), let phase = reader.string().flatMap(LoadPhase.init(rawValue:)),
                  let settled = reader.string().flatMap(LoadPhase.init(rawValue:)),
                  let hasTask = reader.uint8(), let task = reader.string(), let hasError = reader.uint8(), let error = reader.string()
            else { return nil }
            var taskCounts = TaskCounts()
            guard let started = reader.integer(), let completed = reader.integer(), let failed = reader.integer(),
                  let cancelled = reader.integer(), let staleIgnored = reader.integer(), let lastEventSeq = reader.integer()
            else { return nil }
            taskCounts.started = started
            taskCounts.completed = completed
            taskCounts.failed = failed
            taskCounts.cancelled = cancelled
            taskCounts.staleIgnored = staleIgnored
            features.append(FeatureLoadState(feature: name, phase: phase, settledPhase: settled, currentTask: hasTask == 1 ? task : nil,
                                              lastError: hasError == 1 ? error : nil, counts: taskCounts, lastEventSeq: lastEventSeq))
        }
        guard let typeCount = reader.count(itemBytes: 48) else { return nil }
        var sampleTypes: [SampleTypeSyncState] = []
        for _ in 0..<typeCount {
            guard let kind = reader.string().flatMap(SampleKind.init(rawValue:)), let anchor = reader.string(),
                  let pages = reader.integer(), let samples = reader.integer(), let deleted = reader.integer(),
                  let earliestText = reader.string(), let rejectedCount = reader.count(itemBytes: 16)
            else { return nil }
            var earliest: Timestamp?
            if !earliestText.isEmpty {
                guard let parsed = try? Timestamp(parsing: earliestText) else { return nil }
                earliest = parsed
            }
            var rejected: [SampleTypeSyncState.RejectionCount] = []
            for _ in 0..<rejectedCount {
                guard let reason = reader.string(), let count = reader.integer() else { return nil }
                rejected.append(.init(reason: reason, count: count))
            }
            sampleTypes.append(SampleTypeSyncState(sampleType: kind, anchor: anchor, pages: pages, samples: samples, deleted: deleted,
                                                   rejected: rejected, earliestStart: earliest))
        }
        self.init(throughSeq: throughSeq,
                  refresh: RefreshStatus(refreshSignal: refreshSignal, lastRefreshAt: lastRefreshAt, pendingInvalidation: pending == 1,
                                         counts: counts),
                  features: features, sampleTypes: sampleTypes)
    }
}
