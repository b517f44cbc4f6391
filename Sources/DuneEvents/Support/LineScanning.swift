/// Where lines end: the one implementation every line reader of the package
/// uses to split bytes at `\n` — the log's `LogLineReader` (and through it
/// `tail --follow`'s `LogTail`), the input's `InputLineReader` and the
/// chunk decoder of `LogReader.forEachEventBatch`.
///
/// The rule they share: a line is complete only when its `\n` has been read.
/// Bytes after the last `\n` of what was read are never a line of the log
/// (a line a writer is still appending, or a torn tail); readers keep them
/// and look again after reading more. (The input reader alone also accepts a
/// last line without `\n` at the end of its input, as `ingest` promises.)
///
/// The forward search is the C library's `memchr` through the platform layer
/// (vectorized; several times faster than a Swift byte loop on 300-byte
/// lines); everything here is `@inline(__always)`, so the hot loops pay no
/// call.
@usableFromInline package enum LineScanning {
    /// `\n`.
    @usableFromInline static let newline = UInt8(ascii: "\n")

    /// The index of the first `\n` in `base[from..<to]`, if any.
    @inlinable @inline(__always)
    package static func firstNewline(in base: UnsafeRawPointer, from: Int, to: Int) -> Int? {
        guard from < to, let found = system_memchr(base + from, newline, to - from) else { return nil }
        return found - base
    }

    /// The index of the last `\n` in `base[from..<to]`, if any: the complete
    /// lines of those bytes end there.
    @inlinable @inline(__always)
    package static func lastNewline(in base: UnsafeRawPointer, from: Int, to: Int) -> Int? {
        var index = to - 1
        while index >= from {
            if base.load(fromByteOffset: index, as: UInt8.self) == newline { return index }
            index -= 1
        }
        return nil
    }

    /// How many `\n` bytes `base[from..<to]` holds.
    @inlinable @inline(__always)
    package static func newlineCount(in base: UnsafeRawPointer, from: Int, to: Int) -> Int {
        var count = 0
        var start = from
        while let found = firstNewline(in: base, from: start, to: to) {
            count += 1
            start = found + 1
        }
        return count
    }

    /// Calls `body` with the start and end (the index of its `\n`) of each
    /// complete line in `base[from..<to]`, in order; bytes after the last
    /// `\n` are not a line.
    @inlinable @inline(__always)
    package static func forEachCompleteLine(in base: UnsafeRawPointer, from: Int, to: Int,
                                    _ body: (_ start: Int, _ end: Int) throws -> Void) rethrows {
        var start = from
        while let end = firstNewline(in: base, from: start, to: to) {
            try body(start, end)
            start = end + 1
        }
    }

    // MARK: - Views

    /// The index of the first `\n` in `bytes[from..<to]`, if any.
    @inlinable @inline(__always)
    package static func firstNewline(in bytes: ByteView, from: Int, to: Int) -> Int? {
        guard from < to, let base = bytes.buffer.baseAddress else { return nil }
        assert(from >= 0 && to <= bytes.count, "search outside the view")
        return firstNewline(in: base, from: from, to: to)
    }

    /// How many `\n` bytes `bytes` holds.
    @inlinable @inline(__always)
    package static func newlineCount(in bytes: ByteView) -> Int {
        guard let base = bytes.buffer.baseAddress else { return 0 }
        return newlineCount(in: base, from: 0, to: bytes.count)
    }

    /// Calls `body` with each complete line of `bytes` (`start..<end`, the
    /// `\n` at `end`), in order; bytes after the last `\n` are not a line.
    @inlinable @inline(__always)
    package static func forEachCompleteLine(in bytes: ByteView, _ body: (_ start: Int, _ end: Int) throws -> Void) rethrows {
        guard let base = bytes.buffer.baseAddress else { return }
        try forEachCompleteLine(in: base, from: 0, to: bytes.count, body)
    }
}
