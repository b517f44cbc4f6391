import DuneProjections
import Foundation

/// What an iOS app does with DuneEvents, end to end: open the store, observe
/// its state, feed it what HealthKit delivers, record a refresh and a load
/// task, show readiness, and let a widget read the same log read-only.
///
/// With flags (`--log`, `--append`, `--source`, `--read-only`, `--hold`) it
/// runs one process of several sharing one log instead; see ``Arguments``.
@main
struct EmbeddingApp {
    static func main() async throws {
        let arguments: Arguments
        do {
            arguments = try Arguments(Array(CommandLine.arguments.dropFirst()))
        } catch {
            printError("EmbeddingApp: \(error.message)\n\(Arguments.usage)")
            exit(64)
        }
        if arguments.isDemo {
            try await demo()
        } else {
            exit(await SharedLogProcess(arguments: arguments).run())
        }
    }

    /// The demo `.ci/run` runs: deterministic output, a log in a temporary folder.
    static func demo() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("EmbeddingApp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let logURL = directory.appendingPathComponent("events.jsonl")   // an App Group container's URL in an app

        // The app opens the log read-write, with a read model of its own. No lock is held while it is idle.
        var options = DuneStore.Options()
        options.register(HRVVariability.projection)
        let store = try await DuneStore.open(at: logURL, options: options)

        // An observation's first element is the current state (an empty log here).
        let observer = FakeHealthKitObserver()
        let before = try await firstState(of: store)
        print("states: first element throughSeq \(before) before any append")

        // Thirty mornings of samples, as the observer delivers them.
        var appended = 0
        for day in 0..<30 {
            let outcomes = try await store.append(observer.samples(forMorning: day).map { StoreInput.sample($0) })
            appended += outcomes.filter { if case .appended = $0 { true } else { false } }.count
        }

        // The observer fired for HRV; then a readiness load started and was cancelled by the user.
        let now = observer.firstMorning.adding(seconds: 29 * 86_400 + 300)
        let refresh = try await store.append(.refresh(RefreshRequest(source: .healthKitObserver, kind: .hrv, at: now)))
        _ = try await store.append(.task(TaskCommand(task: "load-1", feature: "readiness", phase: .started, at: now)))
        _ = try await store.append(.task(TaskCommand(task: "load-1", feature: "readiness", phase: .cancelled,
                                                     at: now.adding(seconds: 2))))
        print("appended \(appended) samples; refresh: \(refresh)")

        // One read gives the four read models at one seq.
        let state = await store.state
        print("state: throughSeq \(state.throughSeq); readiness, trends, weekly stats and sync status all at "
              + "\(Set([state.readiness.throughSeq, state.trends.throughSeq, state.weeklyStats.throughSeq, state.syncStatus.throughSeq]).sorted())")
        if let today = state.readiness.days.last {
            let score = today.score.map { String(format: "%.1f", $0) } ?? "–"
            print("readiness \(today.date): \(score) (\(today.status))")
        }
        if let load = state.syncStatus.features.first(where: { $0.feature == "readiness" }) {
            print("readiness load: \(load.phase), loading: \(load.isLoading), cancelled: \(load.counts.cancelled)")
        }
        // The app's own read model, from the same state value as the four built-in ones.
        if let week = try state.model(of: HRVVariability.projection).latestWeek {
            print("app projection: weeklyHRVVariability \(week.week): \(week.readings) readings, SD "
                  + String(format: "%.2f", week.standardDeviation) + " ms")
        }
        // A query: the HRV points behind a chart of the last seven days, in time order, at the state's seq.
        if let last = state.readiness.days.last?.date {
            let hrv = await store.samples(of: .hrv, in: last.adding(days: -6)...last)
            let values = hrv.samples.compactMap { $0.quantity.map { String(format: "%.0f", $0.value) } }
            print("query: \(hrv.samples.count) hrv samples \(last.adding(days: -6))...\(last) at throughSeq \(hrv.throughSeq): "
                  + values.joined(separator: ", "))
        }
        let current = try await firstState(of: store)
        print("states: first element throughSeq \(current) after the appends (the current state)")

        // A widget opens the same log read-only: it never takes the lock and never writes a file.
        var widgetOptions = DuneStore.Options(access: .readOnly)
        widgetOptions.register(HRVVariability.projection)
        let widget = try await DuneStore.open(at: logURL, options: widgetOptions)
        let widgetState = await widget.state
        print("read-only store: throughSeq \(widgetState.throughSeq), same state as the app's: \(widgetState == state)")
        do {
            _ = try await widget.append(.sample(observer.samples(forMorning: 30)[1]))
            print("read-only store appended (unexpected)")
        } catch let error as DuneEventsError {
            print("read-only store refuses appends: \(error.code)")
        }

        // The widget follows the app's next append through file notifications:
        // its observation starts now and ends once it sees the three new samples.
        let target = widgetState.throughSeq + 3
        let widgetSees = Task { () -> Int? in
            for try await state in widget.states where state.throughSeq >= target { return state.throughSeq }
            return nil
        }
        let next = try await store.append(observer.samples(forMorning: 30).map { StoreInput.sample($0) })
        let timeout = Task {
            try await Task.sleep(for: .seconds(10))
            widgetSees.cancel()
        }
        let seen = try await widgetSees.value
        timeout.cancel()
        guard let seen else {
            print("the read-only store did not see the app's append within 10 s")
            exit(1)
        }
        print("app appended \(next.filter(\.isStored).count) more; the read-only store's observation reached throughSeq \(seen)")

        await widget.close()
        await store.close()
    }

    /// The first element of `store`'s states: its current state's seq.
    static func firstState(of store: DuneStore) async throws -> Int {
        for try await state in store.states { return state.throughSeq }
        return -1
    }
}
