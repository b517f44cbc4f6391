import DuneEvents
import DuneProjections
import DuneTools

/// The terminal summary of `dune-replay report`: readiness with its sub-scores
/// and a 28-day sparkline, HRV against its normal range, last night's sleep,
/// this week against last week, and CTL / ATL / TSB.
enum TerminalReport {
    /// Days in the readiness sparkline.
    static let sparklineDays = 28

    static func text(_ data: ReportData, color: Bool) -> String {
        let style = TextStyle(enabled: color)
        var text = style.bold("DuneEvents report") + " — log through seq \(data.throughSeq)"
            + (data.lastDay.map { ", last day with data \($0)" } ?? ", no samples yet") + "\n"
        text += "\n" + readiness(data, style)
        text += "\n" + hrv(data, style)
        text += "\n" + sleep(data, style)
        text += "\n" + weeks(data, style)
        text += "\n" + load(data, style)
        text += "\n" + sync(data, style)
        return text
    }

    // MARK: - Sections

    static func readiness(_ data: ReportData, _ style: TextStyle) -> String {
        guard let day = data.readiness.days.last else { return style.bold("Readiness") + ": no data\n" }
        var text = style.bold("Readiness \(day.date)") + ": "
            + (day.score.map { colored(one($0) + " " + day.status.rawValue, day.status, style) } ?? day.status.rawValue) + "\n"
        text += "  HRV " + score(day.hrvScore) + "   RHR " + score(day.rhrScore) + "   Sleep " + score(day.sleepScore)
            + "   (weights 0.5 / 0.25 / 0.25 of the available ones)\n"
        let days = data.readinessDays(last: sparklineDays)
        let line = days.map { entry -> String in
            guard let day = entry.day, let score = day.score else { return " " }
            return colored(String(sparkline(score)), day.status, style)
        }.joined()
        let scores = days.compactMap { $0.day?.score }
        text += "  \(days.first?.date.description ?? "") \(line) \(days.last?.date.description ?? "")"
        if let low = scores.min(), let high = scores.max() { text += "   min \(one(low)), max \(one(high))" }
        text += "\n  (one character a day, ▁ = 0 … █ = 100; blank: no score)\n"
        return text
    }

    static func hrv(_ data: ReportData, _ style: TextStyle) -> String {
        guard let range = data.trends.hrvNormalRange else {
            return style.bold("HRV") + ": no normal range yet (needs 14 days of HRV in the last 60)\n"
        }
        var text = style.bold("HRV") + ": 7-day average "
        if let avg7 = range.avg7Milliseconds, let position = range.position {
            let word = position == .within ? "within" : position.rawValue
            text += "\(one(avg7)) ms, \(word) its normal range \(one(range.lowMilliseconds))–\(one(range.highMilliseconds)) ms"
        } else {
            text += "none; normal range \(one(range.lowMilliseconds))–\(one(range.highMilliseconds)) ms"
        }
        text += " (μ60 ± 0.5σ of ln HRV, n \(range.statistics.n))\n"
        if let trend = data.trends.trend(.hrv), let last = trend.daily.last {
            text += "  last value \(one(last.value)) ms on \(last.date); trend \(trend.direction.rawValue)"
                + (trend.changePercent.map { " (\(signed(one($0), $0))% vs the 4 weeks before)" } ?? "") + "\n"
        }
        return text
    }

    static func sleep(_ data: ReportData, _ style: TextStyle) -> String {
        guard let day = data.readiness.days.last else { return "" }
        guard let sleep = data.lastNight else { return style.bold("Last night") + " (\(day.date)): no sleep recorded\n" }
        var text = style.bold("Last night") + " (\(day.date)): \(duration(sleep.minutes)) \(sleep.basis == .asleep ? "asleep" : "in bed")"
            + ", target \(duration(data.readiness.sleepTargetMinutes))"
            + (day.sleepScore.map { ", sleep score \(one($0))" } ?? "") + "\n"
        text += "  " + sleep.union.map { "\(clock($0.start))–\(clock($0.end))" }.joined(separator: ", ")
            + " (\(sleep.union.count) interval\(sleep.union.count == 1 ? "" : "s") after the union of \(Wording.count(sleep.samples.count, "sample")))\n"
        return text
    }

