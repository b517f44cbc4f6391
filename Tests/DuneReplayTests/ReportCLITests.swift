import Foundation
import Testing

/// `dune-replay report`: the terminal summary and the HTML file, without a browser.
/// (ReportChromiumTests renders the HTML in headless Chromium.)
@Suite struct ReportCLITests {
    /// Input lines whose strings try to break out of HTML.
    static let hostile = [
        #"{"type":"sample","kind":"hrv","id":"X1","start":"2026-02-02T06:00:00+01:00","end":"2026-02-02T06:01:00+01:00","value":48.2,"unit":"ms","source":"<script>alert(1)</script>"}"#,
        #"{"type":"sample","kind":"sleep","id":"X2","start":"2026-02-01T23:00:00+01:00","end":"2026-02-02T06:30:00+01:00","value":"asleepCore","source":"<script>alert(1)</script>"}"#,
        #"{"type":"sample","kind":"workout","id":"X3","start":"2026-02-02T17:00:00+01:00","end":"2026-02-02T18:00:00+01:00","activityType":"<img src=x onerror=alert(1)>","energy":500,"energyUnit":"kcal","source":"\"'&amp;"}"#,
        #"{"type":"task","task":"<b>t</b>","feature":"<i>f</i>","phase":"started","at":"2026-02-02T07:00:01+01:00"}"#,
        #"{"type":"task","task":"<b>t</b>","feature":"<i>f</i>","phase":"failed","error":"</td><script>alert(2)</script>","at":"2026-02-02T07:00:02+01:00"}"#,
    ]

    /// A generated log of `days` days (seed 1) in `events.jsonl`, its read models in `out/`.
    static func makeGeneratedLog(_ cli: CLI, days: Int = 120) throws {
        let generated = try cli.run(["generate", "--days", String(days), "--seed", "1"])
        try cli.write("input.jsonl", generated.stdout)
        let ingest = try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"])
        #expect(ingest.status == 0, "\(ingest)")
        #expect(try cli.run(["rebuild", "--log", "events.jsonl", "--out", "out"]).status == 0)
    }

    static func json(_ cli: CLI, _ name: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(try cli.bytes(name))) as? [String: Any])
    }

    @Test func aSecondReportStartsFromTheSnapshotTheFirstLeftAndPrintsTheSame() throws {
        try withCLI { cli in
            try Self.makeGeneratedLog(cli, days: 60)
            let seq = try #require(try Self.json(cli, "out/readiness.json")["throughSeq"] as? Int)
            let first = try cli.run(["report", "--log", "events.jsonl"])
            #expect(first.status == 0 && first.stderr == "report: wrote events.jsonl.snapshot at seq \(seq) for the next run\n")
            let second = try cli.run(["report", "--log", "events.jsonl"])
            #expect(second.status == 0)
            #expect(second.stderr == "report: started from events.jsonl.snapshot at seq \(seq), then replayed 0 later events\n")
            #expect(second.stdout == first.stdout)

            // Later events are replayed on top of the snapshot; the result equals a full replay.
            try cli.write("more.jsonl", #"{"type":"sample","kind":"hrv","id":"LATE-1","start":"2026-03-06T06:00:00+01:00","end":"2026-03-06T06:01:00+01:00","value":61,"unit":"ms","source":"Apple Watch"}"# + "\n")
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "more.jsonl"]).status == 0)
            let third = try cli.run(["report", "--log", "events.jsonl"])
            #expect(third.stderr == "report: started from events.jsonl.snapshot at seq \(seq), then replayed 1 later event\n")
            let full = try cli.run(["report", "--log", "events.jsonl", "--no-snapshot"])
            #expect(full.stderr == "" && full.status == 0)
            #expect(third.stdout == full.stdout && third.stdout != first.stdout)

            // A damaged snapshot is named once and the log replayed; the report does not change.
            // (The middle of the file is its rows, read and checked for the later event.)
            var bytes = try cli.bytes("events.jsonl.snapshot")
            bytes[bytes.count / 2] ^= 0x01
            try cli.writeBytes("events.jsonl.snapshot", bytes)
            let damaged = try cli.run(["report", "--log", "events.jsonl"])
            #expect(damaged.stdout == full.stdout)
            #expect(damaged.stderr.hasPrefix("warning: events.jsonl.snapshot: not used (its samples or id index are damaged)"), "\(damaged.stderr)")
            #expect(damaged.stderr.split(separator: "\n").count == 2, "\(damaged.stderr)")  // the warning, then the new snapshot
        }
    }

    @Test func terminalReportSummarisesTheLastDay() throws {
        try withCLI { cli in
            try Self.makeGeneratedLog(cli)
            let days = try #require(try Self.json(cli, "out/readiness.json")["days"] as? [[String: Any]])
            let last = try #require(days.last)
            let date = try #require(last["date"] as? String)
            let result = try cli.run(["report", "--log", "events.jsonl"])
            #expect(result.status == 0, "\(result)")
            // stderr is not a terminal: no progress, only the note that a snapshot was left for the next run.
            let seq = try #require(try Self.json(cli, "out/readiness.json")["throughSeq"] as? Int)
            #expect(result.stderr == "report: wrote events.jsonl.snapshot at seq \(seq) for the next run\n")
            let score = try #require(last["score"] as? NSNumber)
            let status = try #require(last["status"] as? String)
            let scoreText = score.doubleValue == score.doubleValue.rounded() ? String(score.intValue) : "\(score.doubleValue)"
            #expect(result.stdout.contains("Readiness \(date): \(scoreText) \(status)\n"))
            // The sparkline: 28 one-character days between the first and the last date.
            let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("  20") && $0.contains(" \(date)") })
            let blocks = line.unicodeScalars.filter { (0x2581...0x2588).contains($0.value) }
            #expect(blocks.count == 28, "\(line)")
            for section in ["HRV: 7-day average", "Last night (\(date))", "This week ", "Training load \(date): CTL", "Sync: refresh signal"] {
                #expect(result.stdout.contains(section), "\(section)")
            }
            #expect(!result.stdout.contains("\u{1B}["))
        }
    }

    @Test func htmlIsSelfContainedDeterministicAndEscapesEveryDataString() throws {
        try withCLI { cli in
            try cli.write("input.jsonl", Self.hostile.joined(separator: "\n") + "\n")
            #expect(try cli.run(["ingest", "--log", "events.jsonl", "input.jsonl"]).status == 0)
            let first = try cli.run(["report", "--log", "events.jsonl", "--html", "a.html"])
            #expect(first.status == 0, "\(first)")
            #expect(try cli.run(["report", "--log", "events.jsonl", "--html", "b.html"]).status == 0)
            let html = try cli.bytes("a.html")
            #expect(html == (try cli.bytes("b.html")))
            #expect(Array(try cli.run(["report", "--log", "events.jsonl", "--html", "-"]).stdout.utf8) == html)
            let text = String(decoding: html, as: UTF8.self)
            #expect(text.hasPrefix("<!DOCTYPE html>"))
            let lower = text.lowercased()
            #expect(!lower.contains("<script"))
            #expect(!lower.contains("<img"))
            #expect(!lower.contains("<b>t</b>") && !lower.contains("<i>f</i>"))
            #expect(!lower.contains("src=\"") && !lower.contains("href=") && !lower.contains("url("))
            #expect(lower.replacingOccurrences(of: "xmlns=\"http://www.w3.org/2000/svg\"", with: "").contains("http") == false)
            #expect(text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
            #expect(text.contains("&lt;img src=x onerror=alert(1)&gt;"))
            #expect(text.contains("&quot;&#39;&amp;amp;"))
            #expect(text.contains("&lt;/td&gt;&lt;script&gt;alert(2)&lt;/script&gt;"))
            #expect(text.contains("&lt;i&gt;f&lt;/i&gt;"))
        }
    }

    @Test func htmlChartsCarryOneElementPerValue() throws {
        try withCLI { cli in
            try Self.makeGeneratedLog(cli, days: 60)
            #expect(try cli.run(["report", "--log", "events.jsonl", "--html", "report.html"]).status == 0)
            let html = String(decoding: try cli.bytes("report.html"), as: UTF8.self)
            let expected = try ReportChartCounts(cli)
            for (chart, series, count) in expected.all {
                let svg = try #require(ReportChartCounts.svg(chart, in: html), "\(chart)")
                #expect(ReportChartCounts.dataCount(series, in: svg) == count, "\(chart) \(series)")
            }
        }
    }
}

