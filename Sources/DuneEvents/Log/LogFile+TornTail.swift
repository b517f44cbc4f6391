// MARK: - Reports

extension LogFile {
    /// What `quarantineTornTail` moved aside.
    package struct TornTailReport: Sendable, Equatable, CustomStringConvertible {
        /// The side file now holding the torn bytes, `<log>.torn-<UTC timestamp>[-N]`.
        package var sidePath: String
        /// Where the torn bytes started in the log: the log's size now.
        package var byteOffset: Int
        /// How many bytes were moved (the log shrank by this much).
        package var byteCount: Int

        /// A one-line warning for stderr.
        package var description: String {
            "torn last line: moved \(byteCount) bytes from byte \(byteOffset) to '\(sidePath)' and truncated the log to the last good line"
        }
    }

    /// What `quarantineTornTail` found at the end of the log.
    package enum TailRecovery: Sendable, Equatable {
        /// The log is empty or ends with a complete line that passes the check;
        /// nothing was touched.
        case intact
        /// The last line was torn; it was moved to a side file and the log
        /// truncated to the end of the line before it.
        case quarantined(TornTailReport)
        /// A line inside the synced part, starting at `byteOffset`, is bad.
        /// That is damage to an acknowledged line, not a torn write: nothing
        /// was touched. Refuse appends and let a full verify name the line.
        case damaged(byteOffset: Int)
    }
}

// MARK: - Torn tail recovery

extension LogFile {
    /// Moves a torn last line to a side file and truncates the log to the last
    /// good line (docs/log-format.md).
    ///
    /// Only the end of the file is read: what lies past the last length known
    /// to be durably synced (`<log>.synced`, see ``SyncedLengthRecord``).
    /// Those bytes were never acknowledged, and a crash may have left them in
    /// any state: the first line there that is unterminated or fails
    /// `validLine` starts the torn bytes, and everything from it on is torn,
    /// whole lines after it included (the file system kept later writes and
    /// lost earlier ones). Without a record in force, every complete line
    /// counts as synced, and only bytes after the last `\n` are torn. Then:
    ///
    /// 1. the torn bytes are copied to `<log>.torn-<UTC yyyyMMdd'T'HHmmss'Z'>`
    ///    (mode 0600; `-2`, `-3`, … appended if that name exists) and the side
    ///    file and its directory are `fsync`ed;
    /// 2. the log is truncated to where the torn bytes began and `fsync`ed.
    ///
    /// A crash between the steps leaves a side file and an untouched log; the
    /// next call moves the tail again to a new side file.
    ///
    /// **A synced line is never quarantined.** A bad line inside the synced
    /// part (without a record: a bad complete last line, or a bad line before
    /// an unterminated tail) was acknowledged: it is damage, nothing is
    /// touched, and `.damaged` is returned, for the caller to refuse appends
    /// and for `verify` to report; its seq is never given to another event.
    /// Damage further back is not looked for at all.
    ///
    /// Afterwards the writer keeps `<log>.synced` open, creating it durably
    /// (after syncing the log) when there was none in force.
    ///
    /// Call it on the writer (it holds the lock, so no append runs meanwhile),
    /// once, right after opening and before reading.
    ///
    /// - Parameter validLine: Whether a complete line (without its `\n`) is
    ///   good; `StoredLine.isIntact` (the CRC check) unless the caller passes
    ///   a stricter one, e.g. one that also parses the JSON.
    /// - Returns: `.intact`, `.quarantined` with where the bytes went, or
    ///   `.damaged`.
    /// - Throws: `DuneEventsError` `.io` if reading, the side file, the
    ///   truncation or an `fsync` fails (the log is left as it was unless the
    ///   side file was already durable), or if this is not the writer.
    /// - Complexity: O(*t* + *l*): the bytes past the synced length (or the
    ///   torn bytes) plus the one or two lines before them; never the whole log.
    package func quarantineTornTail(
        validLine: (ByteView) -> Bool = StoredLine.isIntact
    ) throws(DuneEventsError) -> TailRecovery {
        try quarantineTornTail(validLine: validLine, timestamp: Self.sideFileTimestamp(secondsSince1970: Int(SystemClock.now().seconds)))
    }

