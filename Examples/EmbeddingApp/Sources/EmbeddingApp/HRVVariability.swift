import DuneProjections
import Foundation

/// The app's own read model: how much the HRV readings of each ISO week vary
/// (their standard deviation), kept current through corrections and deletions.
///
/// The fold keeps each current HRV sample's week and value by sample id;
/// the numbers are computed when read, summing in id order so that they are
/// the same on every run (a `Dictionary`'s own order changes per process).
struct HRVVariability: Codable, Sendable, Equatable {
    /// A current HRV sample: its ISO week (`2026-W05`) and value in ms.
    struct Reading: Codable, Sendable, Equatable {
        var week: String
        var milliseconds: Double
    }

    /// Current HRV samples by id.
    var readings: [String: Reading] = [:]

    /// The projection the app registers when it opens the store.
    static let projection = AppProjection(name: "weeklyHRVVariability", version: 1, initial: HRVVariability()) { model, event in
        switch event.change {
        case .sampleAdded(let sample), .sampleCorrected(_, let sample):
            model.readings[sample.id] = sample.kind == .hrv ? sample.quantity.map {
                Reading(week: sample.day.isoWeek.description, milliseconds: $0.value)
            } : nil
        case .sampleDeleted(let sample):
            model.readings[sample.id] = nil
        case .refresh, .task, .profileUpdated:
            break
        }
    }

    /// The sample standard deviation of the readings of the latest week that has two or more, with that week.
    var latestWeek: (week: String, readings: Int, standardDeviation: Double)? {
        let ordered = readings.keys.sorted().compactMap { readings[$0] }
        for week in Set(ordered.map(\.week)).sorted(by: >) {
            let values = ordered.filter { $0.week == week }.map(\.milliseconds)
            guard values.count >= 2 else { continue }
            let mean = values.reduce(0, +) / Double(values.count)
            let variance = values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
            return (week, values.count, variance.squareRoot())
        }
        return nil
    }
}
