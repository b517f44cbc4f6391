import DuneProjections

/// Appends trace lines to a file, on a queue the library owns (a `write`
/// never holds a cooperative thread). The file is opened on the first line:
/// appended to when it exists, created (0600, the given protection) when not.
actor SyncTraceWriter {
    private nonisolated let executor = DispatchQueueExecutor(label: "dune.sync-trace")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let path: String
    private let protection: FileProtection
    private var descriptor: FileDescriptor?
    /// The error that stopped recording, if any.
    private(set) var failure: DuneEventsError?

    init(path: String, protection: FileProtection) {
        self.path = path
        self.protection = protection
    }

    /// Appends `line` and a newline; after a failure, does nothing.
    func write(_ line: String) {
        guard failure == nil else { return }
        var operation = FileOperation.open
        do throws(Errno) {
            let descriptor: FileDescriptor
            if let opened = self.descriptor { descriptor = opened } else { descriptor = try open() }
            self.descriptor = descriptor
            operation = .write
            try descriptor.writeAll(Array((line + "\n").utf8))
        } catch {
            failure = DuneEventsError(error, during: operation, path: path)
            if let descriptor { try? descriptor.close() }
            descriptor = nil
        }
    }

    private func open() throws(Errno) -> FileDescriptor {
        do throws(Errno) {
            return try FileDescriptor.open(path, .readWriteAppend)
        } catch where error == .noSuchFile {
            return try FileSystem.createFile(path, access: .readWriteAppend, ifExists: .fail, protection: protection)
        }
    }

    deinit {
        if let descriptor { try? descriptor.close() }
    }
}
