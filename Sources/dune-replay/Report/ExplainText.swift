import DuneEvents
import DuneProjections
import DuneTools

/// The human text of `dune-replay explain`: the value, its formula with the
/// intermediate numbers, and the events behind it. Numbers are shown to 3
/// decimals (scores to 1); `--json` has them unrounded.
enum ExplainText {
    static func text(_ explanation: ExplainedValue, color: Bool) -> String {
        let style = TextStyle(enabled: color)
        switch explanation {
        case .readiness(let readiness): return self.readiness(readiness, style)
        case .weekly(let week): return weekly(week, style)
        case .trend(let trend): return self.trend(trend, style)
        case .sync(let trace): return sync(trace, style)
        case .refresh(let refresh): return self.refresh(refresh, style)
        }
    }

    // MARK: - Readiness

    static func readiness(_ explanation: ReadinessExplanation, _ style: TextStyle) -> String {
        let day = explanation.day
        var text = style.bold("readiness \(day.date): " + (day.score.map { "\(one($0)) \(day.status.rawValue)" } ?? day.status.rawValue)) + "\n"
        let components: [(String, ReadinessComponent?)] = [("hrv", day.hrvComponent), ("rhr", day.rhrComponent), ("sleep", day.sleepComponent)]
        let terms = components.compactMap { name, component in component.map { "\(three($0.weight)) × \(one($0.score)) (\(name))" } }
        if let score = day.score {
            text += "  score = Σ wᵢ·sᵢ / Σ wᵢ = (\(terms.joined(separator: " + "))) / \(three(day.totalWeight)) = \(one(score))"
                + "  [unrounded \(three(score))]\n"
            text += "  status \(day.status.rawValue): ≥ \(one(ReadinessFormula.readyThreshold)) ready, ≥ \(one(ReadinessFormula.moderateThreshold)) moderate, else rest (on the unrounded score)\n"
        } else {
            text += "  no score: the available components weigh \(three(day.totalWeight)) < \(three(ReadinessFormula.minimumTotalWeight))"
                + (terms.isEmpty ? "" : " (\(terms.joined(separator: ", ")))") + "\n"
        }

        text += "\n" + style.bold("HRV") + "  " + (day.hrv.map { "\(three($0)) ms (mean of the day's \(day.hrvMeasure?.rawValue ?? "") samples)" } ?? "no HRV sample on the day") + "\n"
        text += baselineLine(day.hrvWindow, unit: "ln ms")
        if let component = day.hrvComponent, let z = component.z, let mean = day.hrvWindowStatistics.mean, let sd = day.hrvWindowStatistics.sd {
            text += "  ln hrv = \(four(component.input)); z = (\(four(component.input)) − \(four(mean))) / \(four(sd)) = \(three(z))\n"
            text += "  sub-score = clamp(50 + 25 × \(three(z)), 0, 100) = \(one(component.score)), weight \(three(component.weight))\n"
        } else if day.hrv != nil {
            text += "  no sub-score: the baseline has \(day.hrvWindowStatistics.n) days, \(ReadinessFormula.minimumBaselineDays) needed\n"
        }
        text += referencesLine("samples", explanation.values.hrv?.samples ?? [])

        text += "\n" + style.bold("RHR") + "  " + (day.rhr.map { "\(three($0)) bpm (mean of the day's samples)" } ?? "no resting-HR sample on the day") + "\n"
        text += baselineLine(day.rhrWindow, unit: "bpm")
        if let component = day.rhrComponent, let z = component.z, let mean = day.rhrWindowStatistics.mean, let sd = day.rhrWindowStatistics.sd {
            text += "  z = (\(three(component.input)) − \(four(mean))) / \(four(sd)) = \(three(z))\n"
            text += "  sub-score = clamp(50 − 25 × \(three(z)), 0, 100) = \(one(component.score)), weight \(three(component.weight))\n"
        } else if day.rhr != nil {
            text += "  no sub-score: the baseline has \(day.rhrWindowStatistics.n) days, \(ReadinessFormula.minimumBaselineDays) needed\n"
        }
        text += referencesLine("samples", explanation.values.restingHeartRate?.samples ?? [])

        let target = "\(three(day.sleepTargetMinutes)) min" + (explanation.sleepTargetSeq.map { " (profile.updated seq \($0))" } ?? " (default)")
        text += "\n" + style.bold("Sleep") + "  "
        if let sleep = explanation.values.sleep {
            text += "\(three(sleep.minutes)) min = union of \(Wording.count(sleep.union.count, "interval")) of \(sleep.samples.count) \(sleep.basis.rawValue) "
                + "\(Wording.noun(sleep.samples.count, "sample")), all sources together\n"
            for interval in sleep.union {
                text += "    \(interval.start.text) → \(interval.end.text)  \(three(interval.seconds / 60)) min\n"
            }
            if let component = day.sleepComponent {
                text += "  sub-score = clamp(100 × \(three(sleep.minutes)) / \(three(day.sleepTargetMinutes)), 0, 100) = \(one(component.score)), weight \(three(component.weight)); target \(target)\n"
            }
            text += referencesLine("samples", sleep.samples)
        } else {
            text += "no asleep or inBed sample for the night (target \(target))\n"
        }

        text += "\n" + style.bold("Samples of the day") + " (every event that named them):\n" + trails(explanation.samples, style)
        text += "\n" + style.bold("HRV baseline days") + " (ln ms):\n" + baselineDays(explanation.hrvBaselineDays)
        text += "\n" + style.bold("RHR baseline days") + " (bpm):\n" + baselineDays(explanation.rhrBaselineDays)
        return text
    }

