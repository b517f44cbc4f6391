import Dispatch
import Synchronization

extension LogReader {
    /// Calls `body` with the log's events decoded into ``EventBatch``es, in
    /// `seq` order: the fast read path.
    ///
    /// The file is cut into chunks of ``chunkSize`` bytes at line boundaries;
    /// up to `parallelism` threads each read (`pread`) and decode whole chunks
    /// — CRC check, then ``StoredLineScanner`` with the reference decoder as
    /// fallback — while this thread hands the finished chunks to `body` in
    /// file order. Every line is checked exactly as by `forEachBatch(after:through:_:)` (DuneTools):
    /// CRC, JSON, and `seq` one more than the line before; the first damaged
    /// line stops the read with `corruptLog` naming its line and byte offset,
    /// after `body` got every good event before it. Events with `seq ≤ range.after`
    /// are checked but not delivered; the read stops after `range.throughSeq`
    /// and before the first event recorded after `range.asOf`. Bytes after the
    /// last `\n` when the read starts are not read.
    ///
    /// - Parameters:
    ///   - range: Which events to deliver.
    ///   - parallelism: Decoding threads; 1 decodes on the calling thread.
    ///   - body: Called with each non-empty batch, in order, on the calling thread.
    /// - Returns: Where the read ended.
    /// - Throws: `corruptLog` at the first damaged line; `inputUnavailable`
    ///   when a read fails; whatever `body` throws.
    /// - Complexity: O(n) in the log's size; memory O(`parallelism` × chunk).
    @discardableResult
    package func forEachEventBatch(_ range: Range = Range(), parallelism: Int = LogReader.defaultParallelism,
                                  _ body: (EventBatch) throws -> Void) throws -> End {
        try forEachEventBatch(range, parallelism: parallelism, chunkSize: LogReader.chunkSize, body)
    }

    /// ``forEachEventBatch(_:parallelism:_:)`` with another chunk size (tests cut
    /// small logs into many chunks to exercise lines that straddle them).
    @discardableResult
    package func forEachEventBatch(_ range: Range, parallelism: Int, chunkSize requested: Int,
                                   startingAt start: Resumption = Resumption(),
                                   _ body: (EventBatch) throws -> Void) throws -> End {
        try forEachEventBatch(range, parallelism: parallelism, chunkSize: requested, startingAt: start, digesting: nil) { batch, _ in
            try body(batch)
        }
    }

    /// Every event from `start`, as ``forEachEventBatch(_:parallelism:chunkSize:startingAt:_:)``
    /// reads them, with `digesting` run on the decoding threads: `body` gets
    /// each batch with what `digesting` computed of it (the deciders' replay
    /// computes its content digests there, so that only the table updates
    /// wait for one thread).
    @discardableResult
    package func forEachEventBatch(startingAt start: Resumption, chunkSize: Int = LogReader.chunkSize,
                                   digesting: @escaping @Sendable (EventBatch) -> [ContentDigest],
                                   _ body: (EventBatch, [ContentDigest]) throws -> Void) throws -> End {
        try forEachEventBatch(Range(), parallelism: LogReader.defaultParallelism, chunkSize: chunkSize, startingAt: start,
                              digesting: digesting, body)
    }

    private func forEachEventBatch(_ range: Range, parallelism: Int, chunkSize requested: Int, startingAt start: Resumption,
                                   digesting: (@Sendable (EventBatch) -> [ContentDigest])?,
                                   _ body: (EventBatch, [ContentDigest]) throws -> Void) throws -> End {
        let size = try file.size
        let chunkSize = max(1, requested)
        let base = min(start.offset, size)
        let chunkCount = max(1, (size - base + chunkSize - 1) / chunkSize)
        var merger = ChunkMerger(range: range, path: file.path, start: start)
        let workers = min(max(1, parallelism), chunkCount)
        if workers == 1 {
            let decoder = ChunkDecoder(file: file, size: size, base: base, chunkSize: chunkSize, through: range.throughSeq)
            for chunk in 0..<chunkCount {
                var result = try decoder.decode(chunk: chunk)
                if let digesting { result.digests = digesting(result.batch) }
                guard try merger.take(result, body) else { break }
            }
            return merger.end
        }
        let pipeline = ChunkPipeline(chunkCount: chunkCount, window: workers * 2)
        let group = DispatchGroup()
        let file = self.file
        let through = range.throughSeq
        for _ in 0..<workers {
            // A serial queue of its own per worker: such queues get a thread even when every
            // core is busy (the global queues on Linux run at most one thread per core, and
            // the caller's thread, often one of them, only waits here).
            DispatchQueue(label: "DuneEvents.LogReader.decode", qos: .userInitiated).async(group: group) {
                let decoder = ChunkDecoder(file: file, size: size, base: base, chunkSize: chunkSize, through: through)
                pipeline.work { chunk in
                    Result {
                        var result = try decoder.decode(chunk: chunk)
                        if let digesting { result.digests = digesting(result.batch) }
                        return result
                    }
                }
            }
        }
        defer {
            pipeline.stop(workers: workers)
            group.wait()
        }
        for chunk in 0..<chunkCount {
            let result = pipeline.result(of: chunk)
            guard try merger.take(try result.get(), body) else { break }
        }
        return merger.end
    }

