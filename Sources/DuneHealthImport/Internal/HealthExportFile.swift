import DuneEvents

/// The export being read: the platform layer's ``SequentialFile``, read
/// front to back, so it works for regular files and for standard input (`-`).
///
/// Kept separate from the log's descriptor wrapper on purpose: the log needs
/// positioned reads and locks, the importer one sequential stream; each words
/// the failures its own way. Not `Sendable`: one importer run owns it.
final class HealthExportFile {
    let path: String
    /// The file's size when it is a regular file, else `nil` (a pipe).
    let size: Int64?
    private let file: SequentialFile

    /// Opens `path` for reading; `-` is standard input.
    ///
    /// - Throws: `DuneEventsError(.inputUnavailable)` when the file is missing,
    ///   unreadable or a directory.
    init(path: String) throws(DuneEventsError) {
        self.path = path
        do throws(SequentialFile.Failure) {
            file = try SequentialFile(path: path)  // `-`: standard input
        } catch {
            throw Self.failure(error, opening: true, path: path)
        }
        if file.isDirectory {
            throw DuneEventsError(.inputUnavailable,
                                  "'\(path)' is a directory; pass the export.xml inside it (apple_health_export/export.xml)",
                                  location: .init(path: path))
        }
        size = file.size
    }

    /// Reads up to `count` bytes into `buffer`; `0` means end of file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(DuneEventsError) -> Int {
        do throws(SequentialFile.Failure) {
            return try file.read(into: buffer, count: count)
        } catch {
            throw Self.failure(error, opening: false, path: path)
        }
    }

    private static func failure(_ failure: SequentialFile.Failure, opening: Bool, path: String) -> DuneEventsError {
        let cause = failure.cause
        let location = DuneEventsError.Location(path: path)
        switch failure.code {
        case .noSuchFile where opening:
            return DuneEventsError(.inputUnavailable, "'\(path)' does not exist: \(cause); check the path (unzip export.zip and pass apple_health_export/export.xml)", location: location)
        case .permissionDenied, .notPermitted:
            return DuneEventsError(.inputUnavailable, "cannot open '\(path)': \(cause); check the file's permissions", location: location)
        case .isDirectory:
            return DuneEventsError(.inputUnavailable, "'\(path)' is a directory; pass the export.xml inside it", location: location)
        default:
            let verb = opening ? "open" : "read"
            return DuneEventsError(.inputUnavailable, "cannot \(verb) '\(path)': \(cause); check the path and the disk", location: location)
        }
    }
}