    private static func baselineLine(_ window: DailyWindow, unit: String) -> String {
        let statistics = window.statistics
        return "  baseline \(window.first) … \(window.last): n \(statistics.n) (≥ \(ReadinessFormula.minimumBaselineDays) needed), "
            + "μ \(statistics.mean.map(four) ?? "—"), σ \(statistics.sd.map(four) ?? "—") (\(unit), sample SD)\n"
    }

    private static func baselineDays(_ days: [BaselineDay]) -> String {
        guard !days.isEmpty else { return "  none\n" }
        return days.map { "  \($0.date)  \(four($0.value).padding(9)) seq \($0.samples.map { String($0.seq) }.joined(separator: ", "))\n" }.joined()
    }

    // MARK: - Weekly

    static func weekly(_ explanation: WeekExplanation, _ style: TextStyle) -> String {
        let stats = explanation.stats
        let totals = stats.totals
        let monday = stats.week.monday
        var text = style.bold("weekly \(stats.week) (\(monday) – \(monday.adding(days: 6)))") + ": \(totals.workouts) workouts, "
            + "\(three(totals.durationMinutes)) min, \(three(totals.activeEnergyKcal)) kcal, \(three(totals.distanceKm)) km, "
            + "\(three(totals.strengthVolumeKg)) kg volume, \(totals.activeDays) active days, \(three(totals.steps)) steps\n"
        if let comparison = stats.vsPreviousWeek, let previous = explanation.previous {
            text += "  vs the week before (current − previous, change %):\n"
            for change in comparison.changes {
                text += "    " + change.field.rawValue.padding(18) + "\(three(totals[change.field])) − \(three(previous[change.field])) = "
                    + signed(change.delta) + (change.changePercent.map { " (\(signed($0, one: true))%)" } ?? " (previous 0: no %)") + "\n"
            }
        } else {
            text += "  the first week of the model: no comparison\n"
        }
        text += "\n" + style.bold("Workouts") + " (summed in seq order; energy, distance and volume add 0 when absent):\n"
        if stats.workouts.isEmpty { text += "  none\n" }
        for workout in stats.workouts {
            var line = "  seq \(String(workout.sample.seq).padding(7)) \(workout.start.text)  \(workout.activityType.terminalSafe) \(three(workout.minutes)) min"
            if let energy = workout.energyKcal { line += ", \(three(energy)) kcal" }
            if let distance = workout.distanceMeters { line += ", \(three(distance / 1000)) km" }
            if let volume = workout.volumeKg { line += ", \(three(volume)) kg volume" }
            text += line + "  [\((explanation.workoutSources[workout.sample] ?? "?").terminalSafe)] id=\(workout.sample.id.terminalSafe)\n"
        }
        text += "\n" + style.bold("Steps") + " (each day counts its largest per-source sum; the week sums the days):\n"
        if explanation.days.allSatisfy({ $0.steps == nil }) { text += "  none\n" }
        for day in explanation.days {
            guard let steps = day.steps else { continue }
            text += "  \(day.date)  \(three(steps.value)) from \(steps.source.terminalSafe)\n"
            for source in steps.sources {
                let mark = source.source == steps.source ? "counted" : "not counted"
                let head = "    \(source.source.terminalSafe): \(three(source.steps)) (\(Wording.count(source.samples.count, "sample")), \(mark)): seq "
                text += head + wrap(source.samples.map { String($0.seq) }, indent: 6, start: head.count) + "\n"
            }
        }
        // Single-version samples are all listed above, per source; these have a history.
        let notable = explanation.samples.filter { $0.versions.count > 1 }
        text += "\n" + style.bold("Corrected, deleted or moved samples") + ":\n" + (notable.isEmpty ? "  none\n" : trails(notable, style))
        return text
    }

