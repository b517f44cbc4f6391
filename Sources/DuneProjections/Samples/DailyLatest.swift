import DuneEvents

/// A day's latest body measurement (mass kg, fat %, BMI kg/m²).
package struct DailyLatest: Sendable, Equatable {
    package let value: Double
    package let start: Timestamp
    package let sample: SampleReference

    package init(value: Double, start: Timestamp, sample: SampleReference) {
        self.value = value
        self.start = start
        self.sample = sample
    }

    /// The latest sample by start; on equal starts, the higher `seq`.
    init?(_ samples: [StoredSample]) {
        var latest: StoredSample?
        var latestValue = 0.0
        for stored in samples {
            guard let value = stored.sample.quantity?.value else { continue }
            if let current = latest {
                let later = stored.sample.start.seconds(since: current.sample.start)
                guard later > 0 || (later == 0 && stored.seq > current.seq) else { continue }
            }
            latest = stored
            latestValue = value
        }
        guard let latest else { return nil }
        value = latestValue
        start = latest.sample.start
        sample = latest.reference
    }
}
