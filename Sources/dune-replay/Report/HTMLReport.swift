import DuneEvents
import DuneProjections

/// The HTML report: one self-contained file (inline CSS and SVG; no script, no
/// network) with summary cards, five charts and tables. Every string from the
/// data is escaped with ``HTMLText/escape(_:)``. No clock: the same log gives
/// the same bytes.
enum HTMLReport {
    /// Marks a page this command wrote, so `forget --out DIR` knows it may re-render it.
    static let generatorMark = #"<meta name="generator" content="dune-replay report">"#

    static func html(_ data: ReportData) -> String {
        let title = "DuneEvents report" + (data.lastDay.map { " — \($0)" } ?? "")
        var page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        \(generatorMark)
        <title>\(HTMLText.escape(title))</title>
        <style>\(style)</style>
        </head>
        <body>
        <header><h1>DuneEvents report</h1>
        <p>Log through seq \(data.throughSeq)\(data.lastDay.map { " · last day with data \($0)" } ?? " · no samples yet") · computed from the log alone, the same bytes on every run</p></header>

        """
        page += cards(data)
        page += section("readiness", "Readiness with its sub-scores", readinessChart(data))
        page += section("hrv", "HRV and its normal range", hrvChart(data))
        page += section("sleep", "Sleep per night", sleepChart(data))
        page += section("weekly", "Weekly training volume", weeklyChart(data))
        page += section("load", "Training load (CTL / ATL / TSB)", loadChart(data))
        page += "<div class=\"tables\">\n" + weekTable(data) + workoutTable(data) + sourceTable(data) + syncTable(data) + "</div>\n"
        page += "</body>\n</html>\n"
        return page
    }

    // MARK: - Layout

    /// The page's CSS. The charts are drawn 1100 wide and scale to the column
    /// (their viewBox keeps the proportions), so no width scrolls the page
    /// sideways, from a 390 px phone to a wide window; on a narrow screen the
    /// tick labels are drawn larger in chart units to stay readable when scaled
    /// down, the cards stack and the tables take one column (issue 35, item 15).
    private static let style = """
        *{box-sizing:border-box}\
        body{font:14px/1.4 -apple-system,'Segoe UI',Helvetica,Arial,sans-serif;margin:16px auto;padding:0 24px;color:#222;background:#fff;max-width:1188px}\
        h1{font-size:22px;margin:0 0 2px}h2{font-size:16px;margin:14px 0 4px}header p{color:#666;margin:0 0 10px}\
        .cards{display:flex;flex-wrap:wrap;gap:12px}.card{flex:1 1 200px;min-width:0;border:1px solid #ddd;border-radius:6px;padding:8px 12px}\
        .card b{font-size:22px}.card small{color:#666;display:block}\
        .legend{margin:2px 0 0;color:#444;font-size:12px}.legend span{margin-right:14px;white-space:nowrap;display:inline-block}\
        .legend i{display:inline-block;width:10px;height:10px;margin-right:4px;border-radius:2px}\
        svg.chart{display:block;width:100%;height:auto;max-width:1140px}.tick,.rule-label{font-size:11px;fill:#666}\
        .tables{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,440px),1fr));gap:4px 24px}.tables>*{min-width:0;overflow-x:auto}\
        table{border-collapse:collapse;font-size:12px;width:100%}td,th{border-bottom:1px solid #eee;padding:2px 6px;text-align:left;overflow-wrap:anywhere}\
        td.n{text-align:right;overflow-wrap:normal}.ready{color:#1a7f37}.moderate{color:#b35900}.rest{color:#c62828}.error{color:#c62828}\
        @media (max-width:700px){body{padding:0 10px}.tick,.rule-label{font-size:26px}}
        """

    private static func section(_ id: String, _ title: String, _ chart: SVGChart?) -> String {
        guard let chart else {
            return "<section id=\"\(id)\"><h2>\(HTMLText.escape(title))</h2><p class=\"empty\">Not enough data for this chart.</p></section>\n"
        }
        return "<section id=\"\(id)\"><h2>\(HTMLText.escape(title))</h2>\n" + chart.render() + "\n" + chart.renderLegend() + "</section>\n"
    }

    private static func cards(_ data: ReportData) -> String {
        var cards: [String] = []
        if let day = data.readiness.days.last {
            let score = day.score.map { "<b class=\"\(day.status.rawValue)\">\(one($0))</b> \(day.status.rawValue)" } ?? "<b>—</b> \(day.status.rawValue)"
            cards.append("<div class=\"card\"><small>Readiness \(day.date)</small>\(score)<small>HRV \(opt(day.hrvScore)) · RHR \(opt(day.rhrScore)) · Sleep \(opt(day.sleepScore))</small></div>")
        }
        if let range = data.trends.hrvNormalRange {
            cards.append("<div class=\"card\"><small>HRV, 7-day average</small><b>\(range.avg7Milliseconds.map(one) ?? "—")</b> ms"
                + "<small>normal \(one(range.lowMilliseconds))–\(one(range.highMilliseconds)) ms: \(range.position?.rawValue ?? "—")</small></div>")
        }
        if let sleep = data.lastNight {
            cards.append("<div class=\"card\"><small>Last night</small><b>\(TerminalReport.duration(sleep.minutes))</b>"
                + "<small>\(sleep.union.map { "\(TerminalReport.clock($0.start))–\(TerminalReport.clock($0.end))" }.joined(separator: ", "))</small></div>")
        }
        if let load = data.trends.trainingLoad.last {
            cards.append("<div class=\"card\"><small>Training load \(load.date)</small><b>\(one(load.tsb))</b> TSB"
                + "<small>CTL \(one(load.ctl)) · ATL \(one(load.atl))</small></div>")
        }
        return "<section class=\"cards\">" + cards.joined() + "</section>\n"
    }

    // MARK: - Charts

    /// Month starts as x labels over day ordinals.
    private static func monthLabels(_ range: ClosedRange<Int>) -> [SVGChart.AxisLabel] {
        range.compactMap { ordinal in
            let day = DayKey(ordinal: ordinal)
            return day.components.day == 1 ? SVGChart.AxisLabel(x: ordinal, text: String(day.description.prefix(7))) : nil
        }
    }

    static func readinessChart(_ data: ReportData) -> SVGChart? {
        let days = data.readiness.days
        guard let first = days.first?.date, let last = days.last?.date else { return nil }
        var chart = SVGChart(id: "chart-readiness", title: "Readiness score and sub-scores, \(first) – \(last)",
                             xRange: first.ordinal...last.ordinal, yRange: 0...100)
        chart.labelX(monthLabels(chart.xRange))
        chart.rule(at: ReadinessFormula.readyThreshold, label: "ready ≥ 67")
        chart.rule(at: ReadinessFormula.moderateThreshold, label: "moderate ≥ 34")
        func points(_ value: (ReadinessDay) -> Double?) -> [SVGChart.Point] {
            days.map { SVGChart.Point(x: $0.date.ordinal, y: value($0)) }
        }
        chart.line(points(\.hrvScore), name: "hrv-score", label: "HRV sub-score (weight 0.5)", color: "#7e57c2", width: 1.2)
        chart.line(points(\.rhrScore), name: "rhr-score", label: "RHR sub-score (0.25)", color: "#ef6c00", width: 1.2)
        chart.line(points(\.sleepScore), name: "sleep-score", label: "Sleep sub-score (0.25)", color: "#0097a7", width: 1.2)
        chart.line(points(\.score), name: "score", label: "Readiness", color: "#1b5e20", width: 2.6)
        return chart
    }

    static func hrvChart(_ data: ReportData) -> SVGChart? {
        guard let trend = data.trends.trend(.hrv), let first = trend.daily.first?.date, let last = data.lastDay else { return nil }
        var values = trend.daily.map(\.value)
        if let range = data.trends.hrvNormalRange { values += [range.lowMilliseconds, range.highMilliseconds] }
        guard let low = values.min(), let high = values.max() else { return nil }
        var chart = SVGChart(id: "chart-hrv", title: "HRV (ms) with its 7-day average and normal range",
                             xRange: first.ordinal...last.ordinal, yRange: (low * 0.9).rounded(.down)...(high * 1.05).rounded(.up))
        chart.labelX(monthLabels(chart.xRange))
        if let range = data.trends.hrvNormalRange {
            chart.band(from: max(first.ordinal, range.window.first.ordinal), to: last.ordinal,
                       low: range.lowMilliseconds, high: range.highMilliseconds,
                       name: "normal-band", label: "normal range μ60 ± 0.5σ (last 60 days)", color: "#43a047")
        }
        let daily = trend.daily.map { SVGChart.Point(x: $0.date.ordinal, y: $0.value) }
        chart.dots(daily, name: "hrv-daily", label: "daily HRV", color: "#5c6bc0")
        chart.line(trend.daily.map { SVGChart.Point(x: $0.date.ordinal, y: $0.avg7) }, name: "hrv-avg7", label: "7-day average", color: "#283593", width: 2.2)
        return chart
    }

    static func sleepChart(_ data: ReportData) -> SVGChart? {
        let nights = data.readiness.days.filter { $0.sleepMinutes != nil }
        guard let first = nights.first?.date, let last = nights.last?.date else { return nil }
        let longest = nights.compactMap(\.sleepMinutes).max() ?? 0
        let target = data.readiness.sleepTargetMinutes
        var chart = SVGChart(id: "chart-sleep", title: "Sleep per night (hours, union of all sources)",
                             xRange: first.ordinal...last.ordinal, yRange: 0...(max(longest, target) / 60 + 1).rounded(.up))
        chart.labelX(monthLabels(chart.xRange))
        chart.bars(nights.map { SVGChart.Point(x: $0.date.ordinal, y: $0.sleepMinutes.map { $0 / 60 }) },
                   name: "sleep-hours", label: "hours asleep", color: "#0097a7")
        chart.rule(at: target / 60, label: "target \(TerminalReport.duration(target))", color: "#c62828")
        return chart
    }

    static func weeklyChart(_ data: ReportData) -> SVGChart? {
        let weeks = data.weekly.weeks
        guard !weeks.isEmpty else { return nil }
        let most = weeks.map(\.totals.durationMinutes).max() ?? 0
        var chart = SVGChart(id: "chart-weekly", title: "Workout minutes per ISO week",
                             xRange: 0...(weeks.count - 1), yRange: 0...max(60, (most * 1.1 / 60).rounded(.up) * 60))
        chart.labelX(weeks.indices.filter { $0 % 4 == 0 || $0 == weeks.count - 1 }.map { SVGChart.AxisLabel(x: $0, text: weeks[$0].week.description) })
        chart.bars(weeks.indices.map { SVGChart.Point(x: $0, y: weeks[$0].totals.durationMinutes) },
                   name: "weekly-minutes", label: "workout minutes", color: "#3949ab")
        return chart
    }

    static func loadChart(_ data: ReportData) -> SVGChart? {
        let load = data.trends.trainingLoad
        guard let first = load.first?.date, let last = load.last?.date else { return nil }
        let values = load.flatMap { [$0.ctl, $0.atl, $0.tsb] }
        let low = min(0, values.min() ?? 0)
        let high = max(1, values.max() ?? 1)
        var chart = SVGChart(id: "chart-load", title: "Training load in workout minutes: CTL (42 d), ATL (7 d), TSB",
                             xRange: first.ordinal...last.ordinal, yRange: (low - 5).rounded(.down)...(high + 5).rounded(.up))
        chart.labelX(monthLabels(chart.xRange))
        chart.bars(load.map { SVGChart.Point(x: $0.date.ordinal, y: $0.tsb) }, name: "tsb", label: "TSB (form)",
                   color: "#90caf9", negativeColor: "#ef9a9a", fraction: 0.8)
        chart.line(load.map { SVGChart.Point(x: $0.date.ordinal, y: $0.ctl) }, name: "ctl", label: "CTL (fitness)", color: "#1565c0", width: 2.4)
        chart.line(load.map { SVGChart.Point(x: $0.date.ordinal, y: $0.atl) }, name: "atl", label: "ATL (fatigue)", color: "#e65100", width: 1.6)
        return chart
    }

    // MARK: - Tables

    private static func weekTable(_ data: ReportData) -> String {
        guard let week = data.weekly.weeks.last else { return "" }
        let previous = data.weekly.weeks.count > 1 ? data.weekly.weeks[data.weekly.weeks.count - 2] : nil
        var rows = ""
        for field in WeeklyField.allCases {
            let change = week.vsPreviousWeek?[field]
            rows += "<tr><td>\(field.rawValue)</td><td class=\"n\">\(one(week.totals[field]))</td>"
                + "<td class=\"n\">\(previous.map { one($0.totals[field]) } ?? "—")</td>"
                + "<td class=\"n\">\(change?.changePercent.map { one($0) + "%" } ?? "—")</td></tr>"
        }
        return "<section><h2>This week \(week.week) vs \(previous?.week.description ?? "—")</h2><table><tr><th></th><th>this week</th><th>last week</th><th>change</th></tr>"
            + rows + "</table></section>\n"
    }

    private static func workoutTable(_ data: ReportData) -> String {
        let weeks = data.weekly.weeks.suffix(2)
        let rows = weeks.flatMap(\.workouts).map { workout in
            "<tr><td>\(HTMLText.escape(workout.start.text))</td><td>\(HTMLText.escape(workout.activityType))</td>"
                + "<td class=\"n\">\(one(workout.minutes))</td><td class=\"n\">\(workout.energyKcal.map(one) ?? "—")</td><td class=\"n\">seq \(workout.sample.seq)</td></tr>"
        }
        return "<section><h2>Workouts, last two weeks</h2><table><tr><th>start</th><th>activity</th><th>min</th><th>kcal</th><th>event</th></tr>"
            + (rows.isEmpty ? "<tr><td colspan=\"5\">none</td></tr>" : rows.joined()) + "</table></section>\n"
    }

    private static func sourceTable(_ data: ReportData) -> String {
        let rows = data.sources.map { "<tr><td class=\"source\">\(HTMLText.escape($0.source))</td><td class=\"n\">\($0.samples)</td></tr>" }
        return "<section><h2>Sources</h2><table><tr><th>source</th><th>current samples</th></tr>"
            + (rows.isEmpty ? "<tr><td colspan=\"2\">none</td></tr>" : rows.joined()) + "</table></section>\n"
    }

    private static func syncTable(_ data: ReportData) -> String {
        let refresh = data.sync.refresh
        var rows = data.sync.features.map { feature in
            "<tr><td>\(HTMLText.escape(feature.feature))</td><td>\(feature.phase.rawValue)</td>"
                + "<td>\(feature.currentTask.map(HTMLText.escape) ?? "—")</td>"
                + "<td class=\"error\">\(feature.lastError.map(HTMLText.escape) ?? "")</td></tr>"
        }
        if rows.isEmpty { rows = ["<tr><td colspan=\"4\">no task events</td></tr>"] }
        return "<section><h2>Sync</h2><p>Refresh signal \(refresh.refreshSignal)"
            + (refresh.lastRefreshAt.map { ", last refresh \(HTMLText.escape($0.text))" } ?? "")
            + (refresh.pendingInvalidation ? ", caches invalidated since" : "") + "</p>"
            + "<table><tr><th>feature</th><th>phase</th><th>task in flight</th><th>last error</th></tr>" + rows.joined() + "</table></section>\n"
    }

    private static func one(_ value: Double) -> String { TerminalReport.one(value) }
    private static func opt(_ value: Double?) -> String { value.map(one) ?? "—" }
}