    // MARK: - Trends

    static func trend(_ explanation: TrendExplanation, _ style: TextStyle) -> String {
        let metric = explanation.metric.rawValue
        var text = style.bold("trends \(metric) \(explanation.date)") + ": "
        if let point = explanation.point {
            text += "value \(three(point.value)), avg7 \(three(point.avg7)), avg28 \(three(point.avg28))\n"
        } else {
            text += "no value on this day (series hold only days with a value)\n"
        }
        text += window("avg7 = mean of", explanation.avg7Window)
        text += window("avg28 = mean of", explanation.avg28Window)
        if explanation.isLastDay {
            let trend = explanation.trend
            text += "\n" + style.bold("Change on the last day \(explanation.date)") + ": "
                + (trend.changePercent.map { "\(signed($0, one: false))%" } ?? "none") + ", direction \(trend.direction.rawValue)\n"
            if let recent = trend.recent { text += window("recent (avg7 of L) = mean of", recent) }
            if let baseline = trend.baseline { text += window("baseline = mean of", baseline) }
            text += "  change% = (recent − baseline) / baseline × 100; needs ≥ \(TrendFormula.minimumRecentValues) recent and ≥ \(TrendFormula.minimumBaselineValues) baseline values;"
                + " up ≥ +\(one(TrendFormula.directionThresholdPercent)), down ≤ −\(one(TrendFormula.directionThresholdPercent))\n"
        } else if let last = explanation.lastDay {
            text += "  change% and direction are computed for the last day \(last) only ('explain trends \(metric) \(last)')\n"
        }
        if let range = explanation.hrvNormalRange {
            let statistics = range.statistics
            text += "\n" + style.bold("HRV normal range") + " over ln(daily hrv) \(range.window.first) … \(range.window.last): n \(statistics.n), "
                + "μ \(statistics.mean.map(four) ?? "—"), σ \(statistics.sd.map(four) ?? "—")\n"
            text += "  μ ± 0.5σ = \(four(range.low)) … \(four(range.high)) ln ms = \(three(range.lowMilliseconds)) … \(three(range.highMilliseconds)) ms\n"
            text += "  avg7 of ln hrv = \(range.avg7.map(four) ?? "—") → \(range.position?.rawValue ?? "no recent value")\n"
        }
        if let today = explanation.trainingLoad.last {
            let yesterday = explanation.trainingLoad.count > 1 ? explanation.trainingLoad[0] : nil
            let ctl0 = yesterday?.ctl ?? 0
            let atl0 = yesterday?.atl ?? 0
            text += "\n" + style.bold("Training load") + " on \(today.date): load \(three(today.load)) workout min\n"
            text += "  CTL = \(four(ctl0)) + (\(three(today.load)) − \(four(ctl0))) × \(five(TrendFormula.ctlFactor)) = \(four(today.ctl))   (1 − e^(−1/42))\n"
            text += "  ATL = \(four(atl0)) + (\(three(today.load)) − \(four(atl0))) × \(five(TrendFormula.atlFactor)) = \(four(today.atl))   (1 − e^(−1/7))\n"
            text += "  TSB = CTL(D−1) − ATL(D−1) = \(four(ctl0)) − \(four(atl0)) = \(four(today.tsb))\n"
        }
        text += "\n" + style.bold("Samples of the day") + " (every event that named them):\n"
            + (explanation.samples.isEmpty ? "  none\n" : trails(explanation.samples, style))
        return text
    }

    private static func window(_ title: String, _ window: DailyWindow) -> String {
        let statistics = window.statistics
        var text = "  \(title) \(window.first) … \(window.last): n \(statistics.n), mean \(statistics.mean.map(three) ?? "—")\n"
        if !window.days.isEmpty {
            text += "    " + wrap(zip(window.days, window.values).map { "\($0) \(three($1))" }, indent: 4) + "\n"
        }
        return text
    }

    // MARK: - Sync