    /// `quarantineTornTail` with a fixed timestamp, for tests of name clashes.
    func quarantineTornTail(
        validLine: (ByteView) -> Bool,
        timestamp: String
    ) throws(DuneEventsError) -> TailRecovery {
        guard isWriter else {
            throw DuneEventsError(.io, "cannot recover the torn tail of '\(path)': it was opened for reading; open it with LogFile.openForAppend",
                                  location: .init(path: path))
        }
        return try withDescriptor(.read) { descriptor throws(DuneEventsError) in
            let tail = TailReader(descriptor: descriptor, path: path)
            let size = try Self.status(of: descriptor, path: path).size
            let synced = recordedSyncedLength(descriptor, size: size)
            let found = try tornStart(tail, size: size, synced: synced, validLine: validLine)
            guard case .torn(let tornStart) = found else {
                if case .damaged(let offset) = found { return .damaged(byteOffset: offset) }
                try keepSyncedRecord(descriptor, size: size, recorded: synced)
                return .intact
            }
            let sidePath = try moveAside(tail, range: tornStart..<size, timestamp: timestamp)
            do throws(Errno) {
                try descriptor.resize(to: tornStart)
                try descriptor.sync()
            } catch {
                var failure = DuneEventsError(error, during: .truncate, path: path)
                failure.message += ". The torn bytes are saved in '\(sidePath)'; the log still ends with them"
                failure.location.byteOffset = tornStart
                throw failure
            }
            // Only bytes past the synced length were moved: a record in force still is.
            try keepSyncedRecord(descriptor, size: tornStart, recorded: synced)
            return .quarantined(TornTailReport(sidePath: sidePath, byteOffset: tornStart, byteCount: size - tornStart))
        }
    }

    /// Where a crash artifact at the end of the log begins.
    private enum TornStart {
        case none
        case torn(Int)
        case damaged(Int)
    }

    /// Finds the crash artifact at the end of a log of `size` bytes.
    ///
    /// With a synced length known (`synced`), every line after it is
    /// checked: the first that is unterminated or fails `validLine` starts
    /// the artifact, and everything from it on goes (the file system may
    /// have kept later unsynced writes and lost earlier ones). Without one,
    /// every complete line counts as synced: only an unterminated tail is an
    /// artifact, and a bad complete last line is damage.
    private func tornStart(_ tail: TailReader, size: Int, synced: Int?,
                           validLine: (ByteView) -> Bool) throws(DuneEventsError) -> TornStart {
        guard size > 0 else { return .none }
        if let synced {
            var start = synced
            while start < size {
                guard let end = try tail.lineEnd(from: start, size: size) else { return .torn(start) }
                let line = try tail.bytes(start..<end)
                if !ByteView.with(line, validLine) { return .torn(start) }
                start = end + 1
            }
            return .none
        }
        if try tail.byte(at: size - 1) == newline {
            let lastLineStart = try tail.lineStart(before: size - 1)
            let lastLine = try tail.bytes(lastLineStart..<(size - 1))
            if ByteView.with(lastLine, validLine) { return .none }
            // Name the first of the bad lines at the end.
            guard lastLineStart > 0 else { return .damaged(lastLineStart) }
            let previousStart = try tail.lineStart(before: lastLineStart - 1)
            let previous = try tail.bytes(previousStart..<(lastLineStart - 1))
            return .damaged(ByteView.with(previous, validLine) ? lastLineStart : previousStart)
        }
        let tornStart = try tail.lineStart(before: size)
        // The complete line before the torn bytes must be good.
        if tornStart > 0 {
            let previousStart = try tail.lineStart(before: tornStart - 1)
            let previous = try tail.bytes(previousStart..<(tornStart - 1))
            if !ByteView.with(previous, validLine) { return .damaged(previousStart) }
        }
        return .torn(tornStart)
    }

    /// Opens the synced-length record for appends (see ``SyncedLengthRecord``).
    private func keepSyncedRecord(_ descriptor: FileDescriptor, size: Int, recorded: Int?) throws(DuneEventsError) {
        do throws(Errno) {
            try openSyncedRecord(descriptor, size: size, recorded: recorded)
        } catch {
            throw DuneEventsError(error, during: .write, path: SyncedLengthRecord.path(forLog: path))
        }
    }

    /// The side-file timestamp for a moment: UTC, `20261122T011843Z`.
    static func sideFileTimestamp(secondsSince1970 seconds: Int) -> String {
        let dayOrdinal = seconds >= 0 ? seconds / 86_400 : -((86_399 - seconds) / 86_400)  // floor
        let date = DayKey(ordinal: dayOrdinal).components
        let second = seconds - dayOrdinal * 86_400
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(date.year)\(two(date.month))\(two(date.day))T\(two(second / 3600))\(two(second / 60 % 60))\(two(second % 60))Z"
    }

