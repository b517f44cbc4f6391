/// Whole files written at once and replaced atomically: read models written
/// by `rebuild --out`, HTML reports, later snapshots.
///
/// Each file is created by ``FileSystem/createFile(_:access:ifExists:protection:applyProtection:)``
/// (mode 0600, the given protection class) as a temporary file beside its
/// destination, made durable, renamed over the destination, and the
/// directory synced: a reader sees the old file or the new one, never a part.
package enum AtomicFile {
    /// Bytes made piece by piece as they are written, after a file's parts
    /// (a section computed on the fly rather than held whole in memory): the
    /// function calls its argument with each piece in order, each a view
    /// valid only during that call.
    package typealias StreamedBytes = ((ByteView) -> Void) -> Void

    /// Creates `path` and its missing parents (mode 0700), like `mkdir -p`.
    ///
    /// - Throws: `DuneEventsError` `.io` when a directory cannot be created.
    package static func createDirectories(_ path: String) throws(DuneEventsError) {
        try FileSystem.createDirectories(path)
    }

    /// Replaces `path` with `bytes`, atomically and durably.
    ///
    /// - Parameters:
    ///   - bytes: The whole new content.
    ///   - path: The destination; its directory must exist.
    ///   - protection: The Data Protection class (applied on iOS, watchOS,
    ///     tvOS, visionOS; ignored on macOS and Linux).
    ///   - fileSystem: Where the files are written (``FileSystemWitness/system``
    ///     unless a test records the calls).
    /// - Throws: `DuneEventsError` `.io` (or `.inputUnavailable` when the
    ///   directory cannot be opened); the destination is then unchanged.
    package static func write(_ bytes: [UInt8], to path: String, protection: FileProtection = .default,
                              fileSystem: FileSystemWitness = .system) throws(DuneEventsError) {
        do throws(Errno) {
            try FileSystem.writeAtomically(bytes, to: path, protection: protection, fileSystem: fileSystem)
        } catch {
            throw DuneEventsError(error, during: .write, path: path)
        }
    }

    /// ``write(_:to:protection:fileSystem:)`` of `parts`, written one after
    /// the other from the memory that holds them (a large file is never joined
    /// into one more copy first), then of the pieces `streamed` makes.
    package static func write(parts: [ByteView], then streamed: StreamedBytes = { _ in }, to path: String,
                              protection: FileProtection = .default, fileSystem: FileSystemWitness = .system) throws(DuneEventsError) {
        do throws(Errno) {
            try FileSystem.writeAtomically(parts, then: streamed, to: path, protection: protection, fileSystem: fileSystem)
        } catch {
            throw DuneEventsError(error, during: .write, path: path)
        }
    }

    /// A whole new content written beside its destination and made durable,
    /// waiting to replace it: the slow part of ``write(_:to:protection:)``
    /// done first, so that the caller holds a lock only for the rename.
    package struct Prepared: Sendable {
        /// The temporary file (`<path>.tmp-<pid>-<n>`).
        package let temporaryPath: String
        /// The destination.
        package let path: String

        /// Renames the temporary file over the destination and syncs the directory.
        /// - Throws: `DuneEventsError` `.io`; the temporary file is removed then.
        package func commit() throws(DuneEventsError) {
            do throws(Errno) {
                try FileSystem.rename(temporaryPath, to: path)
            } catch {
                discard()
                throw DuneEventsError(error, during: .write, path: path)
            }
            do throws(Errno) {
                try FileSystem.syncDirectory(FileSystem.parentDirectory(of: path))
            } catch {
                throw DuneEventsError(error, during: .syncDirectory, path: path)
            }
        }

        /// Removes the temporary file; the destination is unchanged.
        package func discard() {
            try? FileSystem.remove(temporaryPath)
        }
    }

    /// Writes `bytes` to a new temporary file beside `path` (mode 0600) and makes it durable.
    /// - Returns: The file, to ``Prepared/commit()`` or ``Prepared/discard()``.
    /// - Throws: `DuneEventsError` `.io`; nothing is left behind then.
    package static func prepare(_ bytes: [UInt8], for path: String, protection: FileProtection = .default) throws(DuneEventsError) -> Prepared {
        try bytes.withUnsafeBytes { buffer in
            Result { () throws(DuneEventsError) in try prepare(parts: [ByteView(buffer)], for: path, protection: protection) }
        }.get()
    }

    /// Writes `parts`, one after the other, then the pieces `streamed` makes,
    /// to a new temporary file beside `path` (mode 0600) and makes it durable.
    /// - Returns: The file, to ``Prepared/commit()`` or ``Prepared/discard()``.
    /// - Throws: `DuneEventsError` `.io`; nothing is left behind then.
    package static func prepare(parts: [ByteView], then streamed: StreamedBytes = { _ in }, for path: String,
                                protection: FileProtection = .default) throws(DuneEventsError) -> Prepared {
        do throws(Errno) {
            return Prepared(temporaryPath: try FileSystem.writeTemporary(parts, then: streamed, beside: path, protection: protection),
                            path: path)
        } catch {
            throw DuneEventsError(error, during: .write, path: path)
        }
    }
}
