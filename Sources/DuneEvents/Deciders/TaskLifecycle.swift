/// The task lifecycle decider (docs/input-format.md): cancel-before-spawn, and
/// cancellation is never recorded as an error.
package enum TaskLifecycle {
    /// Which task of each feature is in flight.
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