/// How many values each chart series should draw, read from the rebuilt files.
struct ReportChartCounts {
    var all: [(String, String, Int)] = []

    init(_ cli: CLI) throws {
        let readiness = try #require(try ReportCLITests.json(cli, "out/readiness.json")["days"] as? [[String: Any]])
        let trends = try ReportCLITests.json(cli, "out/trends.json")
        let weeks = try #require(try ReportCLITests.json(cli, "out/weekly-stats.json")["weeks"] as? [[String: Any]])
        let hrv = try #require(((trends["metrics"] as? [String: Any])?["hrv"] as? [String: Any])?["daily"] as? [[String: Any]])
        let load = try #require(trends["trainingLoad"] as? [[String: Any]])
        func nonNull(_ key: String) -> Int { readiness.filter { !($0[key] is NSNull) && $0[key] != nil }.count }
        all = [
            ("chart-readiness", "score", nonNull("score")),
            ("chart-readiness", "hrv-score", nonNull("hrvScore")),
            ("chart-readiness", "sleep-score", nonNull("sleepScore")),
            ("chart-hrv", "hrv-daily", hrv.count),
            ("chart-hrv", "hrv-avg7", hrv.count),
            ("chart-hrv", "normal-band", trends["hrvNormalRange"] is NSNull ? 0 : 1),
            ("chart-sleep", "sleep-hours", nonNull("sleepMinutes")),
            ("chart-weekly", "weekly-minutes", weeks.count),
            ("chart-load", "ctl", load.count),
            ("chart-load", "tsb", load.count),
        ]
        #expect(all.allSatisfy { $0.2 > 0 })
    }

    /// The `<svg id="…">…</svg>` element of `chart` in an HTML text.
    static func svg(_ chart: String, in html: String) -> String? {
        guard let start = html.range(of: "<svg id=\"\(chart)\"") else { return nil }
        guard let end = html.range(of: "</svg>", range: start.upperBound..<html.endIndex) else { return nil }
        return String(html[start.lowerBound..<end.upperBound])
    }

    /// The `data-count` of series `name` in an SVG text.
    static func dataCount(_ name: String, in svg: String) -> Int? {
        guard let start = svg.range(of: "class=\"series \(name)\" data-count=\"") else { return nil }
        return Int(svg[start.upperBound...].prefix { $0.isNumber })
    }
}
