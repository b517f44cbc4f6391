import Dispatch
import Synchronization

/// Tells its owner that a file may have changed, without polling where the platform can notify.
///
/// A store follows a log that other processes append to (an app, its widget,
/// the command line) with one of these: the callback says "look again", and
/// the owner reads the file's length to learn what changed. Calls are
/// coalesced (a burst of appends may give one call) and may be spurious (a
/// change to another file of the folder, an attribute change); the owner
/// must not count them.
///
/// How it watches, by platform (``mechanism``):
/// - Linux: one inotify descriptor with a watch on the file's *folder*,
///   filtered by the file's name, so that a file created later, or renamed
///   over the name, is seen like an append. Its records are read by a
///   `DispatchSource` read source: nothing runs while nothing changes.
/// - Darwin: a kqueue with `EVFILT_VNODE` filters on the file (write, extend,
///   attributes, delete, rename; opened with `O_EVTONLY`) and on its folder
///   (an entry created, removed or renamed). On a folder event the file is
///   opened again when the name now names another file, so a rename over it
///   or its creation re-arms the file's filter.
/// - Elsewhere, or where notification cannot be had (inotify or kqueue
///   refused, for example at the per-user inotify limit; the folder missing
///   or unreadable; the folder deleted or moved while watched): polling. A
///   dispatch timer compares the file's device, inode, size, modification
///   and status-change times every half second (a `stat(2)` each time, a few
///   microseconds of CPU per second while idle). A change that leaves all of
///   them equal (a rewrite in place of the same length within the file
///   system's timestamp granularity) is missed; an append-only log never
///   makes one.
///
/// `onChange` runs on a thread of the watcher's dispatch queue, never on a
/// thread of Swift's cooperative pool, one call at a time. Keep it short: it
/// should signal the owner (resume a task, yield to a stream), not do the
/// reading itself, because ``cancel()`` waits for a call in progress.
package final class FileChangeWatcher: Sendable {
    /// How a watcher learns of changes.
    package enum Mechanism: Sendable, Equatable {
        /// Linux's inotify, on the file's folder.
        case inotify
        /// Darwin's kqueue `EVFILT_VNODE`, on the file and its folder.
        case kqueue
        /// A `stat(2)` of the file every half second.
        case polling
    }

    /// The interval of the polling fallback.
    static let pollingInterval: DispatchTimeInterval = .milliseconds(500)

    private let watch: Watch

    /// Starts watching the file at `path` and its folder. `onChange` runs on a thread of the watcher's
    /// (never Swift's cooperative pool), serially, after the file may have changed: data appended or written,
    /// truncated, the file deleted, renamed away, replaced by a rename over it, or created when it was missing.
    /// Calls are coalesced and may be spurious; no change after `init` returns goes unreported.
    /// `forcePolling` (tests) uses the polling fallback.
    ///
    /// - Parameters:
    ///   - path: The file; it need not exist yet. Its folder is the text
    ///     before the last `/` (`.` when there is none).
    ///   - forcePolling: Use the polling fallback even where the platform
    ///     can notify.
    ///   - onChange: Called after each batch of possible changes.
    /// - Throws: `DuneEventsError` `.inputUnavailable` when `path` is empty
    ///   or names a directory.
    package init(path: String, forcePolling: Bool = false, onChange: @escaping @Sendable () -> Void) throws(DuneEventsError) {
        guard !path.isEmpty, !path.hasSuffix("/") else {
            throw DuneEventsError(.inputUnavailable, "cannot watch '\(path)' for changes: the path does not name a file",
                                  location: .init(path: path))
        }
        if let status = try? FileSystem.status(ofPath: path), status.isDirectory {
            throw DuneEventsError(.inputUnavailable, "cannot watch '\(path)' for changes: it is a directory, not a file",
                                  location: .init(path: path))
        }
        watch = Watch(path: path, onChange: onChange)
        watch.start(forcePolling: forcePolling)
    }

    deinit {
        watch.cancel()
    }

    /// How changes are learnt now. It becomes ``Mechanism/polling`` when the
    /// watched folder goes away (deleted or moved) while watched.
    package var mechanism: Mechanism {
        watch.mechanism
    }

    /// Stops watching; once it returns, `onChange` is not called again (idempotent; deinit cancels too).
    ///
    /// When called on another thread while `onChange` runs, it waits for
    /// that call to return. It may be called from `onChange` itself.
    package func cancel() {
        watch.cancel()
    }
}

// MARK: - The watch