    static func sync(_ trace: FeatureLoadTrace, _ style: TextStyle) -> String {
        let state = trace.state
        let counts = state.counts
        var text = style.bold("sync \(trace.feature.terminalSafe)") + ": phase \(state.phase.rawValue), "
            + (state.isLoading ? "loading task \((state.currentTask ?? "?").terminalSafe)" : "not loading") + ", last error "
            + (state.lastError.map { "\"\($0.terminalSafe)\"" } ?? "none") + "\n"
        text += "  counts: started \(counts.started), completed \(counts.completed), failed \(counts.failed), cancelled \(counts.cancelled), "
            + "staleIgnored \(counts.staleIgnored); settled phase \(state.settledPhase.rawValue) (a cancellation returns there); last task event seq \(state.lastEventSeq)\n"
        text += "\n" + style.bold("Task events") + " (what each did; a completion or failure of a task that is not current is staleIgnored):\n"
        for step in trace.steps {
            var line = "  seq \(String(step.seq).padding(7)) \(step.record.at.text)  \(step.record.task.terminalSafe) \(step.record.phase.rawValue)"
            if let reason = step.record.reason {
                line += reason == .superseded ? " (superseded by \((step.record.supersededBy ?? "?").terminalSafe))" : " (\(reason.rawValue))"
            }
            if let error = step.record.error { line += ": \(error.terminalSafe)" }
            line += "  → \(step.effect.rawValue), \(step.phaseBefore.rawValue) → \(step.phaseAfter.rawValue)"
            switch step.effect {
            case .staleIgnored: text += style.dim(line) + "\n"
            case .failed: text += style.red(line) + "\n"
            default: text += line + "\n"
            }
        }
        let open = trace.unfinishedTasks
        text += "\n" + style.bold("Started and never ended") + ": "
        text += open.isEmpty ? "none\n" : "\n" + open.map { style.red("  ! \($0.record.task.terminalSafe) started at seq \($0.seq) (\($0.record.at.text))") + "\n" }.joined()
        return text
    }

    // MARK: - Refresh

    static func refresh(_ explanation: RefreshExplanation, _ style: TextStyle) -> String {
        let recorded = explanation.recorded
        let state = explanation.state
        let throttle = RefreshCoordinator.throttleSeconds
        let request = recorded.source.rawValue + (recorded.kind.map { " (\($0.rawValue))" } ?? "")
        var text = style.bold("refresh seq \(explanation.seq)") + ": \(request) at \(recorded.at.text) → " + outcome(recorded) + "\n"
        text += "\nThe refresh coordinator just before it (from the refresh requests before seq \(explanation.seq)):\n"
        if let last = state.lastPerformedAt, let since = explanation.secondsSinceLastPerformed {
            text += "  last performed refresh   seq \(explanation.lastPerformedSeq.map(String.init) ?? "?") at \(last.text): " + gap(since, throttle: throttle) + "\n"
        } else {
            text += "  last performed refresh   none\n"
        }
        if let kind = recorded.kind {
            if let last = state.lastObserverAt[kind], let since = explanation.secondsSinceLastObserver {
                text += "  " + "last \(kind.rawValue) observer".padding(25) + "seq \(explanation.lastObserverSeq.map(String.init) ?? "?") at \(last.text): " + gap(since, throttle: throttle) + "\n"
            } else {
                text += "  " + "last \(kind.rawValue) observer".padding(25) + "none\n"
            }
        }
        text += "  refresh signal           \(state.refreshSignal) performed so far\n"
        let applied: Int
        switch (explanation.decided.outcome, explanation.decided.reason) {
        case (.performed, _) where recorded.source == .pullToRefresh: applied = 1
        case (.cacheInvalidated, _): applied = 2
        case (.throttled, .typeThrottle): applied = 3
        default: applied = 4
        }
        let rules = [
            "1. pullToRefresh → performed, ignoring throttles",
            "2. backgroundDelivery → cacheInvalidated",
            "3. healthKitObserver within \(three(throttle)) s of the same kind's last observer → throttled (typeThrottle)",
            "4. foreground / healthKitObserver within \(three(throttle)) s of the last performed refresh → throttled (coordinatorThrottle), else performed",
        ]
        text += "\nRefresh rules (docs/input-format.md), first that applies:\n"
        for (index, rule) in rules.enumerated() {
            text += index + 1 == applied ? style.bold("  ▶ " + rule) + "\n" : "    " + rule + "\n"
        }
        text += "\nThe rules applied again to the requests before it give: \(outcome(explanation.decided)) — "
            + (explanation.decisionMatches ? "matches the log.\n" : style.red("DIFFERS from the log (\(outcome(recorded)))") + "\n")
        return text
    }

    /// How long before this request an earlier one was, against the throttle;
    /// a request dated before it came out of order (a device clock, a late
    /// delivery) and counts as within the throttle (T − last < 60 s, docs/input-format.md).
    private static func gap(_ since: Double, throttle: Double) -> String {
        if since < 0 {
            return "this request is dated \(three(-since)) s earlier: it came out of order, so it is within the \(three(throttle)) s throttle (an earlier request is stale)"
        }
        return "\(three(since)) s before (\(since < throttle ? "<" : "≥") \(three(throttle)) s)"
    }

