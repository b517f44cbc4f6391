import DuneEvents

/// The read side of a ``DuneStore``: one ``ReadModelEngine`` of the log, kept
/// current with the file whoever appends to it.
///
/// A follower remembers which file it read (device and inode), how far (the
/// offset after its last folded line) and that line's stamp. ``catchUp(isCancelled:)``
/// folds the whole lines appended since; when the path names another file (a
/// forget in another process renamed a new log over it), or the file no
/// longer holds the last folded line where it was (a writer rolled back a
/// batch this follower had read), it folds the log again from its start or
/// from a valid snapshot. Bytes after the last `\n` are never read: a line is
/// folded once it is whole.
///
/// Its own serial queue runs the reads and folds (blocking `pread`s), never a
/// thread of Swift's cooperative pool. It never writes a file; a snapshot is
/// written by the store through ``SnapshotFile``, holding the writer lock.
package actor LogFollower {
    private nonisolated let executor = DispatchQueueExecutor(label: "dune.store-follower")

    package nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// The log file's path.
    package nonisolated let path: String
    /// Whether a valid snapshot beside the log may stand in for replaying its start.
    private let usesSnapshots: Bool
    /// The app's own projections, folded with the built-in ones.
    private let appProjections: [AnyAppProjection]
    private var position: Position
    /// Raised by every change to the fold: a read model is computed once per generation.
    private var generation = 0
    private var cached: CachedState?
    /// Why a snapshot or the log's start was not used, for the store's warnings; taken by ``takeWarnings()``.
    private var warnings: [String] = []

    /// What the follower has read: the fold, the file and where it stopped.
    struct Position: Sendable {
        var fold = ReadModelEngine()
        /// The file the fold read, open for reading; `nil` while no file is at the path.
        var file: LogFile?
        /// The offset just after the last folded line.
        var offset = 0
        /// The stamp of the last folded line, to notice a file that changed under it.
        var stamp: LogStamp?
        /// The seq of the snapshot the fold started from (0: none).
        var snapshotSeq = 0
    }

    private struct CachedState {
        var generation: Int
        var state: StoreState
    }

    /// Signals a cancelled read between batches.
    private struct Cancelled: Error {}

    /// Folds the log at `path` (from its snapshot when `usesSnapshots` and it
    /// is valid); a missing log is an empty state.
    ///
    /// - Throws: `corruptLog` at a damaged line, `inputUnavailable` when the
    ///   path is not a readable regular file, ``CancellationError`` when
    ///   `isCancelled` returned `true` between batches.
    /// - Complexity: O(n) in the events after the snapshot (the whole log without one).
    package init(path: String, usesSnapshots: Bool, appProjections: [AnyAppProjection] = [], isCancelled: () -> Bool) throws {
        self.path = path
        self.usesSnapshots = usesSnapshots
        self.appProjections = appProjections
        var warnings: [String] = []
        position = try Self.load(path: path, usesSnapshots: usesSnapshots, appProjections: appProjections, warnings: &warnings,
                                 isCancelled: isCancelled)
        self.warnings = warnings
    }

    /// A fresh fold of the file `path` names now.
    private static func load(path: String, usesSnapshots: Bool, appProjections: [AnyAppProjection], warnings: inout [String],
                             isCancelled: () -> Bool) throws -> Position {
        var position = Position(fold: ReadModelEngine(appProjections: appProjections))
        guard LogFile.status(atPath: path) != nil else { return position }
        let file = try LogFile.openForReading(path: path)
        position.file = file
        if usesSnapshots {
            switch SnapshotFile.load(logPath: path) {
            case .usable(let snapshot, let stamp) where stamp.matches(file, size: try file.size):
                let restoring = ReadModelEngine.restoring(snapshot, appProjections: appProjections)
                position.fold = restoring.engine
                warnings += restoring.warnings
                if !restoring.refold.isEmpty {
                    // Only these projections are folded from the log's start to the snapshot's seq.
                    var refolded = ReadModelEngine(appProjections: restoring.refold)
                    _ = try LogReader(file: file).forEachEventBatch(LogReader.Range(throughSeq: stamp.lastSeq)) { batch in
                        if isCancelled() { throw Cancelled() }
                        refolded.apply(batch)
                    }
                    position.fold.adoptApps(from: refolded)
                }
                position.offset = stamp.offset
                position.stamp = stamp
                position.snapshotSeq = stamp.lastSeq
            case .usable, .missing:
                break
            case .ignored(let warning):
                warnings.append(warning)
            }
        }
        try readTail(&position, isCancelled: isCancelled)
        if position.fold.snapshotIsDamaged {
            // Found before any state was published: as a snapshot refused at open.
            warnings.append("warning: \(SnapshotFile.path(forLog: path)): not used (its samples or id index are damaged); the log is replayed in full")
            return try load(path: path, usesSnapshots: false, appProjections: appProjections, warnings: &warnings, isCancelled: isCancelled)
        }
        return position
    }

    /// Throws when the fold found its snapshot's id index damaged after a
    /// state was published: the store ends its observations with the error
    /// rather than publish a state it did not fold (a read-write store then
    /// removes the file; see `DuneStore`).
    private func checkSnapshot() throws {
        guard position.fold.snapshotIsDamaged else { return }
        throw SnapshotFile.damageError(logPath: path)
    }

    /// Folds the whole lines of `position.file` after `position.offset`.
    /// - Returns: The read models the folded events may have changed.
    @discardableResult
    private static func readTail(_ position: inout Position, isCancelled: () -> Bool) throws -> Set<ProjectionName> {
        guard let file = position.file else { return [] }
        let size = try file.size
        let tail = size - position.offset
        guard tail > 0 else { return [] }
        var changed: Set<ProjectionName> = []
        if position.offset == 0 { position.fold.reserveCapacity(samples: tail / 300) }
        let small = tail <= LogReader.chunkSize
        let start = LogReader.Resumption(offset: position.offset, expectedSeq: position.fold.throughSeq + 1)
        var fold = position.fold
        defer {
            // Whole batches only: what was folded before a damaged line or a cancellation is a consistent state.
            position.fold = fold
        }
        let end: LogReader.End
        do {
            end = try LogReader(file: file).forEachEventBatch(
                LogReader.Range(), parallelism: small ? 1 : LogReader.defaultParallelism,
                chunkSize: small ? max(tail, 4096) : LogReader.chunkSize, startingAt: start
            ) { batch in
                if isCancelled() { throw Cancelled() }
                fold.apply(batch)
                changed.formUnion(ProjectionName.changed(by: batch))
            }
        } catch let error as DuneEventsError where error.code == .corruptLog {
            // Damage past the length recorded as durably synced is what a crash left
            // (the next writer moves it aside): the log ends before it. Damage inside is refused.
            guard let damage = error.location.byteOffset, let synced = file.recordedSyncedLength(), damage >= synced,
                  damage >= position.offset else { throw error }
            position.offset = damage
            position.stamp = LogStamp.atEnd(of: file, size: damage, lastSeq: fold.throughSeq)
            return changed
        }
        position.offset = end.validBytes
        position.stamp = LogStamp.atEnd(of: file, size: end.validBytes, lastSeq: end.lastSeq)
        return changed
    }

    // MARK: - Following

    /// Folds what was appended to the log since the last call (or the log
    /// again, when it was replaced or changed under the fold).
    ///
    /// - Returns: The read models that may have changed; empty when nothing was folded.
    /// - Throws: `corruptLog` at a damaged line (the fold keeps every whole
    ///   batch before it), ``CancellationError`` when `isCancelled` returned
    ///   `true` between batches (the fold is at a whole batch).
    @discardableResult
    package func catchUp(isCancelled: () -> Bool = { false }) throws -> Set<ProjectionName> {
        let held = try? position.file?.identity
        // Which file the path names comes from `stat`; how long the held file is, from its own `fstat`.
        let nowIdentity = LogFile.status(atPath: path)?.identity
        let size = nowIdentity != nil && nowIdentity == held ? (try? position.file?.size) ?? 0 : 0
        let intact = nowIdentity == held
            && (position.stamp.map { stamp in position.file.map { stamp.matches($0, size: size) } ?? false } ?? true)
        guard intact else {
            let wasEmpty = position.fold.throughSeq == 0
            try refold(isCancelled: isCancelled)
            // A log created where there was none, still empty: the same (empty) state.
            if wasEmpty, position.fold.throughSeq == 0 {
                generation -= 1
                return []
            }
            return Set(ProjectionName.allCases)
        }
        guard nowIdentity != nil, size > position.offset else { return [] }
        let before = position.fold.throughSeq
        defer { if position.fold.throughSeq != before { generation += 1 } }
        do {
            let changed = try Self.readTail(&position, isCancelled: isCancelled)
            try checkSnapshot()
            return changed
        } catch is Cancelled {
            throw CancellationError()
        }
    }

    /// Folds the log again from its start (or a valid snapshot, unless
    /// `ignoringSnapshot`): after a forget, or when the file changed under the fold.
    package func refold(ignoringSnapshot: Bool = false, isCancelled: () -> Bool = { false }) throws {
        var warnings: [String] = []
        do {
            position = try Self.load(path: path, usesSnapshots: usesSnapshots && !ignoringSnapshot, appProjections: appProjections,
                                     warnings: &warnings, isCancelled: isCancelled)
        } catch is Cancelled {
            throw CancellationError()
        }
        self.warnings += warnings
        generation += 1
    }

    /// Folds `events`, which this store appended at `byteRange`, when they
    /// directly follow the fold; else reads the file from where the fold stopped.
    ///
    /// - Returns: The read models that may have changed.
    @discardableResult
    package func apply(_ events: [RecordedEvent], appendedAt byteRange: Range<Int>) throws -> Set<ProjectionName> {
        guard let first = events.first, let last = events.last else { return try catchUp() }
        guard position.file != nil, position.offset == byteRange.lowerBound, first.seq == position.fold.throughSeq + 1 else {
            return try catchUp()
        }
        position.fold.apply(events)
        try checkSnapshot()
        position.offset = byteRange.upperBound
        position.stamp = position.file.flatMap { LogStamp.atEnd(of: $0, size: byteRange.upperBound, lastSeq: last.seq) }
        generation += 1
        return ProjectionName.changed(by: events)
    }

    // MARK: - Reading

    /// The four read models at the fold's seq, computed once per change.
    /// - Complexity: O(n log n) for n samples after a change, O(1) otherwise.
    package func state() -> StoreState {
        if let cached, cached.generation == generation { return cached.state }
        let state = position.fold.state()
        cached = CachedState(generation: generation, state: state)
        return state
    }

    /// ``state()`` and the generation it is of.
    package func observedState() -> (state: StoreState, generation: Int) {
        (state(), generation)
    }

    /// The current samples of `kind` in `days`, in time order, at the fold's seq.
    /// - Throws: The snapshot's damage, when its samples were read now and
    ///   failed their check (see ``readSnapshotSamples()``; asked again, the
    ///   follower answers from the log).
    package func samples(of kind: SampleKind, in days: ClosedRange<DayKey>) throws -> SampleQueryResult {
        try readSnapshotSamples()
        return SampleQueryResult(throughSeq: position.fold.throughSeq,
                                 samples: position.fold.samples.samples(of: kind, in: days).map(\.sample))
    }

    /// Reads the samples of the snapshot the fold was restored from, when
    /// it has not yet (they stay in the file until a fold or a query needs them).
    ///
    /// When they fail their check, the log is folded again without the
    /// snapshot — the same state, so nothing new is published, and what is
    /// read next is right — and the damage is thrown: the store ends its
    /// observations with it, as with damage found while following.
    private func readSnapshotSamples() throws {
        guard !position.fold.readSamples() else { return }
        try refold(ignoringSnapshot: true)
        throw SnapshotFile.damageError(logPath: path)
    }

    /// The seq of the last folded event.
    package var throughSeq: Int { position.fold.throughSeq }

    /// The HealthKit sync state of `type` (its anchor and counts) without
    /// computing the other read models; `nil` when no page of it is stored.
    package func syncState(of type: SampleKind) -> SampleTypeSyncState? {
        position.fold.syncStatus.sampleType(type)
    }

    /// The ids of the live samples of `type` whose day lies in `days`, in id order.
    /// - Throws: As ``samples(of:in:)``.
    /// - Complexity: that of ``SampleStore/samples(of:in:)``, plus O(m log m) for m ids.
    package func liveSampleIDs(of type: SampleKind, on days: ClosedRange<DayKey>) throws -> [String] {
        try readSnapshotSamples()
        return position.fold.samples.samples(of: type, in: days).map(\.sample.id).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The warnings gathered since the last call.
    package func takeWarnings() -> [String] {
        defer { warnings = [] }
        return warnings
    }

    // MARK: - Snapshots

    /// The seq of the snapshot the fold started from or last wrote (0: none).
    package var snapshotSeq: Int { position.snapshotSeq }

    /// How many events were folded since the snapshot this follower knows of.
    package var eventsSinceSnapshot: Int { position.fold.throughSeq - position.snapshotSeq }

    /// Writes `<log>.snapshot` of the fold when no other writer holds the lock
    /// and the log still ends where the fold does; does nothing otherwise.
    /// The fold is copied and the snapshot built and written on a thread of
    /// its own while this follower goes on; the lock is held only for the
    /// rename (see ``SnapshotFile/writeIfLockFree(_:at:logPath:protection:)``).
    ///
    /// - Returns: A warning when the write failed.
    package func writeSnapshot(protection: FileProtection) async -> String? {
        guard position.file != nil, let stamp = position.stamp, stamp.lastSeq == position.fold.throughSeq,
              stamp.offset == position.offset else { return nil }
        let (fold, path) = (position.fold, path)
        let written: Bool
        do {
            written = try await DispatchQueueExecutor(label: "dune.store-snapshot").run {
                try SnapshotFile.writeIfLockFree(fold, at: stamp, logPath: path, protection: protection)
            }
        } catch {
            return "warning: \(SnapshotFile.path(forLog: path)): not written (\(error)); the next open replays more of the log"
        }
        if written, position.fold.throughSeq >= fold.throughSeq { position.snapshotSeq = fold.throughSeq }
        return nil
    }
}

extension ProjectionName {
    /// The read models that the events of `batch` can change.
    static func changed(by batch: EventBatch) -> Set<ProjectionName> {
        var changed: Set<ProjectionName> = batch.count > batch.otherIndices.count ? [.readiness, .trends, .weeklyStats] : []
        for index in batch.otherIndices {
            changed.formUnion(Self.changed(by: batch.others[index]))
        }
        return changed
    }
}
