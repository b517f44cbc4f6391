import DuneEvents

/// A day's steps: the largest per-source sum.
package struct DailySteps: Sendable, Equatable {
    package let value: Double
    /// The source whose sum is ``value`` (on a tie, the first name in UTF-8 order).
    package let source: String
    /// Every source's sum, sources in UTF-8 order.
    package let sources: [SourceSteps]

    package init(value: Double, source: String, sources: [SourceSteps]) {
        self.value = value
        self.source = source
        self.sources = sources
    }

    init?(_ samples: [StoredSample]) {
        var bySource: [String: SourceSteps] = [:]
        for stored in samples {
            guard let value = stored.sample.quantity?.value else { continue }
            bySource[stored.sample.source, default: SourceSteps(source: stored.sample.source, steps: 0, samples: [])]
                .add(value, stored.reference)
        }
        let sources = bySource.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.compactMap { bySource[$0] }
        var best: SourceSteps?
        for candidate in sources where best.map({ candidate.steps > $0.steps }) ?? true {
            best = candidate
        }
        guard let best else { return nil }
        value = best.steps
        source = best.source
        self.sources = sources
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
