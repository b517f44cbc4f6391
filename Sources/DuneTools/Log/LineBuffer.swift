import DuneEvents

/// The chunked line reader's buffer, shared by the log's ``LogLineReader``
/// (and through it `tail --follow`) and the input's `InputLineReader`:
/// bytes are read in large chunks, complete lines are handed out as ranges
/// of the buffer, and the rule is the same for both: **never past the last
/// `\n`**. Bytes after it (a line still being written, a torn tail, or the
/// start of a line the next chunk completes) stay pending; ``refill(maximum:growing:_:)``
/// moves them to the front before reading more.
///
/// What differs stays with the callers: the log reader reads at file offsets
/// and grows the buffer for a long line; the input reader reads a stream
/// (stdin too), keeps its memory fixed by skipping an overlong line, and
/// accepts a last line without `\n` at the end of its input.
///
/// Not copyable: it owns its memory, freed when it goes away. The raw-memory
/// invariants: `storage` holds `start ≤ end ≤ storage.count` with bytes read
/// in `0..<end`; a range handed out lies in `0..<end`, and ``bytes(_:)``
/// checks that before making a view; views are valid until the next refill,
/// which moves the pending bytes to the front (overlapping copy) and may
/// reallocate. Tested in `LogLineReaderTests` (lines across chunks, long
/// lines, torn tails).
package struct LineBuffer: ~Copyable {
    /// The memory; ranges handed out index into it.
    private(set) var storage: UnsafeMutableRawBufferPointer
    /// The first byte not yet handed out (the start of the pending line).
    private(set) var start = 0
    /// The end of the bytes read.
    private(set) var end = 0
    /// Bytes in `start..<scanned` are known to hold no `\n`.
    private var scanned = 0
    /// The stream offset of `storage[0]`.
    private var origin = 0

    /// A buffer of `capacity` bytes (at least 1).
    package init(capacity: Int) {
        storage = .allocate(byteCount: max(1, capacity), alignment: 64)
    }

    deinit {
        storage.deallocate()
    }

    /// The first byte of the buffer.
    package var base: UnsafeMutableRawPointer { storage.baseAddress! }

    /// How many bytes are read but not handed out.
    package var pendingCount: Int { end - start }

    /// The bytes at `range` of the buffer (a range ``nextLine()``,
    /// ``takeCompleteLines()`` or ``takePending()`` handed out), valid until
    /// the next refill or until the buffer goes away.
    @inline(__always)
    package func bytes(_ range: Range<Int>) -> ByteView {
        precondition(range.lowerBound >= 0 && range.upperBound <= end, "LineBuffer: range outside the bytes read")
        return ByteView(UnsafeRawBufferPointer(rebasing: storage[range]))
    }

    /// The stream offset of buffer index `index`.
    func streamOffset(of index: Int) -> Int { origin + index }

    /// Empties the buffer; the next byte read is at stream offset `offset`.
    mutating func reset(streamOffset offset: Int) {
        start = 0
        end = 0
        scanned = 0
        origin = offset
    }

    // MARK: - Handing out lines

    /// The next complete line, `start..<` the index of its `\n`; the line
    /// and its `\n` are handed out. `nil` when no complete line is pending.
    @inline(__always)
    package mutating func nextLine() -> Range<Int>? {
        guard let newline = LineScanning.firstNewline(in: base, from: Swift.max(start, scanned), to: end) else {
            scanned = end
            return nil
        }
        let line = start..<newline
        start = newline + 1
        return line
    }

    /// Every complete line pending, as one range ending with the last `\n`
    /// (included); all of it is handed out. `nil` when no `\n` is pending.
    @inline(__always)
    mutating func takeCompleteLines() -> Range<Int>? {
        guard let lastNewline = LineScanning.lastNewline(in: base, from: Swift.max(start, scanned), to: end) else {
            scanned = end
            return nil
        }
        let lines = start..<(lastNewline + 1)
        start = lastNewline + 1
        scanned = start
        return lines
    }

    /// Hands out whatever is pending, terminated or not (the input's last
    /// line at its end).
    package mutating func takePending() -> Range<Int> {
        let rest = start..<end
        start = end
        scanned = end
        return rest
    }

    // MARK: - Reading

    /// ``refill(maximum:growing:_:)`` for a `read` that takes a ``MutableByteView``.
    @inline(__always)
    package mutating func refill<Failure: Error>(
        maximum: Int, growing: Bool,
        into read: (_ room: MutableByteView, _ streamOffset: Int) throws(Failure) -> Int
    ) throws(Failure) -> Int {
        try refill(maximum: maximum, growing: growing) { (room, offset) throws(Failure) in try read(MutableByteView(room), offset) }
    }

    /// Moves the pending bytes to the front, doubles the buffer if it is
    /// full and `growing` is allowed, then reads once into the free room (at
    /// most `maximum` bytes).
    ///
    /// - Parameters:
    ///   - maximum: The most bytes to ask `read` for.
    ///   - growing: Whether a full buffer (one line longer than it) may grow.
    ///   - read: Reads into the room it is given, whose first byte is at the
    ///     given stream offset; returns the count, `0` at the end.
    /// - Returns: The bytes read; `0` at the end of the stream (or when the
    ///   buffer is full and may not grow).
    package mutating func refill<Failure: Error>(
        maximum: Int, growing: Bool,
        _ read: (_ room: UnsafeMutableRawBufferPointer, _ streamOffset: Int) throws(Failure) -> Int
    ) throws(Failure) -> Int {
        if start > 0 {
            let count = end - start
            if count > 0 { base.copyMemory(from: base + start, byteCount: count) }  // overlapping: memmove semantics
            origin += start
            scanned -= start
            start = 0
            end = count
        }
        if end == storage.count && growing {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: storage.count * 2, alignment: 64)
            grown.copyMemory(from: UnsafeRawBufferPointer(rebasing: storage[..<end]))
            storage.deallocate()
            storage = grown
        }
        let roomEnd = maximum >= storage.count - end ? storage.count : end + Swift.max(0, maximum)
        let room = UnsafeMutableRawBufferPointer(rebasing: storage[end..<roomEnd])
        guard !room.isEmpty else { return 0 }
        let count = try read(room, origin + end)
        end += count
        return count
    }
}
