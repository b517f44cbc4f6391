extension IngestState: Equatable {
    /// States are equal when they remember the same things in the same order —
    /// as two states folded from the same events do.
    package static func == (lhs: IngestState, rhs: IngestState) -> Bool {
        lhs.lastSeq == rhs.lastSeq && lhs.refresh == rhs.refresh && lhs.tasks == rhs.tasks
            && lhs.eventIDs.keys == rhs.eventIDs.keys && lhs.eventIDs.values == rhs.eventIDs.values
            && lhs.samples.keys == rhs.samples.keys && lhs.samples.values == rhs.samples.values
            && lhs.laterSampleVersions == rhs.laterSampleVersions && lhs.currentSampleVersions == rhs.currentSampleVersions
            && lhs.storedLines.keys == rhs.storedLines.keys
            && lhs.taskPhases.keys == rhs.taskPhases.keys && lhs.taskPhases.values == rhs.taskPhases.values
            && lhs.forgottenSamples.keys == rhs.forgottenSamples.keys
    }
}

extension IngestState {
    /// Writes the state for a ``LogCheckpoint`` (columns of fixed-size numbers;
    /// timestamps and names as their text).
    func write(to writer: inout BinaryWriter) {
        // The whole size up front: growing a 40 MB array by doubling would hold up to twice it at once.
        let corrections = laterSampleVersions.reduce(0) { $0 + 24 + 16 * $1.count }
        writer.bytes.reserveCapacity(writer.bytes.count + 4096 + 64 * (refresh.lastObserverAt.count + tasks.inFlight.count)
                                     + 40 * (samples.count + eventIDs.count + taskPhases.count) + corrections
                                     + 16 * (storedLines.count + forgottenSamples.count))
        write(to: &writer, chunkBytes: .max) { _ in }
    }

    /// ``write(to:)`` in pieces: whenever `writer` holds at least `chunkBytes`
    /// bytes, `emit` takes them (and leaves the writer empty), so that a
    /// checkpoint is written without the whole payload in memory at once.
    /// The bytes, put back together, are those of ``write(to:)``.
    func write(to writer: inout BinaryWriter, chunkBytes: Int, emit: (inout BinaryWriter) -> Void) {
        func spill() {
            if writer.bytes.count >= chunkBytes { emit(&writer) }
        }
        // A column of digests, a slice at a time (`BinaryWriter.digests` copies what it is given once).
        func digests(_ digests: [ContentDigest]) {
            let slice = 32_768
            var start = 0
            while start < digests.count {
                let end = min(digests.count, start + slice)
                if start == 0, end == digests.count {
                    writer.digests(digests)
                } else {
                    writer.digests(Array(digests[start..<end]))
                }
                spill()
                start = end
            }
        }
        func table(_ table: DigestTable<StoredContent>) {
            writer.integer(table.count)
            digests(table.keys)
            for value in table.values {
                writer.digest(value.content)
                // A deferred content (zero) is told by its seq written negated.
                writer.integer(value.contentIsDeferred ? -value.seq : value.seq)
                spill()
            }
        }
        writer.integer(lastSeq)
        writer.integer(refresh.refreshSignal)
        writer.string(refresh.lastPerformedAt?.text ?? "")
        let observers = refresh.lastObserverAt.sorted { $0.key.rawValue < $1.key.rawValue }
        writer.integer(observers.count)
        for (kind, time) in observers {
            writer.string(kind.rawValue)
            writer.string(time.text)
        }
        let inFlight = tasks.inFlight.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        writer.integer(inFlight.count)
        for (feature, task) in inFlight {
            writer.string(feature)
            writer.string(task)
            spill()
        }
        table(eventIDs)
        writer.integer(samples.count)
        digests(samples.keys)
        // Straight into the writer: a column array beside it would be 24 bytes a sample more at once.
        for versions in samples.values {
            writer.uint64(versions.first.high)
            writer.uint64(versions.first.low)
            // `later` (UInt32) then the flags (UInt32: 1 live, 2 the first digest deferred,
            // `first` then holding its seq), as two little-endian words in one.
            let flags: UInt64 = (versions.live ? 1 : 0) | (versions.firstIsDeferred ? 2 : 0)
            writer.uint64(flags << 32 | UInt64(UInt32(bitPattern: versions.later)))
            spill()
        }
        writer.integer(laterSampleVersions.count)
        for (versions, current) in zip(laterSampleVersions, currentSampleVersions) {
            writer.integer(versions.count)
            for digest in versions { writer.digest(digest) }
            writer.digest(current)
            spill()
        }
        writer.integer(storedLines.count)
        digests(storedLines.keys)
        table(taskPhases)
        writer.integer(forgottenSamples.count)
        digests(forgottenSamples.keys)
    }

