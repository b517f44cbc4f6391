/// The task lifecycle decider (docs/input-format.md): cancel-before-spawn, and
/// cancellation is never recorded as an error.
package enum TaskLifecycle {
    /// Which task of each feature is in flight.
    ///
    /// Not `UnfinishedTasks`, though both fold the same records: this keeps
    /// one task per *feature* (the latest `started`), cleared only by an end
    /// record of that task *in that feature*; `UnfinishedTasks` keeps every
    /// started task *id*, cleared by any end record with that id. They differ
    /// when one task id is reported under two features (here one entry per
    /// feature, there one entry) or when a log holds two starts in a feature
    /// without the `superseded` cancellation between them (here only the
    /// later is in flight, there both are unfinished). The decider's answer
    /// and the checkpoint's bytes depend on this per-feature form.
    package struct State: Sendable, Equatable {
        /// Feature → the id of its task in flight.
        package var inFlight: [String: String] = [:]

        package init() {}
    }

    /// The records to store for `command`, in order.
    ///
    /// - `started` while another task of the same feature is in flight: first a
    ///   `cancelled` record (reason `superseded`) for the old task, then `started`.
    /// - `failed` with error `cancelled` (any case): recorded as `cancelled`
    ///   (reason `cancelledError`, the error kept).
    /// - `cancelled`: recorded with reason `requested`.
    package static func decide(_ state: State, _ command: TaskCommand) -> [TaskRecord] {
        switch command.phase {
        case .started:
            let started = TaskRecord(task: command.task, feature: command.feature, phase: .started, at: command.at, error: command.error)
            if let current = state.inFlight[command.feature], current != command.task {
                let cancelled = TaskRecord(task: current, feature: command.feature, phase: .cancelled, at: command.at,
                                           reason: .superseded, supersededBy: command.task)
                return [cancelled, started]
            }
            return [started]
        case .failed where command.error?.lowercased() == "cancelled":
            return [TaskRecord(task: command.task, feature: command.feature, phase: .cancelled, requestedPhase: .failed,
                               at: command.at, error: command.error, reason: .cancelledError)]
        case .cancelled:
            return [TaskRecord(task: command.task, feature: command.feature, phase: .cancelled, at: command.at,
                               error: command.error, reason: .requested)]
        case .completed, .failed:
            return [TaskRecord(task: command.task, feature: command.feature, phase: command.phase, at: command.at, error: command.error)]
        }
    }

    /// Folds a stored record into the state.
    package static func evolve(_ state: inout State, with record: TaskRecord) {
        switch record.phase {
        case .started:
            state.inFlight[record.feature] = record.task
        case .completed, .failed, .cancelled:
            if state.inFlight[record.feature] == record.task {
                state.inFlight[record.feature] = nil
            }
        }
    }
}
