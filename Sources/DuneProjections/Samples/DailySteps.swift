import DuneEvents

/// A day's steps: the largest per-source sum.
package struct DailySteps: Sendable, Equatable {
    package let value: Double
    /// The source whose sum is ``value`` (on a tie, the first name in UTF-8 order).
    package let source: String
    /// Every source's sum, sources in UTF-8 order.
    package let sources: [SourceSteps]
}

extension DailySteps {
    /// The steps of the day of `samples` (in `seq` order), summed per source.
    init?(_ samples: [StoredSample]) {
        var bySource: [String: SourceSteps] = [:]
        for stored in samples {
            guard let value = stored.sample.quantity?.value else { continue }
            bySource[stored.sample.source, default: SourceSteps(source: stored.sample.source, steps: 0, samples: [])]
                .add(value, stored.reference)
        }
        self.init(sources: bySource.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { bySource[$0] })
    }

    /// The steps of a day from each source's total, `sources` in UTF-8 order
    /// of their names: the first largest total wins; `nil` without a source.
    init?(sources: [SourceSteps]) {
        var best: SourceSteps?
        for candidate in sources where best.map({ candidate.steps > $0.steps }) ?? true {
            best = candidate
        }
        guard let best else { return nil }
        self.init(value: best.steps, source: best.source, sources: sources)
    }
}

/// One source's step total for a day.
package struct SourceSteps: Sendable, Equatable {
    package let source: String
    /// The sum of the source's samples, in `seq` order.
    package private(set) var steps: Double
    package private(set) var samples: [SampleReference]

    package init(source: String, steps: Double, samples: [SampleReference]) {
        self.source = source
        self.steps = steps
        self.samples = samples
    }

    mutating func add(_ value: Double, _ reference: SampleReference) {
        steps += value
        samples.append(reference)
    }
}