    /// Where a read resumes: a line start, the seq expected there, and its
    /// line number (a log's line numbers are its seqs while it is intact).
    package struct Resumption: Sendable, Equatable {
        package var offset: Int
        package var expectedSeq: Int

        package init(offset: Int = 0, expectedSeq: Int = 1) {
            self.offset = offset
            self.expectedSeq = expectedSeq
        }
    }

    /// About how many events the log holds (its size over 300 bytes, a typical
    /// sample line); 0 when the size is unknown. For sizing tables ahead of a replay.
    package var estimatedEventCount: Int {
        ((try? file.size) ?? 0) / 300
    }

    /// Bytes per decoded chunk: 4 MiB, about 12 000 events.
    package static let chunkSize = 4 << 20

    /// Decoding threads for a replay: the machine's active processors, at most 4.
    package static var defaultParallelism: Int {
        min(4, max(1, ProcessInfoLite.activeProcessorCount))
    }
}

// MARK: - Decoding one chunk

/// What one chunk decoded to: its good events and how it ended.
struct ChunkResult: Sendable {
    /// The events of the good lines, in order (`goodLines` of them).
    var batch: EventBatch
    /// Lines decoded without a problem and with `seq ≤ through`.
    var goodLines: Int
    /// The seq of the chunk's first line, when that line decoded.
    var firstSeq: Int?
    /// The byte offset of the chunk's first line.
    var firstLineOffset: Int
    /// The byte offset just after the last good line.
    var endOffset: Int
    /// Why decoding stopped before the end of the chunk, at line `goodLines` of the chunk.
    var stop: Stop?
    /// Bytes after the last `\n` of the file, when this chunk reached the end.
    var trailingBytes: Int
    /// What the reader's `digesting` computed of ``batch`` (empty without one).
    var digests: [ContentDigest] = []

    enum Stop: Sendable {
        /// A damaged line, at `byteOffset`.
        case damaged(reason: String, byteOffset: Int)
        /// A line of a newer version than this build reads, at `byteOffset`.
        case newer(NewerVersion, byteOffset: Int)
        /// A line whose seq does not follow the line before it in the chunk.
        case seqGap(seq: Int, expected: Int, byteOffset: Int)
        /// The first line with `seq > through`; it is intact and in sequence.
        case limit
    }
}

/// Reads and decodes chunks of one file; one per thread.
final class ChunkDecoder {
    private let file: LogFile
    private let size: Int
    private let chunkSize: Int
    private let through: Int
    private let scanner = StoredLineScanner()
    /// The chunk's bytes, from one byte before its start; grown for a line that runs past it.
    private let buffer: AlignedBytes
    /// `,"crc":"` as one little-endian word.
    private let trailerMarker: UInt64 = ByteView.with(StoredLine.crcMarker) { $0.loadLittleEndian(at: 0, as: UInt64.self) }

    /// The offset chunk 0 starts at (a line start).
    private let base: Int

    init(file: LogFile, size: Int, base: Int, chunkSize: Int, through: Int) {
        self.file = file
        self.size = size
        self.base = base
        self.chunkSize = chunkSize
        self.through = through
        buffer = AlignedBytes(count: chunkSize + 64 * 1024, alignment: 64)
    }

