/// A zero-filled block of memory for large hash tables (the projections'
/// sample index), freed when the value goes away.
///
/// Blocks of 2 MiB and more are mapped anonymously (`mmap(2)`, zero-filled by
/// the kernel, so nothing is written until a page is touched). On Linux they
/// are aligned to 2 MiB and given `madvise(MADV_HUGEPAGE)`: transparent huge
/// pages cut the TLB misses of random probes. Darwin has no such advice;
/// there the mapping is used as it is. Smaller blocks, and any block whose
/// mapping fails, come from the allocator and are zeroed here.
///
/// `@unchecked Sendable`: the memory is written only by the owner of the only
/// reference (the projection's index copies a shared table before writing),
/// exactly like an array's buffer.
package final class ZeroedMemory: @unchecked Sendable {
    /// The first byte; `byteCount` zero bytes when created.
    package let base: UnsafeMutableRawPointer
    /// The usable size in bytes.
    package let byteCount: Int
    private let mapping: UnsafeMutableRawPointer?
    private let mappingLength: Int

    private static let hugePage = 2 << 20

    /// Asks for transparent huge pages for the whole 2 MiB pages inside
    /// `buffer`, memory not yet touched (a large array about to be filled by a
    /// read): then filling it takes one page fault per 2 MiB, not per 4 KiB.
    /// Linux only, advice only (ignored where it is refused or unsupported).
    package static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, buffer.count >= 2 * hugePage else { return }
        let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(hugePage - 1)
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
        system_adviseHugePages(pointer, end - start)
    }

    /// - Parameter byteCount: The size; rounded up to at least 1.
    package init(byteCount requested: Int) {
        let byteCount = max(1, requested)
        self.byteCount = byteCount
        if byteCount >= Self.hugePage, let mapped = system_mapZeroedMemory(byteCount + Self.hugePage) {
            let aligned = (Int(bitPattern: mapped) + Self.hugePage - 1) & ~(Self.hugePage - 1)
            let start = UnsafeMutableRawPointer(bitPattern: aligned) ?? mapped
            system_adviseHugePages(start, byteCount)
            mapping = mapped
            mappingLength = byteCount + Self.hugePage
            base = start
        } else {
            mapping = nil
            mappingLength = 0
            base = .allocate(byteCount: byteCount, alignment: 64)
            base.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        }
    }

    deinit {
        if let mapping {
            system_unmapMemory(mapping, mappingLength)
        } else {
            base.deallocate()
        }
    }
}

// MARK: - Tables of rows as bytes

extension ZeroedMemory {
    /// An array of `count` rows whose memory `fill` writes as bytes (a table
    /// read back from a file in its in-memory layout), or `nil` when `fill`
    /// returns `false`.
    ///
    /// The invariants, which make this safe for the rows it is used for:
    /// - `Row` is a plain value for which **every byte pattern is a valid
    ///   value**: integer and floating-point fields only, no references, no
    ///   enums, nothing that needs deinitializing. Then whatever bytes `fill`
    ///   writes are valid rows; the caller checks what they mean afterwards
    ///   (a checksum, then the rows' own rules).
    /// - The view `fill` gets covers exactly `count × stride` bytes and is
    ///   valid only during the call. When `fill` fails, no row is kept.
    /// - The memory is untouched before `fill`: it is advised to use huge
    ///   pages (``adviseHugePages(_:)``), so filling it faults far less.
    package static func rows<Row: BitwiseCopyable>(of type: Row.Type, count: Int, fill: (MutableByteView) -> Bool) -> [Row]? {
        var complete = false
        let rows = [Row](unsafeUninitializedCapacity: count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[..<(count * MemoryLayout<Row>.stride)])
            adviseHugePages(raw)
            complete = fill(MutableByteView(raw))
            initialized = complete ? count : 0
        }
        return complete ? rows : nil
    }

    /// Runs `body` with a view of the bytes of `rows` in memory (a table
    /// written to a file in its in-memory layout); the view is valid only
    /// inside `body`. `Row` is a plain value as for ``rows(of:count:fill:)``.
    package static func withBytes<Row: BitwiseCopyable, Result>(of rows: [Row], _ body: (ByteView) -> Result) -> Result {
        rows.withUnsafeBytes { body(ByteView($0)) }
    }
}
