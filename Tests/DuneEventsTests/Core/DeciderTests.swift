import Testing
@testable import DuneEvents

@Suite struct RefreshCoordinatorTests {
    struct Step: CustomTestStringConvertible, Sendable {
        var source: RefreshSource
        var kind: SampleKind?
        var second: Int64
        var outcome: RefreshOutcome
        var reason: ThrottleReason?
        var signal: Int
        var testDescription: String { "\(source.rawValue)@\(second)s" }
    }

    /// Runs the steps through decide/evolve and compares every whole record.
    func run(_ steps: [Step]) {
        var state = RefreshCoordinator.State()
        for step in steps {
            let at = Timestamp(epochSeconds: 1_772_230_320 + step.second, offsetSeconds: 3600)
            let record = RefreshCoordinator.decide(state, RefreshRequest(source: step.source, kind: step.kind, at: at))
            #expect(record == RefreshRecord(source: step.source, kind: step.kind, at: at, outcome: step.outcome,
                                            reason: step.reason, refreshSignal: step.signal), "\(step.testDescription)")
            RefreshCoordinator.evolve(&state, with: record)
        }
    }

    @Test func foregroundIsThrottledWithinSixtySecondsOfAPerformedRefresh() {
        run([
            Step(source: .foreground, second: 0, outcome: .performed, signal: 1),
            Step(source: .foreground, second: 59, outcome: .throttled, reason: .coordinatorThrottle, signal: 1),
            Step(source: .foreground, second: 60, outcome: .performed, signal: 2),
        ])
    }

    @Test func pullToRefreshIgnoresThrottlesAndResetsTheWindow() {
        run([
            Step(source: .foreground, second: 0, outcome: .performed, signal: 1),
            Step(source: .pullToRefresh, second: 10, outcome: .performed, signal: 2),
            Step(source: .foreground, second: 65, outcome: .throttled, reason: .coordinatorThrottle, signal: 2),
            Step(source: .foreground, second: 70, outcome: .performed, signal: 3),
        ])
    }

    @Test func backgroundDeliveryOnlyInvalidatesCaches() {
        run([
            Step(source: .backgroundDelivery, second: 0, outcome: .cacheInvalidated, signal: 0),
            Step(source: .foreground, second: 1, outcome: .performed, signal: 1),
            Step(source: .backgroundDelivery, second: 2, outcome: .cacheInvalidated, signal: 1),
        ])
    }

    @Test func observerBurstsAreThrottledPerKindThenByTheCoordinator() {
        run([
            Step(source: .healthKitObserver, kind: .hrv, second: 0, outcome: .performed, signal: 1),
            // Same kind within 60 s: type throttle.
            Step(source: .healthKitObserver, kind: .hrv, second: 5, outcome: .throttled, reason: .typeThrottle, signal: 1),
            // Another kind passes the type throttle but hits the coordinator throttle — and still records its time.
            Step(source: .healthKitObserver, kind: .stepCount, second: 6, outcome: .throttled, reason: .coordinatorThrottle, signal: 1),
            Step(source: .healthKitObserver, kind: .stepCount, second: 61, outcome: .throttled, reason: .typeThrottle, signal: 1),
            // The type-throttled hrv at 5 s did not move hrv's window: 60 s after 0 passes.
            Step(source: .healthKitObserver, kind: .hrv, second: 60, outcome: .performed, signal: 2),
            Step(source: .healthKitObserver, kind: .stepCount, second: 130, outcome: .performed, signal: 3),
        ])
    }
}

@Suite struct TaskLifecycleTests {
    let t0 = Timestamp(epochSeconds: 1_772_230_320, offsetSeconds: 0)

    @Test func startingWhileAnotherIsInFlightCancelsItFirst() {
        var state = TaskLifecycle.State()
        let first = TaskLifecycle.decide(state, TaskCommand(task: "a", feature: "readiness", phase: .started, at: t0))
        #expect(first == [TaskRecord(task: "a", feature: "readiness", phase: .started, at: t0)])
        first.forEach { TaskLifecycle.evolve(&state, with: $0) }
        let t1 = t0.adding(seconds: 5)
        let second = TaskLifecycle.decide(state, TaskCommand(task: "b", feature: "readiness", phase: .started, at: t1))
        #expect(second == [
            TaskRecord(task: "a", feature: "readiness", phase: .cancelled, at: t1, reason: .superseded, supersededBy: "b"),
            TaskRecord(task: "b", feature: "readiness", phase: .started, at: t1),
        ])
        second.forEach { TaskLifecycle.evolve(&state, with: $0) }
        #expect(state.inFlight == ["readiness": "b"])
    }

    @Test func anotherFeaturesTaskIsNotCancelled() {
        var state = TaskLifecycle.State()
        TaskLifecycle.evolve(&state, with: TaskRecord(task: "a", feature: "readiness", phase: .started, at: t0))
        let records = TaskLifecycle.decide(state, TaskCommand(task: "b", feature: "trends", phase: .started, at: t0))
        #expect(records == [TaskRecord(task: "b", feature: "trends", phase: .started, at: t0)])
    }

    @Test(arguments: ["cancelled", "Cancelled", "CANCELLED"])
    func failedWithCancelledIsStoredAsCancelled(error: String) {
        let records = TaskLifecycle.decide(TaskLifecycle.State(), TaskCommand(task: "a", feature: "readiness", phase: .failed, at: t0, error: error))
        #expect(records == [TaskRecord(task: "a", feature: "readiness", phase: .cancelled, requestedPhase: .failed, at: t0,
                                       error: error, reason: .cancelledError)])
    }

    @Test func failedWithAnotherErrorStaysFailed() {
        let records = TaskLifecycle.decide(TaskLifecycle.State(), TaskCommand(task: "a", feature: "readiness", phase: .failed, at: t0, error: "timeout"))
        #expect(records == [TaskRecord(task: "a", feature: "readiness", phase: .failed, at: t0, error: "timeout")])
    }

    @Test func endingTheCurrentTaskClearsItButAStaleEndDoesNot() {
        var state = TaskLifecycle.State()
        TaskLifecycle.evolve(&state, with: TaskRecord(task: "b", feature: "readiness", phase: .started, at: t0))
        TaskLifecycle.evolve(&state, with: TaskRecord(task: "a", feature: "readiness", phase: .completed, at: t0))
        #expect(state.inFlight == ["readiness": "b"])
        TaskLifecycle.evolve(&state, with: TaskRecord(task: "b", feature: "readiness", phase: .completed, at: t0))
        #expect(state.inFlight == [:])
    }
}
