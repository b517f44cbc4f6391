import DuneEvents

extension LogReader {
    /// How long each stage of the read path takes on its own, on the calling
    /// thread: chunk by chunk, the chunk is read, its lines found, every line
    /// CRC-checked, then every line decoded; each stage's time is summed over the chunks.
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
    /// - Complexity: O(n) in the log's size; memory O(one chunk) for reading,
    ///   and every decoded batch is kept (for the folds that follow).
    package func profileStages() throws -> StageProfile {
        var profile = StageProfile()
        var seconds = [Double](repeating: 0, count: 4)
        var clock = SystemClock.threadCPUSeconds()
        func lap(_ stage: Int) {
            let now = SystemClock.threadCPUSeconds()
            seconds[stage] += now - clock
            clock = now
        }
        let size = try file.size
        // One buffer, reused for every chunk as the replay's decoders reuse theirs; a line cut
        // by the chunk's end is moved to the front and completed by the next read.
        let capacity = LogReader.chunkSize + (1 << 20)
        var buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 64)
        defer { buffer.deallocate() }
        let scanner = StoredLineScanner()
        var starts: [Int] = []
        var ends: [Int] = []
        var kept = 0
        var offset = 0
        var lineNumber = 0
        while offset < size {
            clock = SystemClock.threadCPUSeconds()
            if kept + LogReader.chunkSize > buffer.count {
                let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: buffer.count * 2, alignment: 64)
                grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[..<kept]))
                buffer.deallocate()
                buffer = grown
            }
            let count = min(LogReader.chunkSize, size - offset)
            let read = try file.read(into: MutableByteView(UnsafeMutableRawBufferPointer(rebasing: buffer[kept..<(kept + count)])), at: offset)
            if read == 0 { break }
            let lineOffset = offset - kept
            offset += read
            let filled = kept + read
            lap(0)
            guard let base = buffer.baseAddress else { break }
            starts.removeAll(keepingCapacity: true)
            ends.removeAll(keepingCapacity: true)
            var lineStart = 0
            while let end = LineScanning.firstNewline(in: base, from: lineStart, to: filled) {
                starts.append(lineStart)
                ends.append(end)
                lineStart = end + 1
            }
            lap(1)
            // Four lines at a time, as the replay checks them (`CRC32.checksums`).
            func payload(_ index: Int) -> (bytes: ByteView, crc: UInt32)? {
                let line = ByteView(UnsafeRawBufferPointer(start: base + starts[index], count: ends[index] - starts[index]))
                guard let length = StoredLine.payloadLength(of: line), let crc = StoredLine.storedCRC(of: line) else { return nil }
                return (line.subview(0..<length), crc)
            }
            var group = 0
            while group < starts.count {
                let last = starts.count - 1
                let a = payload(group), b = payload(min(group + 1, last)), c = payload(min(group + 2, last)), d = payload(min(group + 3, last))
                let empty = ByteView(UnsafeRawBufferPointer(start: base, count: 0))
                let sums = CRC32.checksums(a?.bytes ?? empty, b?.bytes ?? empty, c?.bytes ?? empty, d?.bytes ?? empty)
                for member in 0..<min(4, starts.count - group) {
                    let (expected, sum) = switch member {
                    case 0: (a?.crc, sums.0)
                    case 1: (b?.crc, sums.1)
                    case 2: (c?.crc, sums.2)
                    default: (d?.crc, sums.3)
                    }
                    guard let expected, expected == sum else {
                        let index = group + member
                        throw DuneEventsError(.corruptLog, LogReader.crcMismatchReason,
                                              location: .init(path: file.path, line: lineNumber + index + 1, byteOffset: lineOffset + starts[index]))
                    }
                }
                group += 4
            }
            lap(2)
            var builder = EventBatchBuilder(capacity: max(16, filled / 300))
            for index in starts.indices {
                let line = ByteView(UnsafeRawBufferPointer(start: base + starts[index], count: ends[index] - starts[index]))
                if !scanner.decode(line, into: &builder) {
                    do {
                        builder.append(try EventCodec.decode(line))
                    } catch {
                        throw LogReader.decodingError(error, location: .init(path: file.path, line: lineNumber + index + 1,
                                                                             byteOffset: lineOffset + starts[index]))
                    }
                }
            }
            if builder.count > 0 { profile.batches.append(builder.build()) }
            lap(3)
            lineNumber += starts.count
            kept = filled - lineStart
            if kept > 0 { (base).copyMemory(from: base + lineStart, byteCount: kept) }
        }
        profile.lines = lineNumber
        profile.stages = [
            ("read (pread, 4 MiB at a time, one buffer)", seconds[0]),
            ("find line ends (memchr)", seconds[1]),
            ("CRC (four lines at a time)", seconds[2]),
            ("parse + decode (StoredLineScanner, one pass, into batches)", seconds[3]),
        ]
        return profile
    }
}
