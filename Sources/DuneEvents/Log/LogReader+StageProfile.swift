extension LogReader {
    /// How long each stage of the read path takes on its own: the whole log
    /// read, then every line found, CRC-checked and decoded, one stage over
    /// every line before the next, on the calling thread.
    ///
    /// For `dune-replay rebuild` with `DUNE_REBUILD_PROFILE=1` (Benchmarks/README.md):
    /// the replay itself interleaves these stages on several threads, so
    /// its wall time is not their sum. Nothing here runs on the replay's path.
    package struct StageProfile: Sendable {
        /// `(stage, seconds)`, in the order the stages ran.
        package var stages: [(name: String, seconds: Double)] = []
        /// The decoded events, in batches of about one chunk's lines.
        package var batches: [EventBatch] = []
        /// Lines read.
        package var lines = 0
    }

    /// Reads, splits, CRC-checks and decodes the whole log stage by stage (see ``StageProfile``).
    ///
    /// - Throws: `corruptLog` at a line that fails its CRC or does not decode;
    ///   `inputUnavailable` when a read fails.
    /// - Complexity: O(n) in the log's size; memory O(the log's size): the
    ///   whole file is held, unlike on the replay's path.
    package func profileStages() throws -> StageProfile {
        var profile = StageProfile()
        var clock = SystemClock.monotonicSeconds()
        func lap(_ name: String) {
            let now = SystemClock.monotonicSeconds()
            profile.stages.append((name, now - clock))
            clock = now
        }
        let size = try file.size
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, size), alignment: 64)
        defer { buffer.deallocate() }
        var filled = 0
        while filled < size {
            let count = min(LogReader.chunkSize, size - filled)
            let read = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<(filled + count)]), at: filled)
            if read == 0 { break }
            filled += read
        }
        lap("read (pread, 4 MiB at a time)")
        guard let base = buffer.baseAddress else { return profile }
        var starts: [Int] = []
        var ends: [Int] = []
        starts.reserveCapacity(filled / 256)
        ends.reserveCapacity(filled / 256)
        var lineStart = 0
        while let end = LineScanning.firstNewline(in: base, from: lineStart, to: filled) {
            starts.append(lineStart)
            ends.append(end)
            lineStart = end + 1
        }
        profile.lines = starts.count
        lap("find line ends (memchr)")
        for index in starts.indices {
            let line = UnsafeRawBufferPointer(start: base + starts[index], count: ends[index] - starts[index])
            guard StoredLine.isIntact(line) else {
                throw DuneEventsError(.corruptLog, LogReader.crcMismatchReason,
                                      location: .init(path: file.path, line: index + 1, byteOffset: starts[index]))
            }
        }
        lap("CRC (one line at a time)")
        let scanner = StoredLineScanner()
        let linesPerBatch = 12_000
        var builder = EventBatchBuilder(capacity: linesPerBatch)
        for index in starts.indices {
            let line = UnsafeRawBufferPointer(start: base + starts[index], count: ends[index] - starts[index])
            if !scanner.decode(line, into: &builder) {
                do {
                    builder.append(try EventCodec.decode(line))
                } catch {
                    throw DuneEventsError(.corruptLog, LogReader.undecodableReason(error.reason),
                                          location: .init(path: file.path, line: index + 1, byteOffset: starts[index]))
                }
            }
            if builder.count == linesPerBatch {
                profile.batches.append(builder.build())
                builder = EventBatchBuilder(capacity: linesPerBatch)
            }
        }
        if builder.count > 0 { profile.batches.append(builder.build()) }
        lap("parse + decode (StoredLineScanner, one pass)")
        return profile
    }
}
