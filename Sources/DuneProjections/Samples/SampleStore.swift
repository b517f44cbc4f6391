import DuneEvents

/// The current samples of a log, keyed by sample id and indexed by day.
///
/// `sample.ingested` adds a sample or, for an id already present, replaces it
/// (a correction; it takes the correcting event's `seq` and may move the sample
/// to another day). `sample.deleted` removes it. Every other event is ignored.
/// The engine keeps one store, of every kind (``ReadModelEngine``).
///
/// ## Layout
///
/// Built for a million samples in well under 100 bytes each:
/// - every version lives once, packed into 64 bytes, in a ``SampleBlock``
///   (`SampleVersions`); blocks decoded by the log reader are shared by the
///   projections fed the same ``EventBatch``, not copied;
/// - the id → version index is an open-addressing table of 8-byte slots
///   (`SampleIndex`) that never iterates in hash order;
/// - each day lists its current versions in `seq` order (`DayBuckets`):
///   events arrive in `seq` order, so a new version is appended at the end,
///   and a replaced or deleted one is found by binary search.
/// Lookups therefore never sort and never depend on hash order, and
/// ``samples(on:)`` gives back exactly the samples that were applied.
package struct SampleStore: Sendable {
    private(set) var versions = SampleVersions()
    private(set) var index = SampleIndex()
    /// The id index of the snapshot the store was restored from, still in its
    /// mapping until ``readIndex()`` (nothing has been applied since).
    private var unreadIndex: MappedIndex?
    private(set) var buckets = DayBuckets()
    /// Where the loads of ``SampleIndex/warm(_:count:)`` go.
    private var warmed: UInt64 = 0

    /// An empty store.
    package init() {}

    // MARK: - Folding

    /// Folds a sample event into the store; other events leave it unchanged.
    ///
    /// Events must come in increasing `seq` (the projections guarantee it by
    /// skipping `seq ≤ throughSeq`). An event with a timestamp outside
    /// ``TimestampWindow`` (stored by an older version) is skipped (docs/input-format.md).
    /// - Complexity: O(1) amortised for a new sample; O(k) for a correction or
    ///   deletion, k the samples of the old version's day.
    package mutating func apply(_ event: RecordedEvent) {
        guard !event.isOutsideTimestampWindow else { return }
        switch event.payload {
        case .sampleIngested(let sample):
            let version = versions.append(sample, seq: event.seq)
            upsert(version, key: SampleKey(sample.id), day: sample.day.ordinal)
        case .sampleDeleted(let deletion):
            remove(SampleKey(deletion.sampleID))
        case .refreshRequested, .task, .profileUpdated, .redacted, .dataForgotten, .syncAnchored:
            break  // a forgotten sample's events and the forget record fold to nothing
        }
    }

    /// Folds the sample events of `batch` with `seq > after`, in order.
    ///
    /// The batch's ``SampleBlock`` is referenced, not copied (unless it is small).
    /// - Complexity: O(n) amortised for n events.
    package mutating func apply(_ batch: EventBatch, after: Int) {
        let block = batch.samples
        var base: UInt32?
        var resolved = false
        let groupSize = 16
        var hashes = [UInt64](repeating: 0, count: groupSize)
        var groupStart = 0
        while groupStart < batch.count {
            let groupEnd = min(batch.count, groupStart + groupSize)
            // Touch the index slots of the group's ids first (see `SampleIndex.warm`).
            var hashCount = 0
            for position in groupStart..<groupEnd {
                let row = batch.rows[position]
                guard row >= 0 else { continue }
                let packed = block.rows[Int(row)]
                guard packed.hasPackedID else { continue }
                hashes[hashCount] = packed.packedID.hashValue64
                hashCount += 1
            }
            warmed ^= index.warm(hashes, count: hashCount)
            for position in groupStart..<groupEnd {
                let row = batch.rows[position]
                if row < 0 {
                    if let deleted = Self.deletedSampleID(batch.others, Int(~row), after: after) {
                        remove(SampleKey(deleted))
                    }
                    continue
                }
                let sampleRow = Int(row)
                let packed = block.rows[sampleRow]
                guard packed.seq > after, !block.isOutsideTimestampWindow(row: sampleRow) else { continue }
                if !resolved {
                    base = versions.reference(block)
                    resolved = true
                }
                let version = base.map { $0 + UInt32(sampleRow) } ?? versions.appendCopy(of: block, row: sampleRow)
                if packed.isFull {
                    let sample = block.fullSamples[packed.fullIndex]
                    upsert(version, key: SampleKey(sample.id), day: sample.day.ordinal)
                } else {
                    upsertPacked(version, id: packed.packedID, day: packed.packedDayOrdinal)
                }
            }
            groupStart = groupEnd
        }
    }

    /// The sample id that `others[index]` deletes, when it is a `sample.deleted`
    /// with `seq > after` inside ``TimestampWindow``; `nil` otherwise.
    ///
    /// Reads the event in place: the payload's case is checked before anything
    /// is copied, so the refresh and task events (one line in four of a long
    /// history) cost a tag check, not a copy of a `RecordedEvent` and its strings.
    @inline(__always)
    private static func deletedSampleID(_ others: [RecordedEvent], _ index: Int, after: Int) -> String? {
        guard case .sampleDeleted(let deletion) = others[index].event.payload, others[index].seq > after,
              TimestampWindow.contains(deletion.at)
        else { return nil }
        return deletion.sampleID
    }

    @inline(__always)
    private mutating func upsertPacked(_ version: UInt32, id: PackedUUID, day: Int) {
        let hash = id.hashValue64
        let found = index.find(hash: hash) { candidate in
            let row = versions.row(candidate)
            return row.hasPackedID && row.packedID == id
        }
        replace(found, with: version, hash: hash, day: day)
    }

    private mutating func upsert(_ version: UInt32, key: SampleKey, day: Int) {
        let hash = key.hash64
        let found = index.find(hash: hash) { versions.hasKey($0, key) }
        replace(found, with: version, hash: hash, day: day)
    }

    @inline(__always)
    private mutating func replace(_ found: (slot: Int, version: UInt32)?, with version: UInt32, hash: UInt64, day: Int) {
        if let found {
            buckets.remove(found.version, day: versions.dayOrdinal(found.version))
            index.update(slot: found.slot, version: version)
        } else {
            index.insert(hash: hash, version: version)
        }
        buckets.add(version, day: day)
    }

    private mutating func remove(_ key: SampleKey) {
        guard let found = index.find(hash: key.hash64, matches: { versions.hasKey($0, key) }) else { return }
        buckets.remove(found.version, day: versions.dayOrdinal(found.version))
        index.remove(slot: found.slot)
    }

    /// Makes room for `samples` samples, so that a replay of that many never rehashes.
    package mutating func reserveCapacity(_ samples: Int) {
        index.reserveCapacity(samples)
    }

    // MARK: - Reading

    /// How many samples the store holds.
    package var count: Int { unreadIndex?.count ?? index.count }

    /// Whether the store's id index is in memory (it is, unless the store was
    /// restored from a mapped snapshot and nothing was applied or looked up since).
    package var hasIndex: Bool { unreadIndex == nil }

    /// Reads the restored snapshot's id index from its mapping, when it was
    /// not yet: what applying or looking up a sample needs first.
    /// - Returns: `false` when the index's section fails its check (the store
    ///   is then unchanged and must not be applied to).
    mutating func readIndex() -> Bool {
        guard let image = unreadIndex else { return true }
        guard let loaded = image.load() else { return false }
        index = loaded
        unreadIndex = nil
        return true
    }

    /// The current version of sample `id`, or `nil` when absent or deleted.
    /// A store restored from a mapped snapshot reads its index first (``readIndex()``).
    package func sample(id: String) -> StoredSample? {
        let key = SampleKey(id)
        guard let found = index.find(hash: key.hash64, matches: { versions.hasKey($0, key) }) else { return nil }
        return versions.storedSample(found.version)
    }

    /// Every day that has at least one sample, ascending.
    /// - Complexity: O(d log d) for d days.
    package var days: [DayKey] { buckets.occupied.map { DayKey(ordinal: $0.day) } }

    /// The samples whose ``Sample/day`` is `day`, in `seq` order.
    /// - Complexity: O(k) for the k samples of the day.
    package func samples(on day: DayKey) -> [StoredSample] {
        guard let bucket = buckets.existing(day.ordinal) else { return [] }
        return bucket.current.map { versions.storedSample($0) }
    }

    /// The daily values of `day`, or `nil` when it has no sample.
    package func dailyValues(on day: DayKey) -> DailyValues? {
        guard buckets.existing(day.ordinal)?.isEmpty == false else { return nil }
        return DailyValues(date: day, samples: samples(on: day))
    }

    /// How many current samples each source has — what counting
    /// ``samples(on:)`` of every day by `sample.source` gives, without
    /// building the samples: packed rows are counted by their block's source
    /// number, and the numbers are named once at the end. Only looked up by
    /// name, never iterated in hash order by the caller's output.
    /// - Complexity: O(n) for n samples.
    package func sampleCountsBySource() -> [String: Int] {
        let (blocks, firstVersions) = versions.allBlocks
        var perSource = blocks.map { [Int](repeating: 0, count: $0.sources.count) }
        var counts: [String: Int] = [:]
        for bucket in buckets.occupied {
            for version in bucket.current {
                let index = SampleVersions.blockIndex(of: version, in: firstVersions)
                let block = blocks[index]
                let packed = block.rows[Int(version - firstVersions[index])]
                if packed.isFull {
                    counts[block.fullSamples[packed.fullIndex].source, default: 0] += 1
                } else {
                    perSource[index][Int(packed.source)] += 1
                }
            }
        }
        for (block, blockCounts) in zip(blocks, perSource) {
            for (source, count) in zip(block.sources, blockCounts) where count > 0 { counts[source, default: 0] += count }
        }
        return counts
    }

    // MARK: - Snapshots

    /// Every current sample version, in `seq` order, in one
    /// block: what a snapshot keeps. Folding it into an empty store gives a
    /// store equal to this one.
    ///
    /// - Complexity: O(n log n) for n current samples.
    package func liveBlock() -> SampleBlock {
        // An index not read yet: nothing was applied since the restore, every restored row is live.
        let live = unreadIndex.map { image in (0..<image.count).map { UInt32($0 + 1) } } ?? index.versions.sorted()
        var rows: [PackedSample] = []
        rows.reserveCapacity(live.count)
        var fullSamples: [Sample] = []
        var sources: [String] = []
        var sourceIndexes: [String: UInt16] = [:]
        for version in live {
            var row = versions.row(version)
            if !row.isFull {
                let name = versions.sourceName(version)
                if let index = sourceIndexes[name] {
                    row.source = index
                } else if sources.count <= Int(UInt16.max) {
                    row.source = UInt16(sources.count)
                    sourceIndexes[name] = row.source
                    sources.append(name)
                } else {
                    // More sources than a row can number: keep this sample whole.
                    row.flags |= PackedSample.full
                    row.value = Double(bitPattern: UInt64(fullSamples.count))
                    fullSamples.append(versions.sample(version))
                }
            } else {
                let sample = versions.fullSample(version)
                row.value = Double(bitPattern: UInt64(fullSamples.count))
                fullSamples.append(sample)
            }
            rows.append(row)
        }
        return SampleBlock(rows: rows, fullSamples: fullSamples, sources: sources)
    }

    /// The samples a snapshot keeps and the id index to write beside them,
    /// without copying the first block's rows (a restored snapshot's, read in
    /// place from its mapping): its current rows are written as they are, in
    /// runs between the versions replaced or deleted since; the current rows
    /// of every later block are copied, their sources and whole samples
    /// numbered after the first block's. When a whole sample of the first
    /// block was replaced or deleted, its table keeps only the current ones:
    /// the first block's whole rows are then copied too, renumbered, each
    /// between two runs. The index is the store's own, its versions
    /// renumbered to their rows in the snapshot as it is written when some
    /// were replaced or deleted (the same slots: no id is hashed again, and
    /// no copy of the table is made). `nil` when the index is not read yet
    /// or the sources outgrow a row's numbering: ``liveBlock()`` then
    /// compacts the current versions.
    ///
    /// What it holds besides the rows and the index that are written as they
    /// are: the rows it copies and a bit per version.
    /// - Complexity: O(v + c) for v versions and c index slots.
    func compactSnapshotSamples() -> (samples: SnapshotSamples, index: SnapshotIndex)? {
        guard unreadIndex == nil else { return nil }
        let (blocks, firstVersions) = versions.allBlocks
        guard let first = blocks.first else { return nil }
        let live = LiveVersions(index, versionCount: Int(versions.nextVersion) - 1)
        let firstRows = 0..<first.count
        let renumbersWholeSamples = !live.allCurrent
            && firstRows.contains { !live.contains(UInt32($0 + 1)) && first.rows[$0].isFull }
        var runs = RowRuns(first.rows)
        var fullSamples = renumbersWholeSamples ? [] : first.fullSamples
        for row in firstRows {
            if !live.contains(UInt32(row + 1)) { continue }
            guard renumbersWholeSamples, first.rows[row].isFull else {
                runs.add(row, of: 0)
                continue
            }
            var copy = first.rows[row]
            fullSamples.append(first.fullSamples[copy.fullIndex])
            copy.value = Double(bitPattern: UInt64(fullSamples.count - 1))
            runs.addCopy(copy)
        }
        var sources = first.sources
        // Only looked up: the numbering follows the rows' order.
        var sourceIndexes: [String: UInt16] = [:]
        for (number, name) in sources.enumerated() where sourceIndexes[name] == nil { sourceIndexes[name] = UInt16(number) }
        for (block, firstVersion) in zip(blocks, firstVersions).dropFirst() {
            for (position, var row) in block.rows.enumerated() where live.contains(firstVersion + UInt32(position)) {
                if row.isFull {
                    fullSamples.append(block.fullSamples[row.fullIndex])
                    row.value = Double(bitPattern: UInt64(fullSamples.count - 1))
                } else {
                    let name = block.sources[Int(row.source)]
                    if let number = sourceIndexes[name] {
                        row.source = number
                    } else {
                        guard sources.count <= Int(UInt16.max) else { return nil }
                        row.source = UInt16(sources.count)
                        sourceIndexes[name] = row.source
                        sources.append(name)
                    }
                }
                runs.addCopy(row)
            }
        }
        let snapshotIndex = live.allCurrent ? SnapshotIndex.built(index) : .renumbered(index, live)
        return (.parts(runs, fullSamples: fullSamples, sources: sources), snapshotIndex)
    }

    /// The store that folding `block` (a snapshot's live samples: each id
    /// once, in `seq` order) into an empty one gives, built without folding:
    /// the block is referenced as versions `1…n`, `index` (made by
    /// `SampleIndex(indexing:)` over the same block, and shared by the
    /// stores restored together until one of them writes) is taken as it is,
    /// and the days are filled in one pass.
    ///
    /// - Complexity: O(n) for n samples.
    init(restoring block: SampleBlock, index: SnapshotIndex) {
        versions = SampleVersions(restoring: block)
        switch index {
        case .built, .renumbered: self.index = index.loaded() ?? SampleIndex()
        case .mapped(let image): unreadIndex = image
        }
        block.rows.forEachRow { row, packed in
            let day = packed.isFull ? block.fullSamples[packed.fullIndex].day.ordinal : packed.packedDayOrdinal
            buckets.add(UInt32(row + 1), day: day)
            return true
        }
        // The restored days are what the snapshot's daily stage was computed from: not a change.
        _ = buckets.takeEarliestChange()
    }

    // MARK: - Changes

    /// The earliest day whose samples changed since the last call (or since
    /// the store was made), and starts over; `nil` when none did.
    package mutating func takeEarliestChangedDay() -> DayKey? {
        buckets.takeEarliestChange().map(DayKey.init(ordinal:))
    }
}
