/// A regular file mapped read-only into memory (`mmap(2)`, `PROT_READ`,
/// `MAP_PRIVATE`), unmapped when the value goes away.
///
/// Nothing is read at the mapping: a page comes from the page cache when it
/// is first touched, so a reader pays for the bytes it looks at, not for the
/// file, and the pages are the cache's (no zeroed copy of the file).
///
/// The contract of every file mapped here: it is **never truncated or
/// rewritten in place** while a process may have it mapped — a touched page
/// whose file shrank faults with SIGBUS. The files mapped (`<log>.snapshot`)
/// are only ever replaced by renaming a new file over them; the mapped inode
/// stays whole until the last mapping of it goes.
///
/// `@unchecked Sendable`: the mapping is read-only and lives exactly as long
/// as the object; ``bytes`` never changes.
package final class MappedFile: @unchecked Sendable {
    /// The whole file as it was mapped.
    package let bytes: ByteView

    /// The regular file at `path`, mapped; `nil` when it is missing, not a
    /// regular file, empty, larger than `maximumBytes`, or cannot be mapped.
    package init?(_ path: String, maximumBytes: Int = .max) {
        guard let descriptor = try? FileDescriptor.open(path, .readOnly) else { return nil }
        // The mapping outlives the descriptor.
        defer { try? descriptor.close() }
        guard let status = try? descriptor.status(), status.isRegularFile, status.size > 0, status.size <= maximumBytes,
              let base = system_mapFile(descriptor.rawValue, status.size)
        else { return nil }
        bytes = ByteView(UnsafeRawBufferPointer(start: base, count: status.size))
    }

    deinit {
        if let base = bytes.buffer.baseAddress { system_unmapMemory(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }

    /// Copies `part` (a view of this file) to the start of `destination`, 4 MiB
    /// at a time, letting each piece's pages go once copied (``release(_:)``):
    /// the process holds the bytes about once, not twice, even at its peak.
    package func copy(_ part: ByteView, releasingInto destination: MutableByteView) {
        let piece = 1 << 22
        for start in stride(from: 0, to: part.count, by: piece) {
            let slice = part.subview(start..<min(part.count, start + piece))
            destination.copy(slice, to: start)
            release(slice)
        }
    }

    /// Lets the pages wholly inside `view` (a part of this file copied out and
    /// not read again) leave the process's resident memory; they stay in the
    /// file cache and are read back if touched. Advice only.
    package func release(_ view: ByteView) {
        // 16 KiB: a whole number of pages on every platform (4 KiB Linux, 16 KiB Apple silicon).
        let page = 16_384
        guard let base = view.buffer.baseAddress else { return }
        let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + view.count) & ~(page - 1)
        guard end > start, let pointer = UnsafeRawPointer(bitPattern: start) else { return }
        system_adviseDontNeed(pointer, end - start)
    }

    /// The `count` bytes at `offset`, or `nil` when they are not all in the file.
    package func bytes(_ count: Int, at offset: Int) -> ByteView? {
        guard offset >= 0, count >= 0, offset <= bytes.count, count <= bytes.count - offset else { return nil }
        return ByteView(UnsafeRawBufferPointer(rebasing: bytes.buffer[offset..<(offset + count)]))
    }
}