    /// Decodes the lines that start in `[chunk × chunkSize, (chunk + 1) × chunkSize)`.
    func decode(chunk: Int) throws -> ChunkResult {
        let chunkStart = base + chunk * chunkSize
        let chunkEnd = min(size, chunkStart + chunkSize)
        // Read one byte before the chunk to know whether it starts a line.
        let readStart = chunkStart > base ? chunkStart - 1 : chunkStart
        var filled = try read(from: readStart, count: chunkEnd - readStart, at: 0)
        var lineStart = 0
        if chunkStart > base {
            guard filled > 0 else { return empty(at: chunkEnd) }  // nothing read: the file shrank
            if buffer.bytes(0..<1)[0] == UInt8(ascii: "\n") {
                lineStart = 1
            } else {
                guard let found = findNewline(from: 1, to: filled) else {
                    return empty(at: chunkEnd)  // the chunk lies inside one long line
                }
                lineStart = found + 1
            }
        }
        let firstLineOffset = readStart + lineStart
        var builder = EventBatchBuilder(capacity: max(16, (filled - lineStart) / 300))
        var result = ChunkResult(batch: EventBatch([]), goodLines: 0, firstSeq: nil, firstLineOffset: firstLineOffset,
                                 endOffset: firstLineOffset, stop: nil, trailingBytes: 0)
        let limit = chunkEnd - readStart  // lines starting before this buffer index belong to the chunk
        var expected = 0
        // Lines go in groups of four: their CRCs are computed together (see `CRC32.checksums`).
        var starts = [Int](repeating: 0, count: 4)
        var ends = [Int](repeating: 0, count: 4)
        var intact = [Bool](repeating: false, count: 4)
        scanning: while lineStart < limit {
            var grouped = 0
            var next = lineStart
            while grouped < 4, next < limit {
                guard let lineEnd = try lineEnd(from: next, filled: &filled, readStart: readStart) else {
                    if grouped == 0 { result.trailingBytes = filled - next }
                    break
                }
                starts[grouped] = next
                ends[grouped] = lineEnd
                grouped += 1
                next = lineEnd + 1
            }
            guard grouped > 0 else { break }
            let bytes = buffer.bytes(0..<filled)  // valid until the next read: the group's lines are all read
            checkCRCs(bytes, starts, ends, grouped, into: &intact)
            for member in 0..<grouped {
                let line = bytes.subview(starts[member]..<ends[member])
                let offset = readStart + starts[member]
                // After the line with seq `through` nothing more is read: damage there is the limit, not an error.
                let pastLimit = result.goodLines > 0 && expected > through
                guard intact[member] else {
                    result.stop = pastLimit ? .limit : .damaged(reason: LogReader.crcMismatchReason, byteOffset: offset)
                    break scanning
                }
                if !scanner.decode(line, into: &builder) {
                    do {
                        builder.append(try EventCodec.decode(line))
                    } catch {
                        if pastLimit {
                            result.stop = .limit
                        } else if let newer = error.newer {
                            result.stop = .newer(newer, byteOffset: offset)
                        } else {
                            result.stop = .damaged(reason: LogReader.undecodableReason(error.reason), byteOffset: offset)
                        }
                        break scanning
                    }
                }
                let seq = builder.lastSeq
                if result.firstSeq == nil {
                    result.firstSeq = seq
                } else if seq != expected {
                    result.stop = pastLimit ? .limit : .seqGap(seq: seq, expected: expected, byteOffset: offset)
                    break scanning
                }
                if seq > through {
                    result.stop = .limit
                    break scanning
                }
                expected = seq + 1
                result.goodLines += 1
                result.endOffset = readStart + ends[member] + 1
            }
            lineStart = next
            if grouped < 4, next < limit {
                // The group stopped at the end of the file without a newline.
                result.trailingBytes = filled - next
                break
            }
        }
        result.batch = builder.build()
        return result
    }

    /// The index of the `\n` ending the line at `lineStart`, reading past the
    /// chunk as needed; `nil` when the file ends first.
    private func lineEnd(from lineStart: Int, filled: inout Int, readStart: Int) throws -> Int? {
        if let found = findNewline(from: lineStart, to: filled) { return found }
        var searchFrom = max(lineStart, filled)
        while readStart + filled < size {
            if filled == buffer.count { grow() }
            let added = try read(from: readStart + filled, count: min(buffer.count - filled, size - readStart - filled), at: filled)
            guard added > 0 else { break }
            filled += added
            if let found = findNewline(from: searchFrom, to: filled) { return found }
            searchFrom = filled
        }
        return nil
    }

