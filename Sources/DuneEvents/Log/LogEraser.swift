/// Erases samples from the log: the one implementation behind
/// `dune-replay forget` and `DuneStore.forget` (docs/log-format.md,
/// "Forgetting samples").
///
/// Every event of a selected sample keeps `seq`, `id`, `type` and
/// `recordedAt`; its `data` becomes `{"id":"<sample id>","redacted":true}`
/// with a fresh CRC. Every other line is copied byte for byte, and one
/// `data.forgotten` event is appended. The new log is written beside the old
/// one and renamed over it:
///
/// 1. `<log>.forget-new` is created (mode 0600, locked), written, synced, and
///    the directory synced;
/// 2. the journal `<log>.forget-journal` is written durably;
/// 3. the new file is renamed over the log and the directory synced;
/// 4. torn side files, the checkpoint, the snapshot and temporary files beside
///    the log are deleted; then the journal.
///
/// A crash before step 3 leaves the old log: ``recover(path:fileSystem:)`` (run by every
/// writer after taking the lock) deletes `<log>.forget-new` and the journal. A
/// crash after it leaves the new log and the journal: ``recover(path:fileSystem:)``
/// finishes step 4. The log is never a mix of old and new lines.
package enum LogEraser {
    /// `<log>.forget-new`: the rewritten log before it replaces the old one.
    package static func newLogPath(forLog path: String) -> String { path + ".forget-new" }

    /// `<log>.forget-journal`: present from just before the rename until the cleanup is done.
    package static func journalPath(forLog path: String) -> String { path + ".forget-journal" }

    // MARK: - Recovery

    /// Finishes or discards a `forget` a crash interrupted. Call holding the writer lock.
    ///
    /// - Returns: One warning line per action taken; empty when there was nothing to do.
    /// - Throws: `DuneEventsError` `.io` when a file cannot be removed or the directory synced.
    package static func recover(path: String, fileSystem: FileSystemWitness = .system) throws(DuneEventsError) -> [String] {
        let newLog = newLogPath(forLog: path)
        let journal = journalPath(forLog: path)
        let directory = FileSystem.parentDirectory(of: path)
        // A forget killed while writing its journal or new log atomically left their temporaries.
        LogCacheFile.removeTemporaries(of: journal)
        LogCacheFile.removeTemporaries(of: newLog)
        if exists(newLog) {
            // The rename never happened: the log is the old one, untouched.
            try remove(newLog, fileSystem)
            try remove(journal, fileSystem)
            try syncDirectory(directory, fileSystem)
            return ["warning: \(path): discarded the unfinished new log of an interrupted forget; the log is unchanged and nothing was forgotten: forget again"]
        }
        guard exists(journal) else { return [] }
        let deleted = try cleanUp(path: path, fileSystem: fileSystem)
        // The deletions durable before the journal goes: else a crash could undo them but not its removal.
        try syncDirectory(directory, fileSystem)
        try remove(journal, fileSystem)
        try syncDirectory(directory, fileSystem)
        return ["warning: \(path): finished the cleanup of an interrupted forget (deleted \(deleted.count) files beside the log)"]
    }

    /// A warning for a reader that finds the files of an interrupted `forget`
    /// beside the log (it must not touch them); `nil` when there are none.
    package static func interruptedJobWarning(path: String) -> String? {
        if exists(newLogPath(forLog: path)) {
            return "warning: \(path): an interrupted forget left '\(newLogPath(forLog: path))'; the log is the old one and nothing was forgotten. The next write to the log deletes that file; forget again"
        }
        if exists(journalPath(forLog: path)) {
            return "warning: \(path): an interrupted forget replaced the log but did not finish deleting the files beside it; the next write to the log finishes"
        }
        return nil
    }

    // MARK: - The rewrite

    /// The named moments of a rewrite, in order, reported to the `step`
    /// observer of ``rewrite(file:selection:dryRun:protection:step:availableBytes:)``: for
    /// timing (`DUNE_FORGET_TIMING`) and for the kill tests, which pause
    /// `dune-replay forget` at one of them (`DUNE_FORGET_PAUSE_AT`, read only
    /// by the command line) to kill it there.
    package enum Step: String, Sendable, CaseIterable {
        /// The selected samples are known; nothing was written yet.
        case selected
        /// `<log>.forget-new` is written, not yet synced.
        case written
        /// `<log>.forget-new` and the directory are synced.
        case synced
        /// The journal is written durably; the rename comes next.
        case journaled
        /// The new log replaced the old one and the directory is synced; the cleanup comes next.
        case renamed
        /// The files beside the log are deleted; the journal is removed next.
        case cleanedUp
    }

    /// The result of ``rewrite(file:selection:dryRun:protection:step:availableBytes:)``.
    package struct Outcome: Sendable {
        package var report: ForgetReport
        /// The writer of the new log, holding its lock; `nil` when nothing was rewritten.
        package var newFile: LogFile?
        /// The new log's size in bytes (0 when nothing was rewritten).
        var newLogBytes = 0
        /// The `data.forgotten` event that ends the new log; `nil` when nothing was rewritten.
        var forgottenEvent: RecordedEvent?
        /// What the rewrite redacted, for deriving the deciders' state of the new log (``IngestState/erase(_:)``).
        var erasure = SampleErasure()
    }

    /// Selects, redacts and replaces the log `file` (the writer, holding the
    /// lock, its torn tail already moved aside).
    ///
    /// The selection reads the log with the parallel fast reader
    /// (``LogReader/forEachEventBatch(_:parallelism:_:)``, which checks every
    /// line's CRC and the gapless `seq`) and keeps one 64-bit sample-id hash per
    /// line; the copy then streams the old file into the new one in large
    /// chunks, decoding (with the reference decoder) only the lines whose hash
    /// is a selected sample's, and redacting those whose id really is.
    ///
    /// - Parameters:
    ///   - file: The log's writer.
    ///   - selection: Which samples to forget; must not be empty.
    ///   - dryRun: Only report what would be redacted; no byte changes.
    ///   - protection: The Data Protection class of the new log.
    ///   - step: Called at each ``Step`` reached (never for a dry run or when nothing matched).
    ///   - availableBytes: For tests only: the free bytes the free-space check sees instead
    ///     of the file system's figure (a full disk cannot be arranged in a test); `nil`,
    ///     the default, asks the file system. The command line passes
    ///     `DUNE_FORGET_AVAILABLE_BYTES` here.
    /// - Throws: `DuneEventsError` — `.corruptLog` when a line is damaged,
    ///   `.io` when there is not enough free space or a write, sync or rename
    ///   fails, with the log unchanged; `.io` also when the directory sync or
    ///   the cleanup after the rename fails: the new log is then in place and
    ///   the journal left for the next writer to finish.
    /// - Complexity: O(n) in the log's bytes; memory 8 bytes per line plus a few chunks.
    package static func rewrite(file: LogFile, selection: ForgetSelection, dryRun: Bool,
                                protection: FileProtection,
                                step: (@Sendable (Step) -> Void)? = nil,
                                availableBytes: Int64? = nil) throws(DuneEventsError) -> Outcome {
        let path = file.path
        let fileSystem = file.fileSystem
        let scanned = try select(file, dryRun: dryRun, selection: selection)
        let selected = scanned.selected
        let sampleIDs = selected.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        var report = ForgetReport(dryRun: dryRun, selectors: selection.selectorKinds, sampleIDs: sampleIDs, redactedEvents: 0)
        if selected.isEmpty { return Outcome(report: report, newFile: nil) }
        if dryRun {
            report.redactedEvents = try copy(file, scanned, into: nil, path: path).redacted.count
            return Outcome(report: report, newFile: nil)
        }
        step?(.selected)

        let directory = FileSystem.parentDirectory(of: path)
        // Redacted lines are shorter than the lines they replace: the old size and the new record bound the new log.
        let needed = Int64(scanned.validBytes) + 4096
        if let available = availableBytes ?? FileSystem.availableBytes(onFileSystemOf: directory), available < needed {
            throw DuneEventsError(.io, "not enough free space to forget: the new log needs up to \(needed) bytes and the file system holding '\(directory)' has \(available) bytes free; nothing was changed. Free some space and forget again",
                                  location: .init(path: path))
        }
        let newPath = newLogPath(forLog: path)
        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = try FileSystem.createFile(newPath, access: .readWriteAppend, ifExists: .truncate, protection: protection,
                                                   fileSystem: fileSystem)
        } catch {
            throw DuneEventsError(error, during: .open, path: newPath)
        }
        let newFile = LogFile(path: path, descriptor: descriptor, isWriter: true, protection: protection, write: FileDescriptor.systemWrite,
                              fileSystem: fileSystem)
        let lastSeq = scanned.hashes.count
        let erasure: SampleErasure
        let forgotten: RecordedEvent
        let newLogBytes: Int
        do throws(DuneEventsError) {
            do throws(Errno) {
                try descriptor.setPermissions(0o600)
                // Nobody else knows this file yet; locking it now means the path is locked the moment it names it.
                try descriptor.lockExclusive(blocking: false)
            } catch {
                throw DuneEventsError(error, during: .write, path: newPath)
            }
            let output = NewLogWriter(descriptor: descriptor, path: newPath)
            erasure = try copy(file, scanned, into: output, path: path)
            report.redactedEvents = erasure.redacted.count
            let recordedAt = EventIdentity.now()
            var ids = EventIDGenerator(at: recordedAt)
            let record = ForgetRecord(selectors: selection.selectorKinds, samples: selected.count, events: report.redactedEvents)
            forgotten = RecordedEvent(seq: lastSeq + 1, id: ids.next(), recordedAt: recordedAt, event: Event(.dataForgotten(record)))
            try output.write(EventCodec.encodeLine(forgotten))
            try output.finish()
            newLogBytes = output.written
            step?(.written)
            do throws(Errno) {
                try descriptor.durableSync()
                try FileSystem.syncDirectory(directory, fileSystem: fileSystem)
            } catch {
                throw DuneEventsError(error, during: .write, path: newPath)
            }
        } catch {
            try? newFile.close()
            try? remove(newPath, fileSystem)
            var failure = error
            if failure.code == .io { failure.message += ". forget changed nothing: the log is as it was and the new file was removed" }
            throw failure
        }
        report.forgottenSeq = lastSeq + 1
        step?(.synced)
        do throws(DuneEventsError) {
            try writeJournal(path: path, protection: protection, fileSystem: fileSystem)
        } catch {
            // The journal may exist when only its directory sync failed: left
            // alone, the next writer would "finish" a forget that never happened.
            try? newFile.close()
            try? remove(newLogPath(forLog: path), fileSystem)
            try? remove(journalPath(forLog: path), fileSystem)
            throw error
        }
        step?(.journaled)
        do throws(Errno) {
            try FileSystem.rename(newLogPath(forLog: path), to: path, fileSystem: fileSystem)
        } catch {
            try? newFile.close()
            try? remove(newLogPath(forLog: path), fileSystem)
            try? remove(journalPath(forLog: path), fileSystem)
            throw DuneEventsError(error, during: .rename, path: path)
        }
        // From here on the new log is the log: a failure leaves the journal, and the next writer finishes.
        try syncDirectory(directory, fileSystem)
        step?(.renamed)
        report.deletedFiles = try cleanUp(path: path, fileSystem: fileSystem)
        // The deletions durable before the journal goes: else a crash could undo them but
        // not the journal's removal, and a torn side file with forgotten content would return.
        try syncDirectory(directory, fileSystem)
        step?(.cleanedUp)
        try remove(journalPath(forLog: path), fileSystem)
        try syncDirectory(directory, fileSystem)
        // The new log is fully synced: record that before anything is appended to it.
        try newFile.resetSyncedRecord(size: newLogBytes)
        return Outcome(report: report, newFile: newFile, newLogBytes: newLogBytes, forgottenEvent: forgotten, erasure: erasure)
    }

    // MARK: - Selecting

    /// What the selection pass keeps: per line, its sample id's hash (``tag(_:)``; 0 for a
    /// line of no sample), the selected sample ids and their hashes, the lines an earlier
    /// `forget` redacted, and where the checked lines end.
    struct Selection {
        var hashes: [UInt64] = []
        var earlier: [SampleErasure.Redaction] = []
        var selected: Set<String> = []
        var selectedHashes: Set<UInt64> = []
        var validBytes = 0
    }

    /// A sample id's hash as stored per line: never 0, which marks a line of no sample.
    @inline(__always)
    static func tag(_ key: SampleKey) -> UInt64 {
        let hash = key.hash64
        return hash == 0 ? 1 : hash
    }

    /// Reads the whole log with the fast reader (every line checked: CRC, decoding,
    /// gapless seq) and selects the samples. A dry run treats a bad last line as a
    /// torn tail (a writer would move it aside).
    static func select(_ file: LogFile, dryRun: Bool, selection: ForgetSelection) throws(DuneEventsError) -> Selection {
        var result = Selection()
        result.hashes.reserveCapacity(LogReader(file: file).estimatedEventCount)
        // Sample id → seq of its last sample.ingested, for matched samples only.
        var lastIngested: [String: Int] = [:]
        var matchedHashes: Set<UInt64> = []
        // Sample id → seq of its last sample.deleted (only for `deleted`).
        var lastDeleted: [String: Int] = [:]
        let idHashes = Set(selection.sampleIDs.map { tag(SampleKey($0)) })
        let fromOrdinal = selection.from?.ordinal ?? Int.min
        let toOrdinal = selection.to?.ordinal ?? Int.max

        func take(_ batch: EventBatch) {
            let samples = batch.samples
            for position in 0..<batch.count {
                let row = batch.rows[position]
                if row >= 0 {
                    let sampleRow = Int(row)
                    let hash = tag(samples.key(at: sampleRow))
                    result.hashes.append(hash)
                    let seq = samples.rows[sampleRow].seq
                    // A cheap filter on the packed row first; a row it passes is checked in full.
                    let packed = samples.rows[sampleRow]
                    var candidate = true
                    if !idHashes.isEmpty, !idHashes.contains(hash) { candidate = false }
                    if candidate, !packed.isFull {
                        if !selection.kinds.isEmpty, !selection.kinds.contains(packed.kind) { candidate = false }
                        let day = packed.packedDayOrdinal
                        if day < fromOrdinal || day > toOrdinal { candidate = false }
                        if !selection.sources.isEmpty, !selection.sources.contains(samples.sources[Int(packed.source)]) { candidate = false }
                    }
                    if candidate {
                        let sample = samples.sample(at: sampleRow)
                        if selection.matches(sample) {
                            lastIngested[sample.id] = seq
                            matchedHashes.insert(hash)
                            continue
                        }
                    }
                    if matchedHashes.contains(hash) {
                        let id = samples.sample(at: sampleRow).id
                        if lastIngested[id] != nil { lastIngested[id] = seq }
                    }
                } else {
                    let event = batch.others[Int(~row)]
                    switch event.payload {
                    case .sampleDeleted(let deletion):
                        result.hashes.append(tag(SampleKey(deletion.sampleID)))
                        if selection.deleted { lastDeleted[deletion.sampleID] = event.seq }
                    case .redacted(let redacted):
                        result.hashes.append(0)
                        result.earlier.append(SampleErasure.Redaction(seq: event.seq, sampleKey: ContentDigest(string: redacted.sampleID)))
                    default:
                        result.hashes.append(0)
                    }
                }
            }
        }

        let reader = LogReader(file: file)
        do {
            let end = try reader.forEachEventBatch { batch in take(batch) }
            result.validBytes = end.validBytes
        } catch let error as DuneEventsError {
            guard error.code == .corruptLog, let offset = error.location.byteOffset,
                  dryRun, try isLastLine(file, at: offset) else {
                throw damage(error, path: file.path)
            }
            result.validBytes = offset
        } catch {
            throw DuneEventsError(.io, "reading '\(file.path)' failed: \(error)", location: .init(path: file.path))
        }
        for (id, ingested) in lastIngested where !selection.deleted || (lastDeleted[id] ?? 0) > ingested {
            result.selected.insert(id)
            result.selectedHashes.insert(tag(SampleKey(id)))
        }
        return result
    }

    /// Whether the line starting at `offset` is the last complete one.
    private static func isLastLine(_ file: LogFile, at offset: Int) throws(DuneEventsError) -> Bool {
        let size = try file.size
        var position = offset
        var newlines = 0
        while position < size {
            let chunk = try file.bytes(upTo: min(1 << 16, size - position), at: position)
            if chunk.isEmpty { break }
            newlines += chunk.reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            if newlines > 1 { return false }
            position += chunk.count
        }
        return newlines == 1
    }

    private static func damage(_ error: DuneEventsError, path: String) -> DuneEventsError {
        // A newer version is not damage: its message already says what to do.
        guard error.code != .newerVersion else { return error }
        var failure = error
        failure.message = failure.message.hasSuffix(".") ? String(failure.message.dropLast()) : failure.message
        failure.message += "; forget changes nothing in a damaged log: restore the log from a backup or cut it at the last good line"
        return failure
    }

    // MARK: - Copying

    /// Appends to the new log through one aligned 8 MiB buffer, in writes
    /// that bypass the page cache where the platform allows it
    /// (``FileDescriptor/setWritesBypassCache(_:)``): nothing reads the new
    /// log before it replaces the old one, and setting up cache pages for a
    /// file as large as the log costs about as much as writing it. Every
    /// write but the last is a whole buffer, so offsets and lengths stay
    /// aligned; ``finish()`` writes the unaligned end through the cache and
    /// leaves the descriptor in its usual mode for the appends that follow.
    final class NewLogWriter {
        let descriptor: FileDescriptor
        let path: String
        private let buffer: AlignedBytes
        private var count = 0
        private var bypassesCache: Bool
        /// Bytes handed to the file so far.
        private(set) var written = 0

        init(descriptor: FileDescriptor, path: String) {
            self.descriptor = descriptor
            self.path = path
            buffer = AlignedBytes(count: 8 << 20, alignment: FileDescriptor.uncachedWriteAlignment)
            // A file system without the mode (or another architecture) is written through the cache.
            bypassesCache = (try? descriptor.setWritesBypassCache(true)) != nil
        }

        func write(_ bytes: [UInt8]) throws(DuneEventsError) {
            try ByteView.with(bytes) { view in Result { () throws(DuneEventsError) in try write(view) } }.get()
        }

        func write(_ bytes: ByteView) throws(DuneEventsError) {
            var rest = bytes
            while !rest.isEmpty {
                let taken = min(rest.count, buffer.count - count)
                buffer.copy(rest.subview(0..<taken), to: count)
                count += taken
                rest = rest.subview(from: taken)
                if count == buffer.count { try writeOut(count) }
            }
        }

        /// Writes what is buffered: its aligned part as before, the rest through the cache.
        func finish() throws(DuneEventsError) {
            if bypassesCache {
                let aligned = count - count % FileDescriptor.uncachedWriteAlignment
                if aligned > 0 { try writeOut(aligned) }
                try useCache()
            }
            try writeOut(count)
        }

        /// Writes the first `length` buffered bytes and keeps the rest at the buffer's start.
        private func writeOut(_ length: Int) throws(DuneEventsError) {
            var done = 0
            while done < length {
                do throws(Errno) {
                    let wrote = try descriptor.write(buffer.bytes(done..<length))
                    guard wrote > 0 else { throw Errno.ioError }
                    done += wrote
                } catch {
                    // A device whose blocks are larger than the alignment, or a short
                    // write that left the offset unaligned: go on through the cache.
                    guard error == .invalidArgument, bypassesCache else { throw DuneEventsError(error, during: .write, path: path) }
                    try useCache()
                }
            }
            written += length
            if length < count {
                // Less than one alignment unit, from at least one unit on: the ranges never overlap.
                buffer.copy(buffer.bytes(length..<count), to: 0)
            }
            count -= length
        }

        private func useCache() throws(DuneEventsError) {
            do throws(Errno) {
                try descriptor.setWritesBypassCache(false)
            } catch {
                throw DuneEventsError(error, during: .write, path: path)
            }
            bypassesCache = false
        }
    }

    /// Streams the checked lines of `file` into `output` (when given), redacting the
    /// events of the selected samples; untouched lines are copied byte for byte.
    ///
    /// - Returns: The lines that were (or would be) redacted, and the `eventID`s they drop,
    ///   with the selection pass's earlier redactions.
    static func copy(_ file: LogFile, _ scanned: Selection, into output: NewLogWriter?, path: String) throws(DuneEventsError) -> SampleErasure {
        let chunkSize = 8 << 20
        var chunk = [UInt8](repeating: 0, count: chunkSize)
        var carry: [UInt8] = []    // the start of a line cut by the chunk's end
        var offset = 0
        var lineIndex = 0
        var erasure = SampleErasure(earlier: scanned.earlier)
        let newline = UInt8(ascii: "\n")

        /// The redacted form of one whole line (without its `\n`), or `nil` when it stays as it is.
        func redactedLine(_ line: ByteView, index: Int) throws(DuneEventsError) -> [UInt8]? {
            guard index < scanned.hashes.count else {
                throw damage(DuneEventsError(.corruptLog, "the log changed while forget held the lock", location: .init(path: path, line: index + 1)), path: path)
            }
            let hash = scanned.hashes[index]
            guard hash != 0, scanned.selectedHashes.contains(hash) else { return nil }
            let decoded = Result { () throws(EventCodec.DecodeError) in try EventCodec.decode(line) }
            guard case .success(let original) = decoded else {
                throw damage(DuneEventsError(.corruptLog, "the line no longer decodes", location: .init(path: path, line: index + 1)), path: path)
            }
            let sampleID: String
            switch original.payload {
            case .sampleIngested(let sample): sampleID = sample.id
            case .sampleDeleted(let deletion): sampleID = deletion.sampleID
            default: return nil
            }
            guard scanned.selected.contains(sampleID) else { return nil }
            erasure.redacted.append(SampleErasure.Redaction(seq: original.seq, sampleKey: ContentDigest(string: sampleID)))
            if let eventID = original.event.eventID {
                erasure.droppedEventIDs.append(SampleErasure.DroppedEventID(key: ContentDigest(string: eventID), seq: original.seq))
            }
            let event = Event(.redacted(RedactedEvent(sampleID: sampleID, type: original.type)))
            // The redacted line keeps the `v` it had (docs/log-format.md, "Versions").
            return EventCodec.encodeLine(RecordedEvent(seq: original.seq, id: original.id, recordedAt: original.recordedAt, event: event,
                                                       storedVersion: original.storedVersion))
        }

        while offset < scanned.validBytes {
            let want = min(chunkSize, scanned.validBytes - offset)
            let count = try MutableByteView.with(&chunk) { room in
                Result { () throws(DuneEventsError) in try file.read(into: room.subview(0..<want), at: offset) }
            }.get()
            if count == 0 { break }
            offset += count
            try ByteView.with(chunk[..<count]) { bytes in Result { () throws(DuneEventsError) in
                var start = 0        // the first byte of this chunk not yet written
                var lineStart = 0
                // The C library's vectorized search (LineScanning), not a byte loop: most of the copy is finding lines.
                while let position = LineScanning.firstNewline(in: bytes, from: lineStart, to: count) {
                    if !carry.isEmpty {
                        // A line that began in the previous chunk.
                        bytes.subview(0..<position).append(to: &carry)
                        let whole = carry
                        let replacement = try ByteView.with(whole) { line in
                            Result { () throws(DuneEventsError) in try redactedLine(line, index: lineIndex) }
                        }.get()
                        try output?.write(replacement ?? whole + [newline])
                        carry.removeAll()
                        start = position + 1
                    } else if scanned.hashes.count <= lineIndex || scanned.hashes[lineIndex] != 0,
                              let replacement = try redactedLine(bytes.subview(lineStart..<position), index: lineIndex) {
                        // The untouched lines before it go out as they are, then the redacted line.
                        try output?.write(bytes.subview(start..<lineStart))
                        try output?.write(replacement)
                        start = position + 1
                    }
                    lineIndex += 1
                    lineStart = position + 1
                }
                try output?.write(bytes.subview(start..<lineStart))
                if lineStart < count { bytes.subview(lineStart..<count).append(to: &carry) }
            } }.get()
        }
        return erasure
    }

    // MARK: - Files

    private static func writeJournal(path: String, protection: FileProtection, fileSystem: FileSystemWitness) throws(DuneEventsError) {
        let text = Array("forget: the new log is complete; a writer that finds this file finishes the cleanup beside the log\n".utf8)
        do throws(Errno) {
            try FileSystem.writeAtomically(text, to: journalPath(forLog: path), protection: protection, fileSystem: fileSystem)
        } catch {
            throw DuneEventsError(error, during: .write, path: journalPath(forLog: path))
        }
    }

    /// Deletes the files beside the log that may hold forgotten content:
    /// torn side files, the checkpoint, the snapshot and temporary files.
    ///
    /// - Returns: The deleted paths, sorted.
    static func cleanUp(path: String, fileSystem: FileSystemWitness = .system) throws(DuneEventsError) -> [String] {
        let directory = FileSystem.parentDirectory(of: path)
        let base = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)) + "."
        var deleted: [String] = []
        for name in FileSystem.entries(ofDirectory: directory) ?? [] where name.hasPrefix(base) {
            let rest = name.dropFirst(base.count)
            guard rest.hasPrefix("torn-") || rest == "checkpoint" || rest == "snapshot" || rest.contains(".tmp-") || rest.hasPrefix("tmp-")
            else { continue }
            let full = directory == "." && !path.hasPrefix("./") ? name : directory + "/" + name
            try remove(full, fileSystem)
            deleted.append(full)
        }
        return deleted
    }

    private static func exists(_ path: String) -> Bool {
        ((try? FileSystem.status(ofPath: path)) ?? nil) != nil
    }

    private static func remove(_ path: String, _ fileSystem: FileSystemWitness) throws(DuneEventsError) {
        do throws(Errno) {
            try FileSystem.remove(path, fileSystem: fileSystem)
        } catch {
            throw DuneEventsError(error, during: .remove, path: path)
        }
    }

    private static func syncDirectory(_ directory: String, _ fileSystem: FileSystemWitness) throws(DuneEventsError) {
        do throws(Errno) {
            try FileSystem.syncDirectory(directory, fileSystem: fileSystem)
        } catch {
            throw DuneEventsError(error, during: .syncDirectory, path: directory)
        }
    }
}
