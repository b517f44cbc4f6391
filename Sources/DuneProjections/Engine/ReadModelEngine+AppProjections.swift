import DuneEvents

extension ReadModelEngine {
    /// Whether an app projection is registered that has not failed: only then are events projected for them.
    var hasLiveApps: Bool { apps.contains { $0.failure == nil } }

    /// `events` after ``throughSeq`` as app projections see them
    /// (``ProjectionEvent``): each correction and deletion resolved against
    /// the samples before it, within `events` too. Call it before the
    /// samples fold `events`.
    /// - Complexity: O(n) lookups for n events.
    func projectedEvents(_ events: some Sequence<RecordedEvent>) -> [ProjectionEvent] {
        var overlay: [SampleKey: Sample?] = [:]   // id → its version within `events` (`nil`: deleted); looked up, never iterated
        func current(_ key: SampleKey, _ id: String) -> Sample? {
            if let version = overlay[key] { return version }
            return samples.sample(id: id)?.sample
        }
        var projected: [ProjectionEvent] = []
        for event in events where event.seq > throughSeq && !event.isOutsideTimestampWindow {
            let change: ProjectionEvent.Change
            switch event.payload {
            case .sampleIngested(let sample):
                let key = SampleKey(sample.id)
                change = current(key, sample.id).map { .sampleCorrected(old: $0, new: sample) } ?? .sampleAdded(sample)
                overlay[key] = .some(sample)
            case .sampleDeleted(let deletion):
                let key = SampleKey(deletion.sampleID)
                guard let old = current(key, deletion.sampleID) else { continue }
                change = .sampleDeleted(old)
                overlay[key] = .some(nil)
            case .refreshRequested(let record):
                change = .refresh(RefreshRequest(source: record.source, kind: record.kind, at: record.at), decision: RefreshDecision(record))
            case .task(let task):
                change = .task(TaskCommand(task: task.task, feature: task.feature, phase: task.phase, at: task.at, error: task.error))
            case .profileUpdated(let update):
                change = .profileUpdated(update)
            case .redacted, .dataForgotten, .syncAnchored:
                continue
            }
            projected.append(ProjectionEvent(seq: event.seq, change: change))
        }
        return projected
    }

    /// Folds `projected` into every app projection that has not failed; one that throws is marked failed, the others go on.
    mutating func foldApps(_ projected: [ProjectionEvent]) {
        guard !projected.isEmpty else { return }
        for index in apps.indices where apps[index].failure == nil {
            let fold = apps[index].projection.fold
            apps[index].failure = fold(&apps[index].model, projected)
        }
    }

    /// The app projections' parts of a snapshot: each model as JSON, or its failure.
    var appParts: [AppSnapshotPart] {
        apps.compactMap { app in
            if let failure = app.failure {
                return AppSnapshotPart(name: app.projection.name, version: app.projection.version, failure: failure, bytes: [])
            }
            return app.projection.encode(app.model).map {
                AppSnapshotPart(name: app.projection.name, version: app.projection.version, failure: nil, bytes: $0)
            }
        }
    }

    /// Sets the app projections of `registered` from `parts` (a snapshot's)
    /// where a part of the same name and version decodes; returns those to
    /// refold from the log, and a warning for each part no projection is registered for.
    mutating func restoreApps(_ registered: [AnyAppProjection], from parts: [AppSnapshotPart])
        -> (refold: [AnyAppProjection], warnings: [String]) {
        var refold: [AnyAppProjection] = []
        apps = registered.map { projection in
            var state = AppFoldState(projection)
            guard let part = parts.first(where: { $0.name == projection.name && $0.version == projection.version }) else {
                refold.append(projection)
                return state
            }
            if let failure = part.failure {
                state.failure = failure
            } else if let model = projection.decode(part.bytes) {
                state.model = model
            } else {
                refold.append(projection)
            }
            return state
        }
        let warnings = parts.filter { part in !registered.contains { $0.name == part.name } }.map { part in
            "warning: the snapshot's read model '\(part.name)' (version \(part.version)) is not registered: dropped from the snapshot"
        }
        return (refold, warnings)
    }

    /// Takes the app projections `other` folded (a refold of some of them from the log) in place of this engine's of the same name.
    mutating func adoptApps(from other: ReadModelEngine) {
        for app in other.apps {
            if let index = apps.firstIndex(where: { $0.projection.name == app.projection.name }) { apps[index] = app }
        }
    }
}

/// One app projection's part of a snapshot.
struct AppSnapshotPart: Sendable, Equatable {
    var name: String
    var version: Int
    var failure: AppFailure?
    /// The model as JSON (empty when failed).
    var bytes: [UInt8]
}
