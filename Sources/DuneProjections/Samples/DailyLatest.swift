import DuneEvents

/// A day's latest body measurement (mass kg, fat %, BMI kg/m²).
package struct DailyLatest: Sendable, Equatable {
    package let value: Double
    package let start: Timestamp
    package let sample: SampleReference
}

extension DailyLatest {
    /// The latest sample by start; on equal starts, the higher `seq`.
    init?(_ samples: [StoredSample]) {
        guard let (latest, value) = Self.latest(samples) else { return nil }
        self.value = value
        start = latest.sample.start
        sample = latest.reference
    }

    /// The latest of `samples` that has a quantity, by start (on equal
    /// starts, the higher `seq`), with its value; `nil` when none has one.
    static func latest(_ samples: [StoredSample]) -> (sample: StoredSample, value: Double)? {
        var latest: (sample: StoredSample, value: Double)?
        for stored in samples {
            guard let value = stored.sample.quantity?.value else { continue }
            if let current = latest?.sample {
                let later = stored.sample.start.seconds(since: current.sample.start)
                guard later > 0 || (later == 0 && stored.seq > current.seq) else { continue }
            }
            latest = (stored, value)
        }
        return latest
    }
}
