import DuneEvents
import DuneProjections
import DuneTools
import Testing

/// Sync status: refresh signal and counts, and the per-feature task state machine.
struct SyncStatusTests {
    private func feature(_ log: LogBuilder, _ name: String) throws -> String {
        json(try #require(SyncStatusProjection(replaying: log.events).feature(name)).jsonValue)
    }

    @Test func supersededTaskIsCancelledAndItsLateCompletionIsStale() throws {
        var log = LogBuilder()
        try log.task("t1", "readiness", .started)
        // The ingest decider writes the cancellation before the new task's start.
        try log.task("t1", "readiness", .cancelled, reason: .superseded, supersededBy: "t2")
        try log.task("t2", "readiness", .started)
        #expect(try feature(log, "readiness") == #"{"counts":{"cancelled":1,"completed":0,"failed":0,"staleIgnored":0,"started":2},"currentTask":"t2","isLoading":true,"lastError":null,"phase":"loading"}"#)

        try log.task("t1", "readiness", .completed)  // t1 is not current: stale, nothing changes
        #expect(try feature(log, "readiness") == #"{"counts":{"cancelled":1,"completed":0,"failed":0,"staleIgnored":1,"started":2},"currentTask":"t2","isLoading":true,"lastError":null,"phase":"loading"}"#)

        try log.task("t2", "readiness", .completed)
        #expect(try feature(log, "readiness") == #"{"counts":{"cancelled":1,"completed":1,"failed":0,"staleIgnored":1,"started":2},"currentTask":null,"isLoading":false,"lastError":null,"phase":"loaded"}"#)
    }

    @Test func userCancellationReturnsToTheLastSettledPhaseNeverFailed() throws {
        var log = LogBuilder()
        try log.task("t1", "trends", .started)
        try log.task("t1", "trends", .cancelled, reason: .requested)
        // Nothing had settled yet: back to notStarted.
        #expect(try feature(log, "trends") == #"{"counts":{"cancelled":1,"completed":0,"failed":0,"staleIgnored":0,"started":1},"currentTask":null,"isLoading":false,"lastError":null,"phase":"notStarted"}"#)

        try log.task("t2", "trends", .started)
        try log.task("t2", "trends", .completed)
        try log.task("t3", "trends", .started)
        try log.task("t3", "trends", .cancelled, reason: .requested)
        #expect(try feature(log, "trends") == #"{"counts":{"cancelled":2,"completed":1,"failed":0,"staleIgnored":0,"started":3},"currentTask":null,"isLoading":false,"lastError":null,"phase":"loaded"}"#)

        try log.task("t4", "trends", .started)
        try log.task("t4", "trends", .failed, error: "timeout")
        try log.task("t5", "trends", .started)
        try log.task("t5", "trends", .cancelled, reason: .requested)
        // Back to failed (the last settled phase), the earlier error kept; the cancellation adds none.
        #expect(try feature(log, "trends") == #"{"counts":{"cancelled":3,"completed":1,"failed":1,"staleIgnored":0,"started":5},"currentTask":null,"isLoading":false,"lastError":"timeout","phase":"failed"}"#)

        try log.task("t6", "trends", .started)
        try log.task("t6", "trends", .completed)
        // A completion clears lastError.
        #expect(try feature(log, "trends") == #"{"counts":{"cancelled":3,"completed":2,"failed":1,"staleIgnored":0,"started":6},"currentTask":null,"isLoading":false,"lastError":null,"phase":"loaded"}"#)
    }

    @Test func failureWithErrorCancelledIsACancellationNotAnError() throws {
        var log = LogBuilder()
        try log.task("t1", "weeklyStats", .started)
        // The decider stores `failed` with error "Cancelled" as task.cancelled, reason cancelledError.
        try log.task("t1", "weeklyStats", .cancelled, requestedPhase: .failed, error: "Cancelled", reason: .cancelledError)
        #expect(try feature(log, "weeklyStats") == #"{"counts":{"cancelled":1,"completed":0,"failed":0,"staleIgnored":0,"started":1},"currentTask":null,"isLoading":false,"lastError":null,"phase":"notStarted"}"#)

        // A log written without the decider: a task.failed "CANCELLED" is still no error.
        try log.task("t2", "weeklyStats", .started)
        try log.task("t2", "weeklyStats", .failed, error: "CANCELLED")
        #expect(try feature(log, "weeklyStats") == #"{"counts":{"cancelled":2,"completed":0,"failed":0,"staleIgnored":0,"started":2},"currentTask":null,"isLoading":false,"lastError":null,"phase":"notStarted"}"#)
    }

    @Test func staleFailureAndCancellationOfNonCurrentTasksChangeNothing() throws {
        var log = LogBuilder()
        try log.task("t1", "readiness", .started)
        try log.task("t1", "readiness", .cancelled, reason: .superseded, supersededBy: "t2")
        try log.task("t2", "readiness", .started)
        try log.task("t1", "readiness", .failed, error: "network")  // stale
        try log.task("t1", "readiness", .cancelled, reason: .requested)  // stale
        try log.task("t9", "readiness", .completed)  // never started: stale
        #expect(try feature(log, "readiness") == #"{"counts":{"cancelled":1,"completed":0,"failed":0,"staleIgnored":3,"started":2},"currentTask":"t2","isLoading":true,"lastError":null,"phase":"loading"}"#)
    }

    @Test func featureAppearsOnceATaskEventNamesIt() throws {
        var log = LogBuilder()
        try log.task("x", "report", .completed)
        try log.task("t1", "readiness", .started)
        let model = SyncStatusProjection(replaying: log.events).readModel()
        #expect(model.features.map(\.feature) == ["readiness", "report"])
        #expect(try feature(log, "report") == #"{"counts":{"cancelled":0,"completed":0,"failed":0,"staleIgnored":1,"started":0},"currentTask":null,"isLoading":false,"lastError":null,"phase":"notStarted"}"#)
    }

    @Test func refreshSignalCountsAndPendingInvalidation() throws {
        var log = LogBuilder()
        try log.refresh(.foreground, at: "2026-03-02T08:00:00+01:00", outcome: .performed, signal: 1)
        try log.refresh(.healthKitObserver, kind: .hrv, at: "2026-03-02T08:00:30+01:00", outcome: .throttled,
                        reason: .typeThrottle, signal: 1)
        try log.refresh(.backgroundDelivery, at: "2026-03-02T08:05:00+01:00", outcome: .cacheInvalidated, signal: 1)
        #expect(SyncStatusProjection(replaying: log.events).refresh.pendingInvalidation)

        try log.refresh(.pullToRefresh, at: "2026-03-02T08:05:10+01:00", outcome: .performed, signal: 2)
        // A performed refresh clears the pending invalidation.
        #expect(!SyncStatusProjection(replaying: log.events).refresh.pendingInvalidation)

        try log.refresh(.backgroundDelivery, at: "2026-03-02T08:06:00+01:00", outcome: .cacheInvalidated, signal: 2)
        try log.refresh(.foreground, at: "2026-03-02T08:05:40+01:00", outcome: .throttled, reason: .coordinatorThrottle,
                        signal: 2)
        try log.task("t1", "readiness", .started)

        // lastRefreshAt is the pull-to-refresh's `at` as written; counts list only outcomes that occurred.
        let file = SyncStatusProjection(replaying: log.events).file()
        #expect(file.fileName == "sync-status.json")
        #expect(text(file.bytes) == #"{"features":{"readiness":{"counts":{"cancelled":0,"completed":0,"failed":0,"staleIgnored":0,"started":1},"currentTask":"t1","isLoading":true,"lastError":null,"phase":"loading"}},"refresh":{"counts":{"backgroundDelivery":{"cacheInvalidated":2},"foreground":{"performed":1,"throttled":1},"healthKitObserver":{"throttled":1},"pullToRefresh":{"performed":1}},"lastRefreshAt":"2026-03-02T08:05:10+01:00","pendingInvalidation":true,"refreshSignal":2},"throughSeq":7}"# + "\n")
    }

    @Test func emptyLogHasNoRefreshAndNoFeatures() {
        #expect(text(SyncStatusProjection().file().bytes) == #"{"features":{},"refresh":{"counts":{},"lastRefreshAt":null,"pendingInvalidation":false,"refreshSignal":0},"throughSeq":0}"# + "\n")
    }
}