    static func weeks(_ data: ReportData, _ style: TextStyle) -> String {
        guard let week = data.weekly.weeks.last else { return style.bold("Weeks") + ": no data\n" }
        let previous = data.weekly.weeks.count > 1 ? data.weekly.weeks[data.weekly.weeks.count - 2] : nil
        var text = style.bold("This week \(week.week)") + (previous.map { " vs last week \($0.week)" } ?? "")
        if let last = data.lastDay, last.isoWeek == week.week, last.isoWeekday < 7 {
            text += " (data through \(last), day \(last.isoWeekday) of 7)"
        }
        text += ":\n"
        let rows: [(String, WeeklyField)] = [("workouts", .workouts), ("minutes", .durationMinutes), ("kcal", .activeEnergyKcal),
                                             ("km", .distanceKm), ("active days", .activeDays), ("steps", .steps)]
        for (title, field) in rows {
            var line = "  " + title.padding(12) + one(week.totals[field]).padding(10)
            if let previous {
                line += "vs " + one(previous.totals[field]).padding(10)
                if let change = week.vsPreviousWeek?[field] {
                    line += change.changePercent.map { signed(one($0), $0) + "%" } ?? "—"
                }
            }
            while line.last == " " { line.removeLast() }
            text += line + "\n"
        }
        return text
    }

    static func load(_ data: ReportData, _ style: TextStyle) -> String {
        guard let day = data.trends.trainingLoad.last else { return style.bold("Training load") + ": no workouts yet\n" }
        return style.bold("Training load \(day.date)") + ": CTL \(one(day.ctl)) (fitness, 42 d)   ATL \(one(day.atl)) (fatigue, 7 d)   "
            + "TSB \(signed(one(day.tsb), day.tsb)) (form)   in workout minutes a day\n"
    }

    static func sync(_ data: ReportData, _ style: TextStyle) -> String {
        let refresh = data.sync.refresh
        var text = style.bold("Sync") + ": refresh signal \(refresh.refreshSignal)"
            + (refresh.lastRefreshAt.map { ", last refresh \($0.text)" } ?? "")
            + (refresh.pendingInvalidation ? ", caches invalidated since" : "") + "\n"
        for feature in data.sync.features {
            var line = "  " + feature.feature.terminalSafe.padding(14) + feature.phase.rawValue
            if let task = feature.currentTask { line += " (task \(task.terminalSafe) in flight)" }
            if let error = feature.lastError { line += style.red(" — last error: \(error.terminalSafe)") }
            text += line + "\n"
        }
        return text
    }

    // MARK: - Formatting

    /// ▁▂▃▄▅▆▇█ for 0…100.
    static func sparkline(_ score: Double) -> Character {
        let blocks: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        return blocks[min(blocks.count - 1, max(0, Int(score / 100 * Double(blocks.count))))]
    }

    private static func colored(_ text: String, _ status: ReadinessStatus, _ style: TextStyle) -> String {
        guard style.enabled else { return text }
        switch status {
        case .ready: return "\u{1B}[32m\(text)\u{1B}[0m"
        case .moderate: return style.yellow(text)
        case .rest: return style.red(text)
        case .insufficientData: return text
        }
    }

    private static func score(_ value: Double?) -> String { value.map(one) ?? "—" }

    static func one(_ value: Double) -> String { JSONWriter.formatNumber(Rounding.tenths(value)) }

    private static func signed(_ text: String, _ value: Double) -> String { value > 0 ? "+" + text : text }

    /// `7 h 40 min`.
    static func duration(_ minutes: Double) -> String {
        let total = Int(minutes.rounded())
        return "\(total / 60) h \(total % 60) min"
    }

    /// `23:01` from a timestamp as written (its own offset).
    static func clock(_ timestamp: Timestamp) -> String {
        let text = timestamp.text
        guard let t = text.firstIndex(of: "T") else { return text }
        return String(text[text.index(after: t)...].prefix(5))
    }
}
