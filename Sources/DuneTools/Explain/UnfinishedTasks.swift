import DuneEvents

/// The tasks that started and have not ended: a fold of `task.*` records that
/// keeps, per task id, the `seq` of its latest `task.started` until a
/// `task.completed`, `task.failed` or `task.cancelled` for the same id.
///
/// `explain sync` lists them for a feature; `history` marks their starts.
///
/// ```swift
/// var open = UnfinishedTasks()
/// open.apply(TaskRecord(task: "t1", feature: "readiness", phase: .started, at: t0), seq: 7)
/// open.startSeqs   // [7]
/// ```
package struct UnfinishedTasks: Sendable, Equatable {
    private var startSeqByTask: [String: Int] = [:]

    package init() {}

    /// Folds one task record stored at `seq`.
    package mutating func apply(_ record: TaskRecord, seq: Int) {
        startSeqByTask[record.task] = record.phase == .started ? seq : nil
    }

    /// The `seq`s of the unfinished tasks' starts, ascending.
    /// - Complexity: O(t log t) for t unfinished tasks.
    package var startSeqs: [Int] { startSeqByTask.values.sorted() }
}