    /// Reads a state written by ``write(to:)``; `nil` when the bytes do not hold one.
    init?(from reader: inout BinaryReader) {
        self.init()
        guard let lastSeq = reader.integer(), let signal = reader.integer(), let performed = reader.string(),
              let observerCount = reader.count(itemBytes: 16)
        else { return nil }
        self.lastSeq = lastSeq
        refresh.refreshSignal = signal
        if !performed.isEmpty {
            guard let time = try? Timestamp(parsing: performed) else { return nil }
            refresh.lastPerformedAt = time
        }
        for _ in 0..<observerCount {
            guard let name = reader.string(), let kind = SampleKind(rawValue: name), let text = reader.string(),
                  let time = try? Timestamp(parsing: text)
            else { return nil }
            refresh.lastObserverAt[kind] = time
        }
        guard let inFlightCount = reader.count(itemBytes: 16) else { return nil }
        for _ in 0..<inFlightCount {
            guard let feature = reader.string(), let task = reader.string() else { return nil }
            tasks.inFlight[feature] = task
        }
        guard let eventIDs = Self.readTable(&reader, allowsDeferred: false) else { return nil }
        self.eventIDs = eventIDs
        guard let sampleCount = reader.count(itemBytes: 40), let sampleKeys = reader.digests(sampleCount) else { return nil }
        var versions: [SampleVersions] = []
        versions.reserveCapacity(sampleCount)
        for _ in 0..<sampleCount {
            guard let first = reader.digest(), let later = reader.uint32(), let flags = reader.uint32(), flags <= 3,
                  flags & 2 == 0 || (first.high == 0 && first.low >= 1 && first.low <= UInt64(lastSeq))
            else { return nil }
            versions.append(SampleVersions(first: first, live: flags & 1 != 0, later: Int32(bitPattern: later),
                                           firstIsDeferred: flags & 2 != 0))
        }
        guard let laterCount = reader.count(itemBytes: 8) else { return nil }
        laterSampleVersions.reserveCapacity(laterCount)
        currentSampleVersions.reserveCapacity(laterCount)
        for _ in 0..<laterCount {
            guard let count = reader.count(itemBytes: 16), let digests = reader.digests(count), let current = reader.digest() else { return nil }
            laterSampleVersions.append(digests)
            currentSampleVersions.append(current)
        }
        // A deferred first version is of a sample never stored again since (else it was resolved).
        guard versions.allSatisfy({ $0.later < Int32(laterCount) && !($0.firstIsDeferred && $0.later >= 0) }) else { return nil }
        samples = DigestTable(keys: sampleKeys, values: versions)
        indexManyCorrections()
        guard let lineCount = reader.count(itemBytes: 16), let lines = reader.digests(lineCount) else { return nil }
        storedLines = DigestTable(keys: lines, values: Array(repeating: true, count: lineCount))
        guard let taskPhases = Self.readTable(&reader, allowsDeferred: true) else { return nil }
        self.taskPhases = taskPhases
        guard let forgottenCount = reader.count(itemBytes: 16), let forgotten = reader.digests(forgottenCount) else { return nil }
        forgottenSamples = DigestTable(keys: forgotten, values: Array(repeating: true, count: forgottenCount))
    }

    /// - Parameter allowsDeferred: Whether an entry may hold a deferred content (task phases only).
    private static func readTable(_ reader: inout BinaryReader, allowsDeferred: Bool) -> DigestTable<StoredContent>? {
        guard let count = reader.count(itemBytes: 40), let keys = reader.digests(count) else { return nil }
        var values: [StoredContent] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard let content = reader.digest(), let seq = reader.integer(), seq != 0, seq != .min,
                  seq > 0 || (allowsDeferred && content == ContentDigest(high: 0, low: 0))
            else { return nil }
            values.append(StoredContent(content: content, seq: abs(seq), contentIsDeferred: seq < 0))
        }
        return DigestTable(keys: keys, values: values)
    }
}
