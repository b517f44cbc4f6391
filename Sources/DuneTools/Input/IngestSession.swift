import DuneEvents

/// Feeds validated input lines to an ``EventLog`` in durable batches and
/// tallies the outcome — the engine behind `dune-replay ingest`.
///
/// Lines are submitted one by one in input order; every ``batchSize`` lines
/// (and at ``finish()``) the session hands the batch to the log, which
/// decides, appends and fsyncs it as one group commit. Rejected lines are
/// counted and reported through ``onRejection`` and never reach the log.
///
/// With `atomic`, lines are held until ``finish()`` and nothing is appended
/// when any line was rejected or conflicts.
package struct IngestSession {
    /// One rejected input line.
    package struct Rejection: Sendable, Hashable, CustomStringConvertible {
        /// The input's name (its path, or `-` for stdin).
        package var input: String
        package var line: Int
        package var reason: String

        package var description: String { "\(input):\(line): \(reason)" }
    }

    /// Progress after a durable batch.
    package struct Progress: Sendable, Hashable {
        /// The last seq now on disk (0 for an empty log).
        package var durableSeq: Int
        /// Lines acknowledged so far (appended or already appended).
        package var acknowledgedLines: Int
    }

    /// Totals for the whole session.
    package struct Summary: Sendable, Hashable {
        package var lines = 0
        package var appended = 0
        package var alreadyAppended = 0
        /// Of `alreadyAppended`, the lines of forgotten samples (never stored again).
        package var forgotten = 0
        package var conflicts = 0
        package var rejected = 0
        /// Events written (a superseding cancellation adds one).
        package var eventsAppended = 0
        package var firstSeq: Int?
        package var lastSeq: Int?
        /// With `atomic`: whether the batch was withheld because of rejections.
        package var withheld = false
        /// Outcomes per category (e.g. an Apple Health record type), sorted by name;
        /// only lines submitted with a category are counted here.
        package var categories: [CategoryCounts] = []

        package init() {}
    }

    /// Outcomes of the lines of one category.
    package struct CategoryCounts: Sendable, Hashable {
        package var name: String
        package var appended = 0
        package var alreadyAppended = 0
        package var conflicts = 0
        package var rejected = 0
    }

    package let log: EventLog
    package let atomic: Bool
    package let batchSize: Int
    package var onRejection: (Rejection) -> Void
    package var onDurable: (Progress) -> Void
    /// Called with the events of every durable batch (e.g. to feed live projections).
    package var onAppended: ([RecordedEvent]) -> Void = { _ in } {
        // Prepared sample lines are appended without being rebuilt as events; a
        // session that hands events on parses every line into a command instead.
        didSet { wantsEvents = true }
    }
    /// Whether ``onAppended`` was set (see there).
    var wantsEvents = false
    package private(set) var summary = Summary()
    private var pending: [EventLog.IngestItem] = []
    /// The `data` bytes of the pending prepared samples.
    private var pendingData: [UInt8] = []
    private var pendingOrigins: [Origin] = []
    /// The batch the log is appending while the session reads and parses on
    /// (see ``flush()``); its lines are counted when it is settled.
    var inFlight: InFlightBatch?
    /// The buffers of the last settled batch, emptied, for the next one: a
    /// new megabyte-sized buffer per batch, allocated on whichever thread
    /// the session runs on, stays in that thread's allocator arena.
    private var spareItems: [EventLog.IngestItem] = []
    private var spareData: [UInt8] = []
    private var categories: [String: CategoryCounts] = [:]
    /// Raw lines waiting to be parsed together.
    var window = RawLineWindow()
    /// The window being parsed meanwhile.
    var parsing: ParsingWindow?

    /// A batch handed to the log, and where its lines came from.
    struct InFlightBatch {
        var task: Task<Result<EventLog.ItemsResult, DuneEventsError>, Never>
        fileprivate var origins: [Origin]
        /// The batch's items and data, kept to be reused once it is settled.
        var items: [EventLog.IngestItem]
        var data: [UInt8]
    }

    /// Where a pending command came from.
    fileprivate struct Origin {
        var input: String
        var line: Int
        var category: String?
    }

    package init(log: EventLog, atomic: Bool = false, batchSize: Int = 8192,
                onRejection: @escaping (Rejection) -> Void = { _ in }, onDurable: @escaping (Progress) -> Void = { _ in }) {
        self.log = log
        self.atomic = atomic
        self.batchSize = atomic ? .max : max(1, batchSize)
        self.onRejection = onRejection
        self.onDurable = onDurable
    }

    /// Submits a validated command that came from `input` at `line`.
    ///
    /// - Parameter category: counts the outcome under this name too (see ``Summary/categories``).
    package mutating func submit(_ command: IngestCommand, input: String, line: Int, category: String? = nil) async throws(DuneEventsError) {
        try await drainWindow()
        try await enqueue(command, input: input, line: line, category: category)
    }

    /// Adds a command to the batch, appending the batch when it is full.
    mutating func enqueue(_ command: IngestCommand, input: String, line: Int, category: String?) async throws(DuneEventsError) {
        summary.lines += 1
        pending.append(.command(command))
        pendingOrigins.append(Origin(input: input, line: line, category: category))
        if pending.count >= batchSize { try await flush() }
    }

    /// Adds a prepared sample line (its `data` bytes at `sample.data` in `data`) to the batch.
    mutating func enqueue(_ sample: PreparedSample, data: [UInt8], input: String, line: Int) async throws(DuneEventsError) {
        summary.lines += 1
        var rebased = sample
        let start = pendingData.count
        pendingData.append(contentsOf: data[sample.data])
        rebased.data = start..<pendingData.count
        pending.append(.prepared(rebased))
        pendingOrigins.append(Origin(input: input, line: line, category: nil))
        if pending.count >= batchSize { try await flush() }
    }

    /// Records a line rejected before it became a command.
    ///
    /// When raw lines submitted before it are still waiting to be parsed, the
    /// rejection waits with them and is reported in its turn.
    package mutating func reject(input: String, line: Int, reason: String, category: String? = nil) {
        guard !hasWaitingLines else {
            window.lines.append(.init(start: 0, count: 0, number: line, input: input, overlong: nil, rejection: .init(reason: reason, category: category)))
            return
        }
        recordRejection(input: input, line: line, reason: reason, category: category)
    }

    mutating func recordRejection(input: String, line: Int, reason: String, category: String?) {
        summary.lines += 1
        summary.rejected += 1
        if let category { categories[category, default: CategoryCounts(name: category)].rejected += 1 }
        onRejection(Rejection(input: input, line: line, reason: reason))
    }

    /// Appends what is pending and returns the totals.
    package mutating func finish() async throws(DuneEventsError) -> Summary {
        try await drainWindow()
        try await settle()
        summary.categories = categories.values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        if atomic, summary.rejected > 0 {
            summary.withheld = !pending.isEmpty
            pending.removeAll()
            pendingData.removeAll()
            pendingOrigins.removeAll()
            return summary
        }
        try await flush()
        try await settle()
        return summary
    }

    /// Hands the pending lines to the log as one batch, once the batch before
    /// it is settled: the log decides, encodes, writes and fsyncs it while the
    /// session reads and parses the next lines. Its lines are counted, their
    /// conflicts reported and ``onDurable`` called only in ``settle()``, after
    /// the batch is durable; the log appends the batches in order (one at a time).
    private mutating func flush() async throws(DuneEventsError) {
        guard !pending.isEmpty else { return }
        try await settle()
        let (log, items, data, atomic) = (self.log, pending, pendingData, self.atomic)
        let task = Task { () -> Result<EventLog.ItemsResult, DuneEventsError> in
            do throws(DuneEventsError) {
                return .success(try await log.ingest(items: items, data: data, atomic: atomic))
            } catch {
                return .failure(error)
            }
        }
        inFlight = InFlightBatch(task: task, origins: pendingOrigins, items: items, data: data)
        swap(&pending, &spareItems)
        swap(&pendingData, &spareData)
        spareItems = []
        spareData = []
        pending.removeAll(keepingCapacity: true)
        pendingData.removeAll(keepingCapacity: true)
        pendingOrigins.removeAll(keepingCapacity: true)
    }

    /// Waits for the batch in flight to be durable and counts its lines
    /// (``finish()`` does; a caller that stops early on an error of its own
    /// calls it so that no batch is still being written when it exits).
    package mutating func settle() async throws(DuneEventsError) {
        guard var batch = inFlight else { return }
        inFlight = nil
        let result = try await batch.task.value.get()
        // The log is done with them: the next batch fills them again (in place when no one else holds them).
        spareItems = batch.items
        spareData = batch.data
        batch.items = []
        batch.data = []
        for (index, outcome) in result.results.enumerated() {
            let origin = batch.origins[index]
            var counts = origin.category.map { categories[$0] ?? CategoryCounts(name: $0) }
            switch outcome.outcome {
            case .appended:
                summary.appended += 1
                counts?.appended += 1
            case .alreadyAppended:
                summary.alreadyAppended += 1
                if IngestState.isForgottenReason(outcome.reason) { summary.forgotten += 1 }
                counts?.alreadyAppended += 1
            case .conflict:
                summary.conflicts += 1
                counts?.conflicts += 1
                onRejection(Rejection(input: origin.input, line: origin.line, reason: "conflict: \(outcome.reason ?? "")"))
            }
            if let counts { categories[counts.name] = counts }
        }
        summary.categories = categories.values.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        if atomic, summary.conflicts > 0 {
            summary.appended = 0
            summary.withheld = true
        }
        if let first = result.firstSeq, let last = result.lastSeq {
            summary.firstSeq = summary.firstSeq ?? first
            summary.lastSeq = last
            summary.eventsAppended += result.appendedCount
            onAppended(result.events)
        }
        onDurable(Progress(durableSeq: try await log.lastSeq, acknowledgedLines: summary.appended + summary.alreadyAppended))
    }
}
