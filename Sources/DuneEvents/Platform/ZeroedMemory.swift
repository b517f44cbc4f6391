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
