extension LogFile {
    /// One stored line read back: where it starts, its bytes (without `\n`) and its seq.
    struct ProbedLine {
        var start: Int
        var bytes: [UInt8]
        var seq: Int

        /// The offset just after its `\n`.
        var end: Int { start + bytes.count + 1 }
    }

    /// The stored line (without its `\n`) of the event `seq`, among the whole
    /// lines before byte `end`; `nil` when none has that seq.
    ///
    /// Seqs grow with the offset, so the line is found by interpolation
    /// between two lines of known seq (a few reads of about a kilobyte for
    /// lines of similar length); after six steps, every other step halves the
    /// range instead (lines of very different lengths), and once fewer than
    /// 16 KiB are left the lines are read in order.
    ///
    /// - Throws: `corruptLog` for a line without a readable seq;
    ///   `inputUnavailable` when a read fails.
    func line(ofSeq seq: Int, before end: Int) throws(DuneEventsError) -> [UInt8]? {
        guard seq >= 1, end > 0, let first = try probe(atOrAfter: 0, before: end), first.seq <= seq else { return nil }
        if first.seq == seq { return first.bytes }
        guard let lastStart = try lastLineStart(before: end), let last = try probe(atOrAfter: lastStart, before: end),
              last.seq >= seq
        else { return nil }
        if last.seq == seq { return last.bytes }
        var low = first, high = last
        // The line looked for, if any, starts in `low.end..<high.start`.
        var upper = high.start
        for step in 0... {
            if upper - low.end <= 16 * 1024 || step >= 64 {
                var next = low.end
                while next < upper, let line = try probe(atOrAfter: next, before: end), line.seq <= seq {
                    if line.seq == seq { return line.bytes }
                    next = line.end
                }
                return nil
            }
            var guess: Int
            if step < 6 || step % 2 == 0 {
                let fraction = Double(seq - low.seq) / Double(high.seq - low.seq)
                // A little before the estimate, so that the next line start is the one looked for.
                guess = low.start + Int(fraction * Double(high.start - low.start)) - 256
            } else {
                guess = low.end + (upper - low.end) / 2
            }
            guess = min(max(guess, low.end), upper - 1)
            guard let line = try probe(atOrAfter: guess, before: end), line.start < upper else {
                upper = guess
                continue
            }
            if line.seq == seq { return line.bytes }
            if line.seq < seq {
                low = line
            } else {
                high = line
                upper = line.start
            }
        }
        return nil
    }

    /// The first whole line starting at or after `offset` and before `end`
    /// (a line starts at 0 or after a `\n`); `nil` when there is none.
    private func probe(atOrAfter offset: Int, before end: Int) throws(DuneEventsError) -> ProbedLine? {
        var start = offset
        if offset > 0 {
            // Find the `\n` at or after offset - 1.
            var position = offset - 1
            var found: Int?
            var window = 1024
            while found == nil, position < end {
                let chunk = try bytes(upTo: min(window, end - position), at: position)
                guard !chunk.isEmpty else { return nil }
                if let index = chunk.firstIndex(of: UInt8(ascii: "\n")) { found = position + index }
                position += chunk.count
                window = min(window * 4, 64 * 1024)
            }
            guard let found else { return nil }
            start = found + 1
        }
        guard start < end else { return nil }
        var line: [UInt8] = []
        var window = 1024
        while true {
            let chunk = try bytes(upTo: min(window, end - start - line.count), at: start + line.count)
            guard !chunk.isEmpty else { return nil }  // no `\n` before `end`: not a whole line
            if let index = chunk.firstIndex(of: UInt8(ascii: "\n")) {
                line += chunk[..<index]
                break
            }
            line += chunk
            window = min(window * 4, 64 * 1024)
        }
        guard let seq = Self.seq(ofLine: line) else {
            throw DuneEventsError(.corruptLog, "a stored line has no readable \"seq\"", location: .init(path: path, byteOffset: start))
        }
        return ProbedLine(start: start, bytes: line, seq: seq)
    }

    /// Where the last whole line before `end` starts (a torn tail after it is passed over).
    private func lastLineStart(before end: Int) throws(DuneEventsError) -> Int? {
        guard let newline = try lastNewline(before: end) else { return nil }
        return try lastNewline(before: newline).map { $0 + 1 } ?? 0
    }

    /// The offset of the last `\n` before `end`.
    private func lastNewline(before end: Int) throws(DuneEventsError) -> Int? {
        var chunkEnd = end
        var window = 1024
        while chunkEnd > 0 {
            let chunkStart = max(0, chunkEnd - window)
            let chunk = try bytes(upTo: chunkEnd - chunkStart, at: chunkStart)
            guard chunk.count == chunkEnd - chunkStart else { return nil }
            if let index = chunk.lastIndex(of: UInt8(ascii: "\n")) { return chunkStart + index }
            chunkEnd = chunkStart
            window = min(window * 4, 64 * 1024)
        }
        return nil
    }

    /// The value of the envelope's `"seq"` member, the second of a stored
    /// line (`{"v":2,"seq":12,…`); looked for in its first 64 bytes.
    static func seq(ofLine line: [UInt8]) -> Int? {
        let key = Array(#""seq":"#.utf8)
        let limit = min(line.count, 64)
        guard limit >= key.count else { return nil }
        for start in 0...(limit - key.count) where line[start] == key[0] && Array(line[start..<(start + key.count)]) == key {
            var value = 0
            var index = start + key.count
            while index < line.count, line[index] >= UInt8(ascii: "0"), line[index] <= UInt8(ascii: "9"), value < Int.max / 100 {
                value = value * 10 + Int(line[index] - UInt8(ascii: "0"))
                index += 1
            }
            return index > start + key.count ? value : nil
        }
        return nil
    }
}