    /// Whether each of the `count` lines `bytes[starts[i]..<ends[i]]` is intact
    /// (``StoredLine/isIntact(_:)``), with the CRCs computed four at a time.
    private func checkCRCs(_ bytes: ByteView, _ starts: [Int], _ ends: [Int], _ count: Int, into intact: inout [Bool]) {
        let marker = trailerMarker
        // `StoredLine.payloadLength(of:)` and `CRC32.parseHex(_:)`, a word at a time.
        @inline(__always) func trailer(_ member: Int) -> (payload: ByteView, crc: UInt32)? {
            let index = min(member, count - 1)
            let line = bytes.subview(starts[index]..<ends[index])
            let length = line.count - StoredLine.trailerLength
            guard length > 0, line[0] == UInt8(ascii: "{"),
                  line.loadLittleEndian(at: length, as: UInt64.self) == marker,
                  line[length + 16] == UInt8(ascii: "\""), line[length + 17] == UInt8(ascii: "}")
            else { return nil }
            // The 8 digits as one word: lowercase hex only (the log stores no other form).
            var cases: UInt64 = 0
            guard let crc = PackedUUID.hexWord(line.loadLittleEndian(at: length + 8, as: UInt64.self), &cases), cases & 1 == 0
            else { return nil }
            return (line.subview(0..<length), UInt32(truncatingIfNeeded: crc))
        }
        let empty = bytes.subview(0..<0)
        let a = trailer(0), b = trailer(1), c = trailer(2), d = trailer(3)
        let (ca, cb, cc, cd) = CRC32.checksums(a?.payload ?? empty, b?.payload ?? empty, c?.payload ?? empty, d?.payload ?? empty)
        intact[0] = a.map { $0.crc == ca } ?? false
        intact[1] = b.map { $0.crc == cb } ?? false
        intact[2] = c.map { $0.crc == cc } ?? false
        intact[3] = d.map { $0.crc == cd } ?? false
    }

    private func empty(at offset: Int) -> ChunkResult {
        ChunkResult(batch: EventBatch([]), goodLines: 0, firstSeq: nil, firstLineOffset: offset, endOffset: offset, stop: nil,
                    trailingBytes: 0)
    }

    private func findNewline(from: Int, to: Int) -> Int? {
        LineScanning.firstNewline(in: buffer.bytes(0..<to), from: from, to: to)
    }

    /// Reads up to `count` bytes at file offset `offset` into `buffer[at...]`; fewer only at the end of the file.
    private func read(from offset: Int, count: Int, at position: Int) throws -> Int {
        var total = 0
        while total < count {
            let read = try file.read(into: buffer.room((position + total)..<(position + count)), at: offset + total)
            if read == 0 { break }
            total += read
        }
        return total
    }

    private func grow() {
        buffer.grow()
    }
}

// MARK: - Putting chunks back in order

/// Takes chunk results in file order, checks `seq` across chunks, applies the
/// range and hands batches to the body.
struct ChunkMerger {
    let range: LogReader.Range
    let path: String
    private(set) var end = LogReader.End(validBytes: 0, lastSeq: 0, lines: 0, trailingBytes: 0)
    private var expectedSeq: Int
    private var nextLineNumber: Int

    init(range: LogReader.Range, path: String, start: LogReader.Resumption = LogReader.Resumption()) {
        self.range = range
        self.path = path
        expectedSeq = start.expectedSeq
        nextLineNumber = start.expectedSeq
        end = LogReader.End(validBytes: start.offset, lastSeq: start.expectedSeq - 1, lines: start.expectedSeq - 1, trailingBytes: 0)
    }