/// The state behind a ``FileChangeWatcher``, shared with its dispatch
/// sources' handlers (the watcher itself is not, so that releasing it
/// cancels the sources and, with them, these handlers' references).
private final class Watch: Sendable {
    let path: String
    let folder: String
    /// The file's name in `folder`, as inotify reports it.
    let name: [UInt8]
    let queue: DispatchQueue
    let onChange: @Sendable () -> Void
    let state = Mutex(State())

    struct State: ~Copyable {
        var cancelled = false
        var mechanism = FileChangeWatcher.Mechanism.polling
        /// Every source started, kept to be cancelled; cancelling one runs its
        /// cancel handler, which closes its descriptors, on `queue`.
        var sources: [DispatchSourceBox] = []
        /// The last stamp the polling fallback saw (`nil`: no file).
        var lastStamp: FileChangeStamp?
        /// Darwin: the descriptor of the file registered with the kqueue
        /// (-1 when the file was missing), and which file it is.
        var fileDescriptor: CInt = -1
        var fileIdentity: FileIdentity?
    }

    /// Marks the queues of watchers, to tell a `cancel()` from inside `onChange`.
    private static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    init(path: String, onChange: @escaping @Sendable () -> Void) {
        self.path = path
        folder = FileSystem.parentDirectory(of: path)
        name = Array(path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).last ?? [])
        queue = DispatchQueue(label: "dune.file-change-watcher")
        self.onChange = onChange
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    var mechanism: FileChangeWatcher.Mechanism {
        state.withLock { $0.mechanism }
    }

    /// Starts the platform's notification, or polling where it cannot be had.
    /// Every filter is registered before this returns, so no later change is missed.
    func start(forcePolling: Bool) {
        if !forcePolling {
            #if canImport(Glibc) || canImport(Musl)
            if startInotify() { return }
            #elseif canImport(Darwin)
            if startKqueue() { return }
            #endif
        }
        startPolling()
    }

    func cancel() {
        state.withLock { state in
            state.cancelled = true
            for box in state.sources { box.source.cancel() }
        }
        // A call in progress on another thread finishes before this returns;
        // from inside `onChange` (on the queue), there is none other to wait for.
        if DispatchQueue.getSpecific(key: Self.queueKey) != ObjectIdentifier(self) {
            queue.sync {}
        }
    }

    /// Calls `onChange` unless cancelled. On `queue` only.
    private func deliver() {
        guard !state.withLock({ $0.cancelled }) else { return }
        onChange()
    }

    /// Keeps `source` for cancellation and activates it, unless the watch was
    /// cancelled meanwhile (then it is cancelled at once, closing its descriptors).
    private func keep(_ box: DispatchSourceBox) {
        let cancelled = state.withLock { state in
            state.sources.append(box)
            return state.cancelled
        }
        box.source.activate()
        if cancelled { box.source.cancel() }
    }

    // MARK: - Polling

