import DuneEvents

/// A sample kept whole in a snapshot (a workout, a converted unit, an id or
/// timestamp text that does not pack), field by field: decoding one costs a
/// few strings and two timestamp scans, not a JSON line.
///
/// ```
/// id, source                   length-prefixed UTF-8
/// kind                         UInt8 (SampleKind.packedIndex)
/// start, end                   their texts, length-prefixed (scanned back exactly)
/// reading                      UInt8 tag, then
///   0 quantity                 value, inputValue Double; inputUnit string
///                              (an hrv sample: its measure by the source rule)
///   3 hrv quantity             as 0, then the measure UInt8 (0 sdnn, 1 rmssd)
///   1 sleep                    stage UInt8
///   2 workout                  activityType string; UInt8 of which follow
///                              (1 energy, 2 distance, 4 volume, 8 input energy,
///                              16 input distance); the doubles; the measurements
///                              as value Double + unit string
/// ```
extension Sample {
    func writeSnapshot(to writer: inout BinaryWriter) {
        writer.string(id)
        writer.string(source)
        writer.uint8(kind.packedIndex)
        writer.string(start.text)
        writer.string(end.text)
        switch reading {
        case .quantity(let quantity):
            writer.uint8(kind == .hrv ? 3 : 0)
            writer.double(quantity.value)
            writer.double(quantity.inputValue)
            writer.string(quantity.inputUnit)
            if kind == .hrv { writer.uint8(hrvMeasure == .rmssd ? 1 : 0) }
        case .sleep(let stage):
            writer.uint8(1)
            writer.uint8(UInt8(stage.packedIndex))
        case .workout(let workout):
            writer.uint8(2)
            writer.string(workout.activityType)
            let present: UInt8 = (workout.energyKcal == nil ? 0 : 1) | (workout.distanceMeters == nil ? 0 : 2)
                | (workout.volumeKg == nil ? 0 : 4) | (workout.inputEnergy == nil ? 0 : 8) | (workout.inputDistance == nil ? 0 : 16)
            writer.uint8(present)
            for value in [workout.energyKcal, workout.distanceMeters, workout.volumeKg].compactMap({ $0 }) { writer.double(value) }
            for measurement in [workout.inputEnergy, workout.inputDistance].compactMap({ $0 }) {
                writer.double(measurement.value)
                writer.string(measurement.unit)
            }
        }
    }

    /// The sample ``writeSnapshot(to:)`` wrote, or `nil` when the bytes are not one.
    init?(snapshot reader: inout BinaryReader) {
        guard let id = reader.string(), let source = reader.string(), let kindIndex = reader.uint8(),
              kindIndex < SampleKind.allCases.count, let start = Self.timestamp(&reader), let end = Self.timestamp(&reader),
              let tag = reader.uint8()
        else { return nil }
        let reading: Reading
        var measure: HRVMeasure?
        switch tag {
        case 0, 3:
            guard let value = reader.double(), let inputValue = reader.double(), let unit = reader.string() else { return nil }
            reading = .quantity(Quantity(value: value, inputValue: inputValue, inputUnit: unit))
            if tag == 3 {
                guard let byte = reader.uint8(), byte < 2 else { return nil }
                measure = byte == 1 ? .rmssd : .sdnn
            }
        case 1:
            guard let stage = reader.uint8(), Int(stage) < SleepStage.allCases.count else { return nil }
            reading = .sleep(SleepStage.packed(Int(stage)))
        case 2:
            guard let activityType = reader.string(), let present = reader.uint8(), present < 32 else { return nil }
            func double(_ bit: UInt8) -> Double?? {
                guard present & bit != 0 else { return .some(nil) }
                return reader.double().map { $0 }
            }
            func measurement(_ bit: UInt8) -> WorkoutSummary.Measurement?? {
                guard present & bit != 0 else { return .some(nil) }
                guard let value = reader.double(), let unit = reader.string() else { return nil }
                return WorkoutSummary.Measurement(value: value, unit: unit)
            }
            guard let energy = double(1), let distance = double(2), let volume = double(4),
                  let inputEnergy = measurement(8), let inputDistance = measurement(16)
            else { return nil }
            reading = .workout(WorkoutSummary(activityType: activityType, energyKcal: energy, distanceMeters: distance,
                                              volumeKg: volume, inputEnergy: inputEnergy, inputDistance: inputDistance))
        default:
            return nil
        }
        self.init(id: id, kind: SampleKind.packed(kindIndex), start: start, end: end, source: source, reading: reading,
                  hrvMeasure: measure)
    }

    private static func timestamp(_ reader: inout BinaryReader) -> Timestamp? {
        guard let text = reader.string() else { return nil }
        return Timestamp(utf8Text: text)
    }
}
