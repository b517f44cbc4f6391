/// The rows of a ``SampleBlock``: an array, or rows read where they lie in a
/// mapped file (a projection snapshot's rows section), never copied.
///
/// Reading a restored snapshot's million rows in place costs the pages a
/// reader touches, from the file cache, instead of a fresh copy of them all:
/// no zeroed memory to fault in, and pages the system can drop and read back
/// under memory pressure (a widget's limit counts them apart from the
/// process's own memory).
///
/// Rows in a file are read with unaligned loads: a row's bytes there must be
/// its bytes in memory (the caller checks the layout, see the snapshot's
/// `PackedSample.hasSnapshotLayout`), and every byte pattern is a valid
/// ``PackedSample`` (integers and a `Double`), so any bytes read are rows;
/// what they mean is checked by whoever maps them. The file is never
/// rewritten in place (see ``MappedFile``), so the rows never change.
package struct PackedRows: RandomAccessCollection, Sendable {
    /// The rows when they are in memory; empty when they are in `file`.
    private let array: [PackedSample]
    /// The mapped file holding the rows, back to back from `offset`; `nil` for an array.
    private let file: MappedFile?
    private let offset: Int
    package let endIndex: Int

    /// The rows of `array`.
    package init(_ array: [PackedSample]) {
        self.array = array
        file = nil
        offset = 0
        endIndex = array.count
    }

    /// The `count` rows of `file` from `offset`, each ``PackedSample/byteCount``
    /// bytes in the in-memory layout; `nil` when they are not all in the file.
    package init?(in file: MappedFile, offset: Int, count: Int) {
        guard count >= 0, file.bytes(count * PackedSample.byteCount, at: offset) != nil else { return nil }
        array = []
        self.file = file
        self.offset = offset
        endIndex = count
    }

    package var startIndex: Int { 0 }

    @inline(__always)
    package subscript(position: Int) -> PackedSample {
        guard let file else { return array[position] }
        precondition(position >= 0 && position < endIndex, "PackedRows: row out of range")
        return file.bytes.load(at: offset + position * PackedSample.byteCount, as: PackedSample.self)
    }

    /// Calls `body` with each row's position and the row, in order, until it
    /// returns `false`: one loop over the rows' memory, for a pass over all of
    /// them from another module (where iterating the collection goes through
    /// its protocol witnesses row by row).
    /// - Returns: Whether `body` returned `true` for every row.
    @discardableResult
    package func forEachRow(_ body: (_ position: Int, _ row: PackedSample) -> Bool) -> Bool {
        withMemoryBytes { bytes in
            for position in 0..<endIndex where !body(position, bytes.load(at: position * PackedSample.byteCount, as: PackedSample.self)) {
                return false
            }
            return true
        }
    }

    /// Whether the rows are read in place from a mapped file.
    package var isMapped: Bool { file != nil }

    /// Calls `body` with the rows' bytes in their in-memory layout (the
    /// array's memory or the file's bytes, not a copy); the view is valid only
    /// inside `body`.
    package func withMemoryBytes<Result>(_ body: (ByteView) -> Result) -> Result {
        guard let file else { return ByteView.with(bytesOf: array, body) }
        return body(file.bytes(endIndex * PackedSample.byteCount, at: offset) ?? .empty)
    }
}

extension PackedSample {
    /// The bytes of one row in memory (and in a snapshot file).
    package static let byteCount = 64
}
