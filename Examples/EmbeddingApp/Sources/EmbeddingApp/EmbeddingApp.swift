import DuneProjections
import Foundation

/// What an iOS app does with DuneEvents, end to end: open the store, feed it
/// what HealthKit delivers, record a refresh and a load task, wait for the
/// store to say the read models changed, show readiness, close.
@main
struct EmbeddingApp {
    static func main() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("EmbeddingApp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let store = try await DuneStore.open(at: directory.appendingPathComponent("events.jsonl").path)

        // A view model subscribes before anything is appended.
        let firstUpdate = Task { () -> StoreUpdate? in
            for await update in store.updates { return update }
            return nil
        }

        // Thirty mornings of samples, as the observer delivers them.
        let observer = FakeHealthKitObserver()
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

        guard let update = await firstUpdate.value else {
            print("no update received")
            return
        }
        print("appended \(appended) samples; refresh: \(refresh)")
        print("update received: throughSeq \(update.throughSeq), changed \(update.changedModels.map(\.description).sorted())")

        let readiness = await store.readiness
        if let today = readiness.days.last {
            let score = today.score.map { String(format: "%.1f", $0) } ?? "–"
            print("readiness \(today.date): \(score) (\(today.status))")
        }
        let sync = await store.syncStatus
        if let load = sync.features.first(where: { $0.feature == "readiness" }) {
            print("readiness load: \(load.phase), loading: \(load.isLoading), cancelled: \(load.counts.cancelled)")
        }
        await store.close()
    }
}