    private static func outcome(_ record: RefreshRecord) -> String {
        switch record.outcome {
        case .performed: "performed, refresh signal \(record.refreshSignal)"
        case .throttled: "THROTTLED (\(record.reason?.rawValue ?? "throttle"))"
        case .cacheInvalidated: "cache invalidated"
        }
    }

    // MARK: - Samples

    static func trails(_ trails: [SampleTrail], _ style: TextStyle) -> String {
        guard !trails.isEmpty else { return "  none\n" }
        var text = ""
        for trail in trails {
            let single = trail.versions.count == 1
            if !single { text += "  \(trail.kind.rawValue) id=\(trail.id.terminalSafe), \(trail.versions.count) events:\n" }
            for version in trail.versions {
                var line = (single ? "  " : "    ") + "seq \(String(version.seq).padding(7))"
                switch version.change {
                case .ingested(let sample):
                    line += "\(sample.start.text)  \(single ? trail.kind.rawValue + " " : "")\(value(of: sample))  [\(sample.source.terminalSafe)]"
                case .deleted(let at):
                    line += "\(at.text)  sample.deleted"
                }
                if single { line += " id=\(trail.id.terminalSafe)" }
                line += "  → " + version.fate.explanation
                switch version.fate {
                case .counted: text += line + "\n"
                case .deletedBy, .deletion: text += style.red(line) + "\n"
                case .supersededBy, .countsForAnotherDay, .notCounted: text += style.dim(line) + "\n"
                }
            }
        }
        return text
    }

    /// A sample version's value in a few words.
    static func value(of sample: Sample) -> String {
        switch sample.reading {
        case .quantity(let quantity):
            return "\(three(quantity.value)) \(sample.kind.canonicalUnit ?? quantity.inputUnit)"
        case .sleep(let stage):
            return "\(stage.rawValue) until \(sample.end.text) (\(three(sample.durationSeconds / 60)) min)"
        case .workout(let workout):
            var text = "\(workout.activityType.terminalSafe) \(three(sample.durationSeconds / 60)) min"
            if let energy = workout.energyKcal { text += ", \(three(energy)) kcal" }
            if let distance = workout.distanceMeters { text += ", \(three(distance / 1000)) km" }
            return text
        }
    }

    private static func referencesLine(_ title: String, _ references: [SampleReference]) -> String {
        let head = "  \(title): seq "
        return references.isEmpty ? "" : head + wrap(references.map { String($0.seq) }, indent: 4, start: head.count) + "\n"
    }

    // MARK: - Numbers and layout

    static func one(_ value: Double) -> String { JSONWriter.formatNumber(Rounding.tenths(value)) }
    static func three(_ value: Double) -> String { JSONWriter.formatNumber(Rounding.thousandths(value)) }
    static func four(_ value: Double) -> String { JSONWriter.formatNumber((value * 10_000).rounded(.toNearestOrAwayFromZero) / 10_000) }
    static func five(_ value: Double) -> String { JSONWriter.formatNumber((value * 100_000).rounded(.toNearestOrAwayFromZero) / 100_000) }

    private static func signed(_ value: Double, one useOne: Bool = false) -> String {
        let text = useOne ? one(value) : three(value)
        return value > 0 ? "+" + text : text
    }

    /// `items` joined by ", ", wrapped before 100 columns; continuation lines start with `indent` spaces.
    /// - Parameter start: the column the first item starts at (default: `indent`).
    static func wrap(_ items: [String], indent: Int, start: Int? = nil) -> String {
        var text = ""
        var column = start ?? indent
        for (index, item) in items.enumerated() {
            let piece = index + 1 < items.count ? item + ", " : item
            if column + piece.count > 100, !text.isEmpty {
                while text.last == " " { text.removeLast() }
                text += "\n" + String(repeating: " ", count: indent)
                column = indent
            }
            text += piece
            column += piece.count
        }
        return text
    }
}

/// ANSI styling, or none.
struct TextStyle {
    var enabled: Bool

    func bold(_ text: String) -> String { enabled ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func dim(_ text: String) -> String { enabled ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    func red(_ text: String) -> String { enabled ? "\u{1B}[31m\(text)\u{1B}[0m" : text }
    func yellow(_ text: String) -> String { enabled ? "\u{1B}[33m\(text)\u{1B}[0m" : text }
}
