import DuneEvents

/// One feature's load state (docs/read-models.md).
public struct FeatureLoadState: Sendable, Equatable {
    /// The feature's name, as the task reports gave it (`readiness`, …).
    public let feature: String
    /// Where the feature's loading stands now.
    public private(set) var phase = LoadPhase.notStarted
    /// The phase before the current load began: `notStarted`, `loaded` or `failed`.
    /// A cancellation returns here.
    public private(set) var settledPhase = LoadPhase.notStarted
    /// The task in flight; `nil` when nothing is.
    public private(set) var currentTask: String?
    /// The error of the last failure; cleared by a completion, untouched by cancellation.
    public private(set) var lastError: String?
    /// How many task events of each kind the feature had.
    public private(set) var counts = TaskCounts()
    /// The `seq` of the last task event that named this feature.
    public private(set) var lastEventSeq = 0

    package init(feature: String) {
        self.feature = feature
    }

    /// A state as a snapshot recorded it.
    package init(feature: String, phase: LoadPhase, settledPhase: LoadPhase, currentTask: String?, lastError: String?,
                 counts: TaskCounts, lastEventSeq: Int) {
        self.feature = feature
        self.phase = phase
        self.settledPhase = settledPhase
        self.currentTask = currentTask
        self.lastError = lastError
        self.counts = counts
        self.lastEventSeq = lastEventSeq
    }

    /// Whether a task is in flight.
    public var isLoading: Bool { phase == .loading }

    /// Folds one task record of this feature.
    ///
    /// - `started`: the task becomes current and the phase `loading` (a task
    ///   still current is replaced without a count: the log records
    ///   `task.cancelled` `superseded` for it first).
    /// - `completed` of the current task: `loaded`, `lastError` cleared.
    /// - `failed` of the current task: `failed` with the error text. A failure
    ///   whose error is "cancelled" (any case) counts as a cancellation, in case a
    ///   log holds one the ingest decider did not convert.
    /// - `cancelled` of the current task: back to the last settled phase, never `failed`.
    /// - `completed`/`failed`/`cancelled` of any other task: `staleIgnored`, nothing else.
    /// - Returns: what the record did.
    @discardableResult
    package mutating func apply(_ record: TaskRecord, seq: Int) -> TaskEventEffect {
        lastEventSeq = seq
        if record.phase == .started {
            counts.started += 1
            currentTask = record.task
            phase = .loading
            return .started
        }
        guard let current = currentTask, current == record.task else {
            counts.staleIgnored += 1
            return .staleIgnored
        }
        let isCancellation = record.phase == .cancelled
            || (record.phase == .failed && record.error?.lowercased() == "cancelled")
        currentTask = nil
        if isCancellation {
            counts.cancelled += 1
            phase = settledPhase
            return .cancelled
        }
        if record.phase == .completed {
            counts.completed += 1
            phase = .loaded
            lastError = nil
            settledPhase = .loaded
            return .completed
        }
        counts.failed += 1
        phase = .failed
        lastError = record.error ?? "failed without an error message"
        settledPhase = .failed
        return .failed
    }
}
