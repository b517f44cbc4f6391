extension LogFile {
    /// Takes the writer lock of this open file without waiting.
    ///
    /// - Returns: Whether this file now holds the lock; `false` when another
    ///   open file description (another process, or another writer of this
    ///   one) holds it.
    /// - Throws: `DuneEventsError` `.io` when `flock` fails for another reason
    ///   or the file is closed.
    package func tryLock() throws(DuneEventsError) -> Bool {
        try withDescriptor(.lock) { descriptor throws(DuneEventsError) -> Bool in
            do throws(Errno) {
                try descriptor.lockExclusive(blocking: false)
                return true
            } catch {
                if error == .wouldBlock || error == .tryAgain { return false }
                throw DuneEventsError(error, during: .lock, path: path)
            }
        }
    }

    /// Takes the writer lock of this open file, waiting for it as `wait` says.
    ///
    /// The wait polls without blocking in `flock`: a short sleep between tries,
    /// growing from 0.1 ms to 10 ms, so that `isCancelled` is asked at least
    /// every 10 ms. Call it only on a thread the library owns (the log's
    /// executor), never on a thread of Swift's cooperative pool.
    ///
    /// - Parameters:
    ///   - wait: How long to wait when another writer holds the lock.
    ///   - isCancelled: Asked between tries; when it returns `true` the wait ends.
    /// - Returns: `true` once the lock is held, `false` when `isCancelled` ended the wait.
    /// - Throws: `DuneEventsError` `.logLocked` when the wait ran out; `.io`
    ///   when `flock` fails or the file is closed.
    package func lock(_ wait: LockWait, isCancelled: () -> Bool = { false }) throws(DuneEventsError) -> Bool {
        let start = SystemClock.monotonicSeconds()
        var pause = 0.000_1
        while true {
            if try tryLock() { return true }
            if isCancelled() { return false }
            let limit: Double
            switch wait {
            case .never: limit = 0
            case .atMost(let duration): limit = duration.seconds
            case .untilAvailable: limit = .infinity
            }
            let waited = SystemClock.monotonicSeconds() - start
            guard waited < limit else {
                throw DuneEventsError(.logLocked, "log '\(path)' is in use by another writer", location: .init(path: path))
            }
            SystemClock.sleep(seconds: min(pause, limit - waited))
            pause = min(pause * 2, 0.01)
        }
    }

    /// Gives the writer lock back; the file stays open.
    package func unlock() {
        try? withDescriptor(.lock) { descriptor in descriptor.unlock() }
    }

    /// Whether the path this file was opened with still names it: `false`
    /// when the file was deleted, or replaced by a rename over its path
    /// (`forget` in another process) or a new file.
    package var isStillAtItsPath: Bool {
        guard let held = try? identity else { return false }
        return FileSystem.identity(ofPath: path) == held
    }
}

extension Duration {
    /// The duration in seconds, fractions included.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}

extension LogFile {
    /// Which file a path names and how long it is, at one moment.
    package struct PathStatus: Sendable, Equatable {
        package var identity: FileIdentity
        package var size: Int
    }

    /// What `path` names now (`stat(2)`); `nil` when nothing is there or it cannot be asked.
    package static func status(atPath path: String) -> PathStatus? {
        guard let status = try? FileSystem.status(ofPath: path) else { return nil }
        return PathStatus(identity: status.identity, size: status.size)
    }
}

extension LogFile {
    /// The length `<log>.synced` records as durably synced, when a record is
    /// in force for this file as it is now; `nil` otherwise. A reader uses it to
    /// tell damage a crash left past that length (which the next writer moves
    /// aside) from damage to acknowledged lines.
    package func recordedSyncedLength() -> Int? {
        try? withDescriptor(.read) { descriptor throws(DuneEventsError) -> Int? in
            recordedSyncedLength(descriptor, size: try Self.status(of: descriptor, path: path).size)
        }
    }
}