    private func startPolling() {
        let stamp = FileChangeStamp(ofPath: path)
        state.withLock { state in
            state.mechanism = .polling
            state.lastStamp = stamp
        }
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + FileChangeWatcher.pollingInterval, repeating: FileChangeWatcher.pollingInterval,
                       leeway: .milliseconds(100))
        timer.setEventHandler { [self] in poll() }
        keep(DispatchSourceBox(timer))
    }

    private func poll() {
        let stamp = FileChangeStamp(ofPath: path)
        let changed = state.withLock { state in
            defer { state.lastStamp = stamp }
            return state.lastStamp != stamp
        }
        if changed { deliver() }
    }

    /// The folder watch ended (the folder deleted or moved, or reading the
    /// notifications failed): stops the notification sources (their cancel
    /// handlers close the descriptors), reports a possible change, and polls
    /// from now on.
    private func fallBackToPolling() {
        let stopped = state.withLock { state in
            defer { state.sources = [] }
            return state.sources
        }
        for box in stopped { box.source.cancel() }
        startPolling()
        deliver()
    }

    // MARK: - Linux: inotify

    #if canImport(Glibc) || canImport(Musl)
    private func startInotify() -> Bool {
        let inotify = system_inotifyInit()
        guard inotify >= 0 else { return false }
        guard system_inotifyWatchFolder(inotify, folder) >= 0 else {
            try? FileDescriptor(rawValue: inotify).close()
            return false
        }
        state.withLock { $0.mechanism = .inotify }
        let source = DispatchSource.makeReadSource(fileDescriptor: inotify, queue: queue)
        source.setEventHandler { [self] in readInotify(inotify) }
        source.setCancelHandler { try? FileDescriptor(rawValue: inotify).close() }
        keep(DispatchSourceBox(source))
        return true
    }

    private func readInotify(_ inotify: CInt) {
        let events = system_inotifyReadEvents(inotify, concerning: name)
        if events.watchEnded {
            fallBackToPolling()
        } else if events.fileMayHaveChanged {
            deliver()
        }
    }
    #endif

    // MARK: - Darwin: kqueue

    #if canImport(Darwin)
    private func startKqueue() -> Bool {
        let kqueue = system_kqueue()
        guard kqueue >= 0 else { return false }
        let folderDescriptor = system_openForEvents(folder)
        guard folderDescriptor >= 0, system_kqueueWatch(kqueue, folderDescriptor, folder: true) == 0 else {
            if folderDescriptor >= 0 { try? FileDescriptor(rawValue: folderDescriptor).close() }
            try? FileDescriptor(rawValue: kqueue).close()
            return false
        }
        state.withLock { $0.mechanism = .kqueue }
        rearmFileWatch(kqueue)
        let source = DispatchSource.makeReadSource(fileDescriptor: kqueue, queue: queue)
        source.setEventHandler { [self] in readKqueue(kqueue) }
        source.setCancelHandler { [self] in
            let file = state.withLock { state in
                defer { state.fileDescriptor = -1 }
                return state.fileDescriptor
            }
            if file >= 0 { try? FileDescriptor(rawValue: file).close() }
            try? FileDescriptor(rawValue: folderDescriptor).close()
            try? FileDescriptor(rawValue: kqueue).close()
        }
        keep(DispatchSourceBox(source))
        return true
    }

    /// Registers the file the path names now with the kqueue, unless it is
    /// the one registered already; closes the previous file's descriptor.
    private func rearmFileWatch(_ kqueue: CInt) {
        let current = FileSystem.identity(ofPath: path)
        let (registered, previous) = state.withLock { ($0.fileIdentity, $0.fileDescriptor) }
        guard current == nil || current != registered else { return }
        if previous >= 0 { try? FileDescriptor(rawValue: previous).close() }
        var descriptor = system_openForEvents(path)
        var identity: FileIdentity?
        if descriptor >= 0 {
            identity = try? FileDescriptor(rawValue: descriptor).status().identity
            if identity == nil || system_kqueueWatch(kqueue, descriptor, folder: false) != 0 {
                try? FileDescriptor(rawValue: descriptor).close()
                descriptor = -1
                identity = nil
            }
        }
        state.withLock { state in
            state.fileDescriptor = descriptor
            state.fileIdentity = identity
        }
    }

    private func readKqueue(_ kqueue: CInt) {
        let events = system_kqueueReadEvents(kqueue)
        if events.watchEnded {
            fallBackToPolling()
        } else if events.fileMayHaveChanged {
            rearmFileWatch(kqueue)
            deliver()
        }
    }
    #endif
}

/// A dispatch source kept by a ``Watch`` to be activated and cancelled.
///
/// `@unchecked Sendable`: libdispatch's objects are thread-safe (a source may
/// be activated and cancelled from any thread; its handlers run on its queue),
/// and the box holds the source only to call `activate()` and `cancel()`.
private final class DispatchSourceBox: @unchecked Sendable {
    let source: any DispatchSourceProtocol

    init(_ source: any DispatchSourceProtocol) {
        self.source = source
    }
}

// MARK: - What the system calls report

/// What a batch of notifications says about the watched file (filled by
/// `system_inotifyReadEvents` and `system_kqueueReadEvents`).
struct WatchedEvents: Sendable, Equatable {
    /// Something happened to the file, or may have (a queue overflow).
    var fileMayHaveChanged = false
    /// The folder watch is over (the folder deleted, moved or unmounted, or
    /// the notifications could not be read): poll from now on.
    var watchEnded = false
}

/// What the polling fallback compares: a file's identity, size, and
/// modification and status-change times (`system_changeStamp`).
struct FileChangeStamp: Sendable, Equatable {
    var identity: FileIdentity
    var size: Int64
    var modifiedSeconds: Int64
    var modifiedNanoseconds: Int64
    var changedSeconds: Int64
    var changedNanoseconds: Int64

    /// The stamp of what `path` names now; `nil` when nothing is there.
    init?(ofPath path: String) {
        guard let stamp = system_changeStamp(path) else { return nil }
        self = stamp
    }

    init(identity: FileIdentity, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64,
         changedSeconds: Int64, changedNanoseconds: Int64) {
        self.identity = identity
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedSeconds = changedSeconds
        self.changedNanoseconds = changedNanoseconds
    }
}
