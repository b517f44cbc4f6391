/// Whole files written at once and replaced atomically: read models written
/// by `rebuild --out`, HTML reports, later snapshots.
///
/// Each file is created by ``FileSystem/createFile(_:access:ifExists:protection:)``
/// (mode 0600, the given protection class) as a temporary file beside its
/// destination, made durable, renamed over the destination, and the
/// directory synced: a reader sees the old file or the new one, never a part.
package enum AtomicFile {
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
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(Errno) in try FileSystem.writeAtomically(buffer, to: path, protection: protection, fileSystem: fileSystem) }
        }
        do throws(Errno) {
            try result.get()
        } catch {
            throw DuneEventsError(error, during: .write, path: path)
        }
    }
}