    /// Copies `range` of the log to a new side file and makes it durable.
    ///
    /// - Returns: The side file's path.
    private func moveAside(_ tail: TailReader, range: Range<Int>, timestamp: String) throws(DuneEventsError) -> String {
        let side = try createSideFile(base: "\(path).torn-\(timestamp)")
        var isOpen = true
        do throws(Errno) {
            var offset = range.lowerBound
            while offset < range.upperBound {
                let piece = try tail.descriptor.read(upTo: min(TailReader.chunkSize, range.upperBound - offset), atOffset: offset)
                guard !piece.isEmpty else { throw Errno.ioError }  // the file ended first: it shrank under us
                try side.descriptor.writeAll(piece)
                offset += piece.count
            }
            try side.descriptor.sync()
            isOpen = false
            try side.descriptor.close()
            try FileSystem.syncDirectory(FileSystem.parentDirectory(of: side.path), fileSystem: fileSystem)
        } catch {
            if isOpen { try? side.descriptor.close() }
            try? FileSystem.remove(side.path, fileSystem: fileSystem)
            var failure = DuneEventsError(error, during: .write, path: side.path)
            failure.message += ". The torn tail of '\(path)' was left in place"
            throw failure
        }
        return side.path
    }

    /// A side file just created, open for writing.
    private struct SideFile {
        var path: String
        var descriptor: FileDescriptor
    }

    /// Creates an empty side file named `base`, or `base-2`, `base-3`, … if
    /// the name is taken, with mode 0600 (exactly, whatever the umask).
    private func createSideFile(base: String) throws(DuneEventsError) -> SideFile {
        var attempt = 1
        while true {
            let candidate = attempt == 1 ? base : "\(base)-\(attempt)"
            let created: FileDescriptor
            do throws(Errno) {
                created = try FileSystem.createFile(candidate, access: .writeOnly, ifExists: .fail, protection: protection,
                                                    fileSystem: fileSystem)
            } catch {
                guard error == .fileExists else { throw DuneEventsError(error, during: .open, path: candidate) }
                attempt += 1
                continue
            }
            do throws(Errno) {
                try created.setPermissions(0o600)
            } catch {
                try? created.close()
                try? FileSystem.remove(candidate, fileSystem: fileSystem)
                throw DuneEventsError(error, during: .write, path: candidate)
            }
            return SideFile(path: candidate, descriptor: created)
        }
    }
}

// MARK: - Reading the end of the file

/// The ASCII line feed.
private let newline = UInt8(ascii: "\n")

/// Reads single bytes, byte ranges and line starts near the end of a file.
private struct TailReader {
    static let chunkSize = 64 * 1024

    let descriptor: FileDescriptor
    let path: String

    /// The byte at `offset`.
    func byte(at offset: Int) throws(DuneEventsError) -> UInt8 {
        try bytes(offset..<(offset + 1))[0]
    }

    /// The bytes in `range`, which must lie inside the file.
    func bytes(_ range: Range<Int>) throws(DuneEventsError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: range.count)
        do throws(Errno) {
            try descriptor.readExactly(into: &buffer, atOffset: range.lowerBound)
        } catch {
            var failure = DuneEventsError(error, during: .read, path: path)
            failure.location.byteOffset = range.lowerBound
            throw failure
        }
        return buffer
    }

    /// The offset of the first `\n` at or after `start`, or `nil` when the
    /// file (of `size` bytes) has none there.
    func lineEnd(from start: Int, size: Int) throws(DuneEventsError) -> Int? {
        var chunkStart = start
        while chunkStart < size {
            let chunk = try bytes(chunkStart..<min(size, chunkStart + Self.chunkSize))
            if let first = chunk.firstIndex(of: newline) { return chunkStart + first }
            chunkStart += chunk.count
        }
        return nil
    }

    /// The start of the line that ends at `end`: one past the last `\n`
    /// before `end`, or `0` if there is none.
    ///
    /// - Complexity: O(*n*) in the distance back to that `\n`, read in
    ///   64 KiB chunks from the end.
    func lineStart(before end: Int) throws(DuneEventsError) -> Int {
        var chunkEnd = end
        while chunkEnd > 0 {
            let chunkStart = max(0, chunkEnd - Self.chunkSize)
            let chunk = try bytes(chunkStart..<chunkEnd)
            if let last = chunk.lastIndex(of: newline) { return chunkStart + last + 1 }
            chunkEnd = chunkStart
        }
        return 0
    }
}
