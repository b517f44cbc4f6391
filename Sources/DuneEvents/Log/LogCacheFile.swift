/// The file format and the file operations of the caches beside a log
/// (`<log>.checkpoint`, `<log>.snapshot`): a cache is whole or it is not
/// read at all.
///
/// ```
/// magic                            8 bytes ("DUNECKP1", "DUNESNP1")
/// version, 4 × section CRC-32      UInt32 each (CRCs of four equal parts of the payload)
/// payload length                   UInt64
/// payload
/// ```
package enum LogCacheFile {
    package static let headerLength = 8 + 4 + 16 + 8

    /// `payload` with its header.
    package static func frame(_ payload: [UInt8], magic: String, version: UInt32) -> [UInt8] {
        header(of: payload, magic: magic, version: version) + payload
    }

    /// The ``headerLength`` bytes that go before `payload` in its file: write
    /// them, then the payload, to write a large cache without a framed copy of it.
    package static func header(of payload: [UInt8], magic: String, version: UInt32) -> [UInt8] {
        let sections = sectionCRCs(payload)
        return header(length: payload.count, sectionCRCs: [sections.0, sections.1, sections.2, sections.3], magic: magic, version: version)
    }

    /// The header of a payload of `length` bytes whose four section CRCs
    /// are `sectionCRCs` (see ``SectionCRCs``).
    package static func header(length: Int, sectionCRCs: [UInt32], magic: String, version: UInt32) -> [UInt8] {
        var header = BinaryWriter()
        header.bytes = Array(magic.utf8)
        header.uint32(version)
        for crc in sectionCRCs { header.uint32(crc) }
        header.integer(length)
        return header.bytes
    }

    /// The section CRCs of a payload of known length, computed over its
    /// bytes handed in order, a piece at a time: the same CRCs as the header
    /// of the whole payload holds, without the payload in memory at once.
    package struct SectionCRCs {
        private let length: Int
        private let quarter: Int
        private var offset = 0
        /// The CRC of each quarter so far.
        package private(set) var crcs: [UInt32] = [0, 0, 0, 0]

        package init(payloadLength: Int) {
            length = payloadLength
            quarter = payloadLength / 4
        }

        /// Whether exactly `payloadLength` bytes were handed in.
        package var isComplete: Bool { offset == length }

        /// Continues over the next bytes of the payload.
        package mutating func update(_ bytes: ByteView) {
            var rest = bytes
            while !rest.isEmpty {
                // Sections 0–2 are `quarter` bytes; section 3 runs to the end.
                let section = quarter == 0 ? 3 : min(3, offset / quarter)
                let end = section == 3 ? Int.max : (section + 1) * quarter
                let count = min(rest.count, end - offset)
                crcs[section] = CRC32.update(crcs[section], rest.subview(0..<count))
                offset += count
                rest = rest.subview(from: count)
            }
        }
    }

    /// Why `bytes` are not a whole cache of this `magic` and `version`, or
    /// its payload.
    package static func unframe(_ bytes: [UInt8], magic: String, version: UInt32) -> Result<[UInt8], Refusal> {
        let magic = Array(magic.utf8)
        guard bytes.count >= headerLength, Array(bytes.prefix(8)) == magic else { return .failure(.notACache) }
        var header = BinaryReader(bytes, from: 8)
        guard let found = header.uint32() else { return .failure(.notACache) }
        guard found == version else { return .failure(.otherVersion(found)) }
        let stored = (header.uint32(), header.uint32(), header.uint32(), header.uint32())
        guard let length = header.integer(), length == bytes.count - headerLength else { return .failure(.damaged) }
        let payload = Array(bytes[headerLength...])
        let crcs = sectionCRCs(payload)
        guard crcs.0 == stored.0, crcs.1 == stored.1, crcs.2 == stored.2, crcs.3 == stored.3 else { return .failure(.damaged) }
        return .success(payload)
    }

    /// Why a cache file was not used.
    package enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case missing
        case notACache
        case otherVersion(UInt32)
        case damaged

        package var description: String {
            switch self {
            case .missing: "there is none"
            case .notACache: "it is not a DuneEvents cache file"
            case .otherVersion(let version): "it was written in format version \(version)"
            case .damaged: "it is damaged or incomplete (its length or CRCs do not match)"
            }
        }
    }

    /// The CRC-32 of each quarter of `payload`, computed together (`CRC32.checksums`).
    private static func sectionCRCs(_ payload: [UInt8]) -> (UInt32, UInt32, UInt32, UInt32) {
        ByteView.with(payload) { bytes in
            let quarter = bytes.count / 4
            return CRC32.checksums(bytes.subview(0..<quarter), bytes.subview(quarter..<(2 * quarter)),
                                   bytes.subview((2 * quarter)..<(3 * quarter)), bytes.subview(from: 3 * quarter))
        }
    }

    // MARK: - Files

    /// The bytes of the regular file at `path`; `nil` when it is missing, not
    /// a regular file, cannot be read whole, or is larger than `maximumBytes`
    /// (a cache is smaller than the log it covers; a larger file is not read).
    package static func read(_ path: String, maximumBytes: Int = .max) -> [UInt8]? {
        guard let reader = Reader(path, maximumBytes: maximumBytes) else { return nil }
        return reader.bytes(reader.size, at: 0)
    }

    /// A cache file opened to be read in parts, straight into the buffers
    /// that keep them (the snapshot's rows): no copy of the whole file.
    /// Closed when the value goes away.
    package final class Reader {
        private let descriptor: FileDescriptor
        /// The file's size when it was opened.
        package let size: Int

        /// The regular file at `path`, or `nil` when it is missing, not a
        /// regular file, or larger than `maximumBytes`.
        package init?(_ path: String, maximumBytes: Int = .max) {
            guard let descriptor = try? FileDescriptor.open(path, .readOnly) else { return nil }
            guard let status = try? descriptor.status(), status.isRegularFile, status.size <= maximumBytes else {
                try? descriptor.close()
                return nil
            }
            self.descriptor = descriptor
            size = status.size
        }

        deinit {
            try? descriptor.close()
        }

        /// Fills `buffer` with the bytes at `offset`; false when the file ends first or cannot be read.
        package func read(into buffer: MutableByteView, at offset: Int) -> Bool {
            guard offset >= 0, offset <= size, buffer.count <= size - offset else { return false }
            return (try? descriptor.readExactly(into: buffer, atOffset: offset)) != nil
        }

        /// `count` bytes at `offset`, or `nil` when the file ends first or cannot be read.
        package func bytes(_ count: Int, at offset: Int) -> [UInt8]? {
            guard count >= 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: count)
            let complete = MutableByteView.with(&bytes) { read(into: $0, at: offset) }
            return complete ? bytes : nil
        }
    }

    /// Whether a file exists at `path`.
    package static func exists(_ path: String) -> Bool {
        (try? FileSystem.status(ofPath: path)) != nil
    }

    /// Removes the temporary files (`<path>.tmp-<pid>`) that a process killed
    /// while writing `path` atomically left behind. Call it only while holding
    /// the log's writer lock, when no other process writes `path`.
    package static func removeTemporaries(of path: String) {
        let directory = FileSystem.parentDirectory(of: path)
        let prefix = String(path.split(separator: "/").last ?? Substring(path)) + ".tmp-"
        for name in FileSystem.entries(ofDirectory: directory) ?? [] where name.hasPrefix(prefix) {
            remove(directory + "/" + name)
        }
    }

    /// Removes the file at `path`, if any.
    package static func remove(_ path: String) {
        try? FileSystem.remove(path)
    }
}
