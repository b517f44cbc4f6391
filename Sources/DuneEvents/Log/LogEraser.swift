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
/// A crash before step 3 leaves the old log: ``recover(path:)`` (run by every
/// writer after taking the lock) deletes `<log>.forget-new` and the journal. A
/// crash after it leaves the new log and the journal: ``recover(path:)``
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
    package static func recover(path: String) throws(DuneEventsError) -> [String] {
        let newLog = newLogPath(forLog: path)
        let journal = journalPath(forLog: path)
        let directory = FileSystem.parentDirectory(of: path)
        if exists(newLog) {
            // The rename never happened: the log is the old one, untouched.
            try remove(newLog)
            try remove(journal)
            try syncDirectory(directory)
            return ["warning: \(path): discarded the unfinished new log of an interrupted forget; the log is unchanged, run forget again"]
        }
        guard exists(journal) else { return [] }
        let deleted = try cleanUp(path: path)
        try remove(journal)
        try syncDirectory(directory)
        return ["warning: \(path): finished the cleanup of an interrupted forget (deleted \(deleted.count) files beside the log)"]
    }

    /// A warning for a reader that finds the files of an interrupted `forget`
    /// beside the log (it must not touch them); `nil` when there are none.
    package static func interruptedJobWarning(path: String) -> String? {
        if exists(newLogPath(forLog: path)) {
            return "warning: \(path): an interrupted forget left '\(newLogPath(forLog: path))'; the log is the old one. The next writer (ingest, forget) deletes that file; run forget again"
        }
        if exists(journalPath(forLog: path)) {
            return "warning: \(path): an interrupted forget replaced the log but did not finish deleting the files beside it; the next writer (ingest, forget) finishes"
        }
        return nil
    }

    // MARK: - The rewrite

    /// The named moments of a rewrite, in order, reported to the `step`
    /// observer of ``rewrite(file:selection:dryRun:protection:step:)``: for
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

    /// The result of ``rewrite(file:selection:dryRun:protection:)``.
    package struct Outcome: Sendable {
        package var report: ForgetReport
        /// The writer of the new log, holding its lock; `nil` when nothing was rewritten.
        package var newFile: LogFile?
    }

    /// Selects, redacts and replaces the log `file` (the writer, holding the
    /// lock, its torn tail already moved aside).
    ///
    /// - Parameters:
    ///   - file: The log's writer.
    ///   - selection: Which samples to forget; must not be empty.
    ///   - dryRun: Only report what would be redacted; no byte changes.
    ///   - protection: The Data Protection class of the new log.
    ///   - step: Called at each ``Step`` reached (never for a dry run or when nothing matched).
    /// - Throws: `DuneEventsError` — `.corruptLog` when a line is damaged,
    ///   `.io` when there is not enough free space or a write, sync or rename
    ///   fails; in every case before the log was replaced.
    /// - Complexity: O(n) in the log's bytes, held in memory twice.
    package static func rewrite(file: LogFile, selection: ForgetSelection, dryRun: Bool,
                                protection: FileProtection,
                                step: (@Sendable (Step) -> Void)? = nil) throws(DuneEventsError) -> Outcome {
        let path = file.path
        let bytes = try readAll(file)
        let lines = try scan(bytes, path: path, dryRun: dryRun, selection: selection)
        let selected = lines.selected
        var report = ForgetReport(dryRun: dryRun, selectors: selection.selectorKinds,
                                  sampleIDs: selected.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) },
                                  redactedEvents: lines.events.reduce(0) { count, line in
                                      count + (line.sampleID.map(selected.contains) == true ? 1 : 0)
                                  })
        guard !dryRun, !selected.isEmpty else { return Outcome(report: report, newFile: nil) }
        step?(.selected)

        let lastSeq = lines.events.count
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 512)
        for (index, line) in lines.events.enumerated() {
            if let sampleID = line.sampleID, selected.contains(sampleID) {
                // Decoded again here (it was when scanned) so the scan keeps no event in memory.
                let decoded = bytes.withUnsafeBytes { buffer in
                    Result { () throws(EventCodec.DecodeError) in try EventCodec.decode(UnsafeRawBufferPointer(rebasing: buffer[line.range])) }
                }
                guard case .success(let original) = decoded else {
                    throw damage("the line no longer decodes", path: path, line: index + 1, offset: line.range.lowerBound)
                }
                let redacted = Event(.redacted(RedactedEvent(sampleID: sampleID, type: original.type)))
                output.append(contentsOf: EventCodec.encodeLine(RecordedEvent(seq: original.seq, id: original.id,
                                                                              recordedAt: original.recordedAt, event: redacted)))
            } else {
                output.append(contentsOf: bytes[line.range])
                output.append(UInt8(ascii: "\n"))
            }
        }
        let recordedAt = EventIdentity.now()
        var ids = EventIDGenerator(at: recordedAt)
        let record = ForgetRecord(selectors: selection.selectorKinds, samples: selected.count, events: report.redactedEvents)
        output.append(contentsOf: EventCodec.encodeLine(RecordedEvent(seq: lastSeq + 1, id: ids.next(), recordedAt: recordedAt,
                                                                      event: Event(.dataForgotten(record)))))
        report.forgottenSeq = lastSeq + 1

        let directory = FileSystem.parentDirectory(of: path)
        if let available = FileSystem.availableBytes(onFileSystemOf: directory), available < Int64(output.count) {
            throw DuneEventsError(.io, "not enough free space to forget: the new log needs \(output.count) bytes and the file system holding '\(directory)' has \(available); free some space and run forget again",
                                  location: .init(path: path))
        }
        let newFile = try writeNewLog(output, path: path, protection: protection, step: step)
        step?(.synced)
        do throws(DuneEventsError) {
            try writeJournal(path: path, protection: protection)
        } catch {
            try? newFile.close()
            try? remove(newLogPath(forLog: path))
            throw error
        }
        step?(.journaled)
        do throws(Errno) {
            try FileSystem.rename(newLogPath(forLog: path), to: path)
        } catch {
            try? newFile.close()
            try? remove(newLogPath(forLog: path))
            try? remove(journalPath(forLog: path))
            throw DuneEventsError(error, during: .rename, path: path)
        }
        // From here on the new log is the log: a failure leaves the journal, and the next writer finishes.
        try syncDirectory(directory)
        step?(.renamed)
        report.deletedFiles = try cleanUp(path: path)
        step?(.cleanedUp)
        try remove(journalPath(forLog: path))
        try syncDirectory(directory)
        return Outcome(report: report, newFile: newFile)
    }

    // MARK: - Reading and selecting

    /// One stored line: its bytes (without `\n`) and the sample it belongs to.
    struct ScannedLine {
        var range: Range<Int>
        /// The sample id of a sample event not yet redacted.
        var sampleID: String?
    }

    /// The checked lines of a log (line *i* holds seq *i* + 1) and the samples a selection selects.
    struct ScannedLog {
        var events: [ScannedLine] = []
        var selected: Set<String> = []
    }

    private static func readAll(_ file: LogFile) throws(DuneEventsError) -> [UInt8] {
        let size = try file.size
        var bytes = [UInt8](repeating: 0, count: size)
        var offset = 0
        while offset < size {
            let read = bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(DuneEventsError) in
                    try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]), at: offset)
                }
            }
            let count = try read.get()
            if count == 0 { break }
            offset += count
        }
        return Array(bytes[..<offset])
    }

    /// Every line up to the last `\n`, checked (CRC, decoding, gapless seq).
    /// A dry run treats a bad last line as a torn tail (a writer would move it aside).
    static func scan(_ bytes: [UInt8], path: String, dryRun: Bool, selection: ForgetSelection) throws(DuneEventsError) -> ScannedLog {
        var log = ScannedLog()
        var matched: Set<String> = []
        var lastIsDeletion: [String: Bool] = [:]
        func finished() -> ScannedLog {
            var result = log
            result.selected = selection.deleted ? matched.filter { lastIsDeletion[$0] == true } : matched
            return result
        }
        var start = 0
        var lineNumber = 0
        let end = (bytes.lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
        while start < end {
            let newline = bytes[start..<end].firstIndex(of: UInt8(ascii: "\n")) ?? end
            lineNumber += 1
            let range = start..<newline
            let decoded: Result<RecordedEvent, EventCodec.DecodeError> = bytes.withUnsafeBytes { buffer in
                let line = UnsafeRawBufferPointer(rebasing: buffer[range])
                guard StoredLine.isIntact(line) else { return .failure(.init(reason: "the line's CRC does not match its bytes")) }
                return Result { () throws(EventCodec.DecodeError) in try EventCodec.decode(line) }
            }
            switch decoded {
            case .success(let event):
                let expected = log.events.count + 1
                guard event.seq == expected else {
                    throw damage("seq \(event.seq) where \(expected) was expected", path: path, line: lineNumber, offset: start)
                }
                var sampleID: String?
                switch event.payload {
                case .sampleIngested(let sample):
                    sampleID = sample.id
                    if selection.matches(sample) { matched.insert(sample.id) }
                    lastIsDeletion[sample.id] = false
                case .sampleDeleted(let deletion):
                    sampleID = deletion.sampleID
                    lastIsDeletion[deletion.sampleID] = true
                default:
                    sampleID = nil
                }
                log.events.append(ScannedLine(range: range, sampleID: sampleID))
            case .failure(let error):
                if dryRun, newline + 1 == end { return finished() }
                throw damage(error.reason, path: path, line: lineNumber, offset: start)
            }
            start = newline + 1
        }
        return finished()
    }

    private static func damage(_ reason: String, path: String, line: Int, offset: Int) -> DuneEventsError {
        DuneEventsError(.corruptLog, "\(reason); forget changes nothing in a damaged log. Run 'dune-replay verify' to see every problem, and restore the log from a backup or cut it at the last good line",
                        location: .init(path: path, line: line, byteOffset: offset))
    }

    // MARK: - Files

    private static func writeNewLog(_ bytes: [UInt8], path: String, protection: FileProtection,
                                    step: (@Sendable (Step) -> Void)?) throws(DuneEventsError) -> LogFile {
        let newPath = newLogPath(forLog: path)
        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = try FileSystem.createFile(newPath, access: .readWriteAppend, ifExists: .truncate, protection: protection)
        } catch {
            throw DuneEventsError(error, during: .open, path: newPath)
        }
        let file = LogFile(path: path, descriptor: descriptor, isWriter: true, protection: protection, write: FileDescriptor.systemWrite)
        do throws(Errno) {
            try descriptor.setPermissions(0o600)
            // Nobody else knows this file yet; locking it now means the path is locked the moment it names it.
            try descriptor.lockExclusive(blocking: false)
            try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try descriptor.writeAll(buffer) } }.get()
            step?(.written)
            try descriptor.durableSync()
            try FileSystem.syncDirectory(FileSystem.parentDirectory(of: path))
        } catch {
            try? file.close()
            try? remove(newPath)
            var failure = DuneEventsError(error, during: .write, path: newPath)
            failure.message += ". forget changed nothing: the log is as it was and the new file was removed"
            throw failure
        }
        return file
    }

    private static func writeJournal(path: String, protection: FileProtection) throws(DuneEventsError) {
        let text = Array("forget: the new log is complete; a writer that finds this file finishes the cleanup beside the log\n".utf8)
        do throws(Errno) {
            try text.withUnsafeBytes { buffer in
                Result { () throws(Errno) in try FileSystem.writeAtomically(buffer, to: journalPath(forLog: path), protection: protection) }
            }.get()
        } catch {
            throw DuneEventsError(error, during: .write, path: journalPath(forLog: path))
        }
    }

    /// Deletes the files beside the log that may hold forgotten content:
    /// torn side files, the checkpoint, the snapshot and temporary files.
    ///
    /// - Returns: The deleted paths, sorted.
    static func cleanUp(path: String) throws(DuneEventsError) -> [String] {
        let directory = FileSystem.parentDirectory(of: path)
        let base = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)) + "."
        var deleted: [String] = []
        for name in FileSystem.entries(ofDirectory: directory) ?? [] where name.hasPrefix(base) {
            let rest = name.dropFirst(base.count)
            guard rest.hasPrefix("torn-") || rest == "checkpoint" || rest == "snapshot" || rest.contains(".tmp-") || rest.hasPrefix("tmp-")
            else { continue }
            let full = directory == "." && !path.hasPrefix("./") ? name : directory + "/" + name
            try remove(full)
            deleted.append(full)
        }
        return deleted
    }

    private static func exists(_ path: String) -> Bool {
        ((try? FileSystem.status(ofPath: path)) ?? nil) != nil
    }

    private static func remove(_ path: String) throws(DuneEventsError) {
        do throws(Errno) {
            try FileSystem.remove(path)
        } catch {
            throw DuneEventsError(error, during: .remove, path: path)
        }
    }

    private static func syncDirectory(_ directory: String) throws(DuneEventsError) {
        do throws(Errno) {
            try FileSystem.syncDirectory(directory)
        } catch {
            throw DuneEventsError(error, during: .syncDirectory, path: directory)
        }
    }
}
