import DuneEvents
import DuneProjections
import DuneTools

/// The short human summary `rebuild` prints: the latest readiness with its
/// sub-scores, the latest week against the one before, and trend directions.
enum RebuildSummary {
    static func text(state: StoreState, names: [ProjectionName], replay: Replayer.Summary, files: [ReadModelFile], directory: String?) -> String {
        var text = "Replayed \(Wording.count(replay.events, "event")) (through seq \(replay.throughSeq)).\n"
        if replay.skippedOutsideTimestampWindow > 0 {
            text += "Skipped \(skippedText(replay.skippedOutsideTimestampWindow)).\n"
        }
        if names.contains(.readiness), let day = state.readiness.days.last {
            text += "\nReadiness \(day.date): " + (day.score.map { "\(one($0)) (\(day.status.rawValue))" } ?? day.status.rawValue) + "\n"
            text += "  HRV    " + component(day.hrvScore, value: day.hrv, unit: "ms", weight: day.hrvComponent?.weight) + "\n"
            text += "  RHR    " + component(day.rhrScore, value: day.rhr, unit: "bpm", weight: day.rhrComponent?.weight) + "\n"
            text += "  Sleep  " + component(day.sleepScore, value: day.sleepMinutes, unit: "min", weight: day.sleepComponent?.weight) + "\n"
        }
        if names.contains(.weeklyStats), let week = state.weeklyStats.weeks.last {
            let totals = week.totals
            text += "\nWeek \(week.week): \(totals.workouts) workouts, \(three(totals.durationMinutes)) min, "
                + "\(three(totals.activeEnergyKcal)) kcal, \(three(totals.distanceKm)) km, \(three(totals.steps)) steps\n"
            if let comparison = week.vsPreviousWeek {
                let parts = comparison.changes.map { change in
                    "\(change.field.rawValue) \(change.delta >= 0 ? "+" : "")\(three(change.delta))"
                        + (change.changePercent.map { " (\($0 >= 0 ? "+" : "")\(one($0))%)" } ?? "")
                }
                text += "  vs previous week: " + parts.joined(separator: ", ") + "\n"
            }
        }
        if names.contains(.trends) {
            let directions = state.trends.metrics.map { "\($0.metric.rawValue) \(arrow($0.direction))" }
            if !directions.isEmpty { text += "\nTrends (last 7 days vs the 4 weeks before): " + directions.joined(separator: ", ") + "\n" }
        }
        if let directory {
            text += "\nWrote " + files.map(\.fileName).joined(separator: ", ") + " to \(directory)\n"
        }
        return text
    }

    private static func component(_ score: Double?, value: Double?, unit: String, weight: Double?) -> String {
        let scoreText = score.map { one($0).padding(6) } ?? "—".padding(6)
        let valueText = value.map { "\(three($0)) \(unit)" } ?? "no value"
        let weightText = weight.map { ", weight \(three($0))" } ?? ""
        return scoreText + "(\(valueText)\(weightText))"
    }

    private static func arrow(_ direction: TrendDirection) -> String {
        switch direction {
        case .up: "↑"
        case .down: "↓"
        case .stable: "→"
        case .insufficientData: "?"
        }
    }

    /// "2 events with a timestamp outside [1900-01-01T00:00:00Z, 2100-01-01T00:00:00Z) …".
    static func skippedText(_ count: Int) -> String {
        "\(count) event\(count == 1 ? "" : "s") with a timestamp outside \(TimestampWindow.description)"
            + " (stored by an older version; no read model counts \(count == 1 ? "it" : "them"); 'dune-replay verify' lists them)"
    }

    static func one(_ value: Double) -> String { JSONWriter.formatNumber((value * 10).rounded() / 10) }
    static func three(_ value: Double) -> String { JSONWriter.formatNumber((value * 1000).rounded() / 1000) }
}
