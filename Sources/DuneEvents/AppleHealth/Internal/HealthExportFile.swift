// Linux only (the project's platform): Glibc, as STYLE.md says.
@preconcurrency import Glibc

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
    private let descriptor: CInt
    private let ownsDescriptor: Bool

    /// Opens `path` for reading; `-` is standard input.
    ///
    /// - Throws: `DuneEventsError(.inputUnavailable)` when the file is missing,
    ///   unreadable or a directory.
    init(path: String) throws(DuneEventsError) {
        self.path = path
        if path == "-" {
            descriptor = STDIN_FILENO
            ownsDescriptor = false
        } else {
            var opened: CInt
            repeat {
                opened = open(path, O_RDONLY | O_CLOEXEC)
            } while opened == -1 && errno == EINTR
            guard opened >= 0 else { throw Self.failure(errno, opening: true, path: path) }
            descriptor = opened
            ownsDescriptor = true
        }
        var info = stat()
        if fstat(descriptor, &info) == 0 {
            if info.st_mode & S_IFMT == S_IFDIR {
                if ownsDescriptor { _ = close(descriptor) }
                throw DuneEventsError(.inputUnavailable,
                                      "'\(path)' is a directory; pass the export.xml inside it (apple_health_export/export.xml)",
                                      location: .init(path: path))
            }
            size = info.st_mode & S_IFMT == S_IFREG ? Int64(info.st_size) : nil
        } else {
            size = nil
        }
    }

    deinit {
        if ownsDescriptor { _ = close(descriptor) }
    }

    /// Reads up to `count` bytes into `buffer`; `0` means end of file.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) throws(DuneEventsError) -> Int {
        while true {
            let result = Glibc.read(descriptor, buffer, count)
            if result >= 0 { return result }
            let code = errno
            if code != EINTR { throw Self.failure(code, opening: false, path: path) }
        }
    }

    private static func failure(_ code: CInt, opening: Bool, path: String) -> DuneEventsError {
        let cause = "\(String(cString: strerror(code))) (errno \(code))"
        let location = DuneEventsError.Location(path: path)
        switch code {
        case ENOENT where opening:
            return DuneEventsError(.inputUnavailable, "'\(path)' does not exist: \(cause); check the path (unzip export.zip and pass apple_health_export/export.xml)", location: location)
        case EACCES, EPERM:
            return DuneEventsError(.inputUnavailable, "cannot open '\(path)': \(cause); check the file's permissions", location: location)
        case EISDIR:
            return DuneEventsError(.inputUnavailable, "'\(path)' is a directory; pass the export.xml inside it", location: location)
        default:
            let verb = opening ? "open" : "read"
            return DuneEventsError(.inputUnavailable, "cannot \(verb) '\(path)': \(cause); check the path and the disk", location: location)
        }
    }
}
