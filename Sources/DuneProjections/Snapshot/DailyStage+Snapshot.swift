import DuneEvents

/// The daily stage in a snapshot's stage section: a count, then per day
///
/// ```
/// date                       Int64 (DayKey.ordinal)
/// metrics                    present UInt8 (a bit per TrendMetric), then 8 Double values;
///                            the HRV measure UInt8 (0 none, 1 sdnn, 2 rmssd);
///                            the other measure's mean: present UInt8, Double
/// steps                      present UInt8, Double
/// workouts                   count, then per workout: id, seq Int64, activity type,
///                            start text, minutes Double, UInt8 of which follow
///                            (1 energy, 2 distance, 4 volume), the Doubles
/// ```
///
/// Every number is stored as its bits, so the models computed from a stage
/// read back are those computed from the stage written, bit for bit.
extension DailyStage {
    func write(to writer: inout BinaryWriter) {
        writer.integer(metrics.count)
        for (day, week) in zip(metrics, weekly) {
            writer.integer(day.date.ordinal)
            writer.uint8(day.present)
            for value in day.values { writer.double(value) }
            writer.uint8(day.hrvMeasure.map { $0 == .sdnn ? 1 : 2 } ?? 0)
            Self.write(day.otherHRV, to: &writer)
            Self.write(week.steps, to: &writer)
            writer.integer(week.workouts.count)
            for workout in week.workouts {
                writer.string(workout.sample.id)
                writer.integer(workout.sample.seq)
                writer.string(workout.activityType)
                writer.string(workout.start.text)
                writer.double(workout.minutes)
                let present: UInt8 = (workout.energyKcal == nil ? 0 : 1) | (workout.distanceMeters == nil ? 0 : 2)
                    | (workout.volumeKg == nil ? 0 : 4)
                writer.uint8(present)
                for value in [workout.energyKcal, workout.distanceMeters, workout.volumeKg].compactMap({ $0 }) { writer.double(value) }
            }
        }
    }

    /// The stage ``write(to:)`` wrote, or `nil` when the bytes are not one
    /// (days not strictly ascending, or a field out of its range).
    init?(snapshot reader: inout BinaryReader) {
        let metricCount = TrendMetric.allCases.count
        guard let count = reader.count(itemBytes: 8 + 1 + 8 * metricCount + 1 + 1 + 1 + 8) else { return nil }
        var metrics: [DailyMetrics] = []
        var weekly: [WeeklyDay] = []
        metrics.reserveCapacity(count)
        weekly.reserveCapacity(count)
        for _ in 0..<count {
            guard let ordinal = reader.integer(), metrics.last.map({ $0.date.ordinal < ordinal }) ?? true,
                  let present = reader.uint8(), Int(present) < 1 << metricCount
            else { return nil }
            var values: [Double] = []
            values.reserveCapacity(metricCount)
            for _ in 0..<metricCount {
                guard let value = reader.double() else { return nil }
                values.append(value)
            }
            guard let measure = reader.uint8(), measure <= 2, let otherHRV = Self.optionalDouble(&reader),
                  let steps = Self.optionalDouble(&reader), let workoutCount = reader.count(itemBytes: 8 * 5 + 1)
            else { return nil }
            var workouts: [DailyWorkout] = []
            for _ in 0..<workoutCount {
                guard let id = reader.string(), let seq = reader.integer(), let activityType = reader.string(),
                      let startText = reader.string(), let start = Timestamp(utf8Text: startText), let minutes = reader.double(),
                      let present = reader.uint8(), present < 8
                else { return nil }
                func double(_ bit: UInt8) -> Double?? {
                    guard present & bit != 0 else { return .some(nil) }
                    return reader.double().map { $0 }
                }
                guard let energy = double(1), let distance = double(2), let volume = double(4) else { return nil }
                workouts.append(DailyWorkout(sample: SampleReference(id: id, seq: seq), activityType: activityType, start: start,
                                             minutes: minutes, energyKcal: energy, distanceMeters: distance, volumeKg: volume))
            }
            let date = DayKey(ordinal: ordinal)
            metrics.append(DailyMetrics(date: date, present: present, values: values,
                                        hrvMeasure: measure == 0 ? nil : measure == 1 ? .sdnn : .rmssd, otherHRV: otherHRV))
            weekly.append(WeeklyDay(date: date, steps: steps, workouts: workouts))
        }
        self.init(metrics: metrics, weekly: weekly)
    }

    private static func write(_ value: Double?, to writer: inout BinaryWriter) {
        writer.uint8(value == nil ? 0 : 1)
        writer.double(value ?? 0)
    }

    /// `.some(nil)` for an absent value, `nil` when the bytes are not an optional Double.
    private static func optionalDouble(_ reader: inout BinaryReader) -> Double?? {
        guard let present = reader.uint8(), present <= 1, let value = reader.double() else { return nil }
        return .some(present == 1 ? value : nil)
    }
}
