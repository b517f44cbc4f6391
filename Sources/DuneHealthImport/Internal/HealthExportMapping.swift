import DuneEvents

/// The pure mapping from export text to DuneEvents values: record types to
/// kinds, sleep values to stages, activity types, dates and numbers.
enum HealthExportMapping {
    // MARK: - Record types

    /// The kind a HealthKit record type maps to, or `nil` when it is not imported.
    static func kind(forRecordType type: String) -> SampleKind? {
        switch type {
        case "HKQuantityTypeIdentifierHeartRateVariabilitySDNN": .hrv
        case "HKQuantityTypeIdentifierRestingHeartRate": .restingHeartRate
        case "HKQuantityTypeIdentifierStepCount": .stepCount
        case "HKQuantityTypeIdentifierBodyMass": .bodyMass
        case "HKQuantityTypeIdentifierBodyFatPercentage": .bodyFatPercentage
        case "HKQuantityTypeIdentifierBodyMassIndex": .bodyMassIndex
        case "HKCategoryTypeIdentifierSleepAnalysis": .sleep
        case "Workout": .workout
        default: nil
        }
    }

    // MARK: - Sleep

    /// The stage of an `HKCategoryValueSleepAnalysis…` value.
    ///
    /// `…Asleep` (before iOS 16) is `asleepUnspecified`, as HealthKit renamed
    /// it; the raw numbers 0–5 of old exports are accepted too.
    static func sleepStage(_ value: String) -> SleepStage? {
        switch value {
        case "HKCategoryValueSleepAnalysisInBed", "0": .inBed
        case "HKCategoryValueSleepAnalysisAsleepUnspecified", "HKCategoryValueSleepAnalysisAsleep", "1": .asleepUnspecified
        case "HKCategoryValueSleepAnalysisAwake", "2": .awake
        case "HKCategoryValueSleepAnalysisAsleepCore", "3": .asleepCore
        case "HKCategoryValueSleepAnalysisAsleepDeep", "4": .asleepDeep
        case "HKCategoryValueSleepAnalysisAsleepREM", "5": .asleepREM
        default: nil
        }
    }

    // MARK: - Workouts

    /// `HKWorkoutActivityTypeRunning` → `running`: the suffix in lower camel
    /// case (a leading acronym is lowered whole: `MMAFight` → `mmaFight`).
    ///
    /// - Returns: `nil` when the suffix is empty or not ASCII letters and digits.
    static func activityType(_ raw: String) -> String? {
        let prefix = "HKWorkoutActivityType"
        var bytes = Array(raw.utf8)
        if raw.hasPrefix(prefix) { bytes.removeFirst(prefix.utf8.count) }
        guard !bytes.isEmpty, bytes.count <= 128 else { return nil }
        for byte in bytes {
            let folded = byte | 0x20
            guard (folded >= 0x61 && folded <= 0x7A) || (byte >= 0x30 && byte <= 0x39) else { return nil }
        }
        func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
        var upperRun = 0
        while upperRun < bytes.count, isUpper(bytes[upperRun]) { upperRun += 1 }
        let lowered = upperRun <= 1 || upperRun == bytes.count ? upperRun : upperRun - 1
        for index in 0..<lowered { bytes[index] |= 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `WorkoutStatistics` types whose `sum` is a workout's active energy.
    static func isEnergyStatistic(_ type: String) -> Bool {
        type == "HKQuantityTypeIdentifierActiveEnergyBurned"
    }

    /// `WorkoutStatistics` types whose `sum` is a workout's distance.
    static func isDistanceStatistic(_ type: String) -> Bool {
        switch type {
        case "HKQuantityTypeIdentifierDistanceWalkingRunning", "HKQuantityTypeIdentifierDistanceCycling",
             "HKQuantityTypeIdentifierDistanceSwimming", "HKQuantityTypeIdentifierDistanceWheelchair",
             "HKQuantityTypeIdentifierDistanceDownhillSnowSports", "HKQuantityTypeIdentifierDistanceCrossCountrySkiing",
             "HKQuantityTypeIdentifierDistancePaddleSports", "HKQuantityTypeIdentifierDistanceRowing",
             "HKQuantityTypeIdentifierDistanceSkatingSports":
            true
        default:
            false
        }
    }

    // MARK: - Numbers

    /// A finite decimal number (`48.2`, `-3`, `1.5e-3`); `nil` for anything
    /// else, including `nan`, `inf`, hex floats and empty text.
    static func number(_ text: String) -> Double? {
        var sawDigit = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): sawDigit = true
            case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "e"), UInt8(ascii: "E"): continue
            default: return nil
            }
        }
        guard sawDigit, text.utf8.count <= 64, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    // MARK: - Dates

    /// The instant of an export date, written as RFC 3339 with its offset.
    ///
    /// Exports write `2023-01-05 07:12:00 +0100`, which becomes
    /// `2023-01-05T07:12:00+01:00` (the offset is kept, never converted);
    /// iOS 8 wrote `20150616071916-0700`; RFC 3339 text is taken as is.
    static func timestamp(_ text: String) -> Timestamp? {
        let input = Array(text.utf8)
        var output: [UInt8]
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        func isSign(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") }
        if input.count == 25, input[10] == 0x20, input[19] == 0x20, isSign(input[20]) {
            output = Array(input[0..<10])
            output.append(UInt8(ascii: "T"))
            output.append(contentsOf: input[11..<19])
            output.append(contentsOf: input[20..<23])
            output.append(UInt8(ascii: ":"))
            output.append(contentsOf: input[23..<25])
        } else if input.count == 19, isSign(input[14]), input[0..<14].allSatisfy(isDigit) {
            output = Array(input[0..<4]) + [UInt8(ascii: "-")] + Array(input[4..<6]) + [UInt8(ascii: "-")] + Array(input[6..<8])
                + [UInt8(ascii: "T")] + Array(input[8..<10]) + [UInt8(ascii: ":")] + Array(input[10..<12])
                + [UInt8(ascii: ":")] + Array(input[12..<14]) + Array(input[14..<17]) + [UInt8(ascii: ":")] + Array(input[17..<19])
        } else if input.count <= 40, input.count > 19, input[10] == UInt8(ascii: "T") {
            output = input
        } else {
            return nil
        }
        return try? Timestamp(parsing: String(decoding: output, as: UTF8.self))
    }
}