    /// Consumes the next chunk; returns `false` when the read is over.
    mutating func take(_ chunk: ChunkResult, _ body: (EventBatch, [ContentDigest]) throws -> Void) throws -> Bool {
        if expectedSeq > range.throughSeq {
            // Every event asked for was delivered (or none was: `throughSeq` 0); the lines after
            // them are not read, so damage there does not matter. A torn tail is still reported.
            // Chunks that hold no line start (inside the last line, or a torn tail) are looked through.
            guard chunk.firstSeq == nil, chunk.stop == nil else { return false }
            if chunk.trailingBytes > 0 { end.trailingBytes = chunk.trailingBytes }
            return true
        }
        let lineNumber = nextLineNumber
        if let first = chunk.firstSeq, first != expectedSeq {
            throw DuneEventsError(.corruptLog, LogReader.seqGapReason(first, expected: expectedSeq),
                                  location: .init(path: path, line: lineNumber, byteOffset: chunk.firstLineOffset, seq: first))
        }
        var stopsHere = false
        if chunk.goodLines > 0 {
            let batch = chunk.batch
            var first = 0
            if range.after > 0 {
                while first < chunk.goodLines, batch.seq(at: first) <= range.after { first += 1 }
            }
            var last = chunk.goodLines
            if let asOf = range.asOf {
                let limit = asOf.instant
                for position in first..<chunk.goodLines where batch.recordedAtInstant(at: position) > limit {
                    last = position
                    stopsHere = true
                    break
                }
            }
            expectedSeq = batch.seq(at: chunk.goodLines - 1) + 1
            end.validBytes = chunk.endOffset
            end.lastSeq = expectedSeq - 1
            end.lines = expectedSeq - 1
            nextLineNumber += chunk.goodLines
            if first < last {
                // A slice gets no digests (they are of the whole batch; a range that slices has no `digesting`).
                let whole = first == 0 && last == batch.count
                try body(whole ? batch : batch.slice(first..<last), whole ? chunk.digests : [])
            }
        }
        if stopsHere { return false }
        switch chunk.stop {
        case nil:
            if chunk.trailingBytes > 0 { end.trailingBytes = chunk.trailingBytes }
            return true
        case .limit:
            return false
        case .damaged(let reason, let offset):
            throw DuneEventsError(.corruptLog, reason, location: .init(path: path, line: lineNumber + chunk.goodLines, byteOffset: offset))
        case .newer(let newer, let offset):
            throw newer.error(path: path, line: lineNumber + chunk.goodLines, byteOffset: offset)
        case .seqGap(let seq, let expected, let offset):
            throw DuneEventsError(.corruptLog, LogReader.seqGapReason(seq, expected: expected),
                                  location: .init(path: path, line: lineNumber + chunk.goodLines, byteOffset: offset, seq: seq))
        }
    }
}

extension LogReader {
    package static let crcMismatchReason = "the line's CRC does not match its bytes (damaged or edited); restore the log from a backup or cut it before this line"

    static func undecodableReason(_ reason: String) -> String {
        "the line has a valid CRC but cannot be decoded: \(reason)"
    }

    /// The error for an intact line the reference decoder refused: a newer
    /// version (``DuneEventsError/Code/newerVersion``) or damage.
    package static func decodingError(_ error: EventCodec.DecodeError, location: DuneEventsError.Location) -> DuneEventsError {
        if let newer = error.newer {
            return newer.error(path: location.path, line: location.line, byteOffset: location.byteOffset)
        }
        return DuneEventsError(.corruptLog, undecodableReason(error.reason), location: location)
    }

    package static func seqGapReason(_ seq: Int, expected: Int) -> String {
        "seq \(seq) where \(expected) was expected: the log has a gap or a reordered line"
    }
}

// MARK: - Threads

/// Hands chunk numbers to worker threads and their results back in order,
/// with at most `window` chunks decoded ahead of the consumer.
final class ChunkPipeline: Sendable {
    private let chunkCount: Int
    private let next = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let results = Mutex<[Int: Result<ChunkResult, any Error>]>([:])
    private let ready = DispatchSemaphore(value: 0)
    private let window: DispatchSemaphore

    init(chunkCount: Int, window: Int) {
        self.chunkCount = chunkCount
        // Created at 0 and raised: libdispatch traps when a semaphore is freed
        // below its initial value, which an early stop can leave this one at.
        self.window = DispatchSemaphore(value: 0)
        for _ in 0..<window { self.window.signal() }
    }

    /// Runs on a worker thread: decodes chunks until none is left or the pipeline stops.
    func work(_ decode: (Int) -> Result<ChunkResult, any Error>) {
        while true {
            window.wait()
            if stopped.load(ordering: .acquiring) { return }
            let chunk = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard chunk < chunkCount else { return }
            let result = decode(chunk)
            results.withLock { $0[chunk] = result }
            ready.signal()
        }
    }

    /// The result of `chunk`, waiting for it; frees its slot in the window.
    func result(of chunk: Int) -> Result<ChunkResult, any Error> {
        while true {
            if let result = results.withLock({ $0.removeValue(forKey: chunk) }) {
                window.signal()
                return result
            }
            ready.wait()
        }
    }

    /// Makes the workers return (call once, then wait for them).
    func stop(workers: Int) {
        stopped.store(true, ordering: .releasing)
        for _ in 0..<workers { window.signal() }
    }
}
