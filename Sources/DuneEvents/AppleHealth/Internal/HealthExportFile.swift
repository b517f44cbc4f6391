/// The export being read: an open descriptor read front to back with
/// `read(2)`, so it works for regular files and for standard input (`-`).
///
/// Kept separate from the log's descriptor wrapper on purpose: the log needs
/// positioned reads and locks, the importer one sequential stream; each maps
/// `errno` into its own wording. Not `Sendable`: one importer run owns it.
final class HealthExportFile {
    let path: String
    /// The file's size when it is a regular file, else `nil` (a pipe).
    let size: Int64?
    private let descriptor: FileDescriptor
    private let ownsDescriptor: Bool

    /// Opens `path` for reading; `-` is standard input.
    ///
    /// - Throws: `DuneEventsError(.inputUnavailable)` when the file is missing,
    ///   unreadable or a directory.
    init(path: String) throws(DuneEventsError) {
        self.path = path
        if path == "-" {
            descriptor = FileDescriptor(rawValue: 0)  // standard input
            ownsDescriptor = false
        } else {
            do throws(Errno) {
                descriptor = try FileDescriptor.open(path, .readOnly)
            } catch {
                throw Self.failure(error, opening: true, path: path)
            }
            ownsDescriptor = true
        }
        if let status = try? descriptor.status() {
            if status.isDirectory {
                if ownsDescriptor { try? descriptor.close() }
                throw DuneEventsError(.inputUnavailable,
                                      "'\(path)' is a directory; pass the export.xml inside it (apple_health_export/export.xml)",
                                      location: .init(path: path))
            }
            size = status.isRegularFile ? Int64(status.size) : nil
        } else {
            size = nil
        }
    }

    deinit {
        if ownsDescriptor { try? descriptor.close() }
    }

    /// Reads up to `count` bytes into `buffer`; `0` means end of file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(DuneEventsError) -> Int {
        do throws(Errno) {
            return try descriptor.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: count))
        } catch {
            throw Self.failure(error, opening: false, path: path)
        }
    }

    private static func failure(_ code: Errno, opening: Bool, path: String) -> DuneEventsError {
        let cause = "\(code.description) (errno \(code.rawValue))"
        let location = DuneEventsError.Location(path: path)
        switch code {
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
