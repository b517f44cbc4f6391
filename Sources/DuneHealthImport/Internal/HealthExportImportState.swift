import DuneEvents

/// A value with the unit written next to it (`sum="342.5" unit="Cal"`).
struct HealthExportMeasure: Sendable, Equatable {
    var value: String
    var unit: String?
}

/// A `<Workout>` whose start tag was read; it is mapped at `</Workout>`,
/// once its `WorkoutStatistics` children are known.
struct HealthExportPendingWorkout {
    var position: HealthExportPosition
    /// The first attribute that could not be decoded, if any.
    var problem: String?
    var activityType: String?
    var source: String?
    var start: String?
    var end: String?
    var energy: HealthExportMeasure?
    var distance: HealthExportMeasure?
    var statisticEnergy: HealthExportMeasure?
    var statisticDistance: HealthExportMeasure?
}

/// The importer's state between scanner events: counts, the export date and
/// the workout being read. Decides what each element means; the scanner
/// only knows XML.
struct HealthExportImportState {
    var tally = HealthExportTally()
    var exportDate: Timestamp?
    private var exportDateSeen = false
    private var workout: HealthExportPendingWorkout?

    typealias Emit = (AppleHealthRecord) throws -> Void

    // MARK: - Elements

    mutating func handleStart(_ tag: HealthExportTag, scanner: HealthExportScanner, emit: Emit) throws {
        switch tag.depth {
        case 1:
            switch tag.element {
            case .record:
                try record(tag, scanner: scanner, emit: emit)
            case .workout:
                startWorkout(tag, scanner: scanner)
                if tag.isSelfClosing { try finishWorkout(emit: emit) }
            case .exportDate:
                readExportDate(tag, scanner: scanner)
            case .me:
                break
            case .correlation:
                let index: Int
                if let type = scanner.attribute(named: "type"), let found = try? tally.index(ofRawType: scanner.rawValue(type)) {
                    index = found
                } else {
                    index = tally.index(named: "Correlation")
                }
                tally.skipped(at: index)
            case .other:
                let name = tag.nameCount <= HealthExportTally.maximumTypeBytes
                    ? String(decoding: UnsafeBufferPointer(start: scanner.bytes + tag.nameStart, count: tag.nameCount), as: UTF8.self)
                    : HealthExportTally.overflowType
                tally.skipped(at: tally.index(named: name))
            default:
                tally.skipped(at: tally.index(named: tag.element.xmlName))
            }
        case 2:
            if tag.element == .record && tag.parent == .correlation {
                tally.recordsInCorrelations += 1
            } else if tag.element == .workoutStatistics && tag.parent == .workout {
                workoutStatistic(scanner: scanner)
            }
        default:
            break
        }
    }

    // MARK: - Export date

    private mutating func readExportDate(_ tag: HealthExportTag, scanner: HealthExportScanner) {
        guard !exportDateSeen else { return }
        exportDateSeen = true
        let text: String?
        do {
            text = try scanner.decodedValue(named: "value")
        } catch {
            reject(tally.index(named: "ExportDate"), .invalidAttribute, error.reason, at: tag.position)
            return
        }
        guard let text else {
            reject(tally.index(named: "ExportDate"), .missingAttribute, "attribute value is missing; records are not checked against the export date",
                   at: tag.position)
            return
        }
        guard let date = HealthExportMapping.timestamp(text) else {
            reject(tally.index(named: "ExportDate"), .invalidDate,
                   "value \"\(text)\" is not a date like 2023-01-05 07:12:00 +0100; records are not checked against the export date",
                   at: tag.position)
            return
        }
        exportDate = date
    }

    // MARK: - Records

    private mutating func record(_ tag: HealthExportTag, scanner: HealthExportScanner, emit: Emit) throws {
        guard let typeAttribute = scanner.attribute(named: "type") else {
            reject(tally.index(named: "Record"), .missingAttribute, "attribute type is missing", at: tag.position)
            return
        }
        let index: Int
        do {
            index = try tally.index(ofRawType: scanner.rawValue(typeAttribute))
        } catch {
            reject(tally.index(named: "Record"), .invalidAttribute, error.reason, at: tag.position)
            return
        }
        guard let kind = tally.kind(at: index), kind != .workout else {
            tally.skipped(at: index)
            return
        }
        let recordType = tally.name(at: index)
        switch mapRecord(kind: kind, recordType: recordType, scanner: scanner) {
        case .success(let input):
            try emit(AppleHealthRecord(recordType: recordType, kind: kind, input: input,
                                       line: tag.position.line, byteOffset: tag.position.byteOffset))
            tally.emitted(at: index)
        case .failure(let problem):
            reject(index, problem.reason, problem.detail, at: tag.position)
        }
    }

    private func mapRecord(kind: SampleKind, recordType: String, scanner: HealthExportScanner) -> Result<JSONObject, HealthExportRecordProblem> {
        do throws(HealthExportRecordProblem) {
            var sourceName = try Self.decoded("sourceName", scanner)
            if sourceName == nil { sourceName = try Self.decoded("source", scanner) }
            let source = try Self.required(sourceName, "sourceName")
            let start = try Self.date(try Self.required(Self.decoded("startDate", scanner), "startDate"), "startDate")
            let end = try Self.date(try Self.required(Self.decoded("endDate", scanner), "endDate"), "endDate")
            let valueText = try Self.required(Self.decoded("value", scanner), "value")
            var input = JSONObject([
                JSONMember("type", .string("sample")),
                JSONMember("kind", .string(kind.rawValue)),
            ])
            let id: String
            if kind == .sleep {
                guard let stage = HealthExportMapping.sleepStage(valueText) else {
                    throw HealthExportRecordProblem(.invalidValue,
                                                    "value \"\(Self.clipped(valueText))\" is not a sleep analysis value (HKCategoryValueSleepAnalysisInBed, …AsleepUnspecified, …Asleep, …AsleepCore, …AsleepDeep, …AsleepREM, …Awake)")
                }
                id = AppleHealthSampleID.make(recordType: recordType, source: source, start: start, end: end, value: stage.rawValue, unit: nil)
                input["id"] = .string(id)
                input["start"] = .string(start.text)
                input["end"] = .string(end.text)
                input["value"] = .string(stage.rawValue)
            } else {
                guard let value = HealthExportMapping.number(valueText) else {
                    throw HealthExportRecordProblem(.invalidNumber, "value \"\(Self.clipped(valueText))\" is not a finite number")
                }
                let unit = try Self.required(Self.decoded("unit", scanner), "unit")
                id = AppleHealthSampleID.make(recordType: recordType, source: source, start: start, end: end,
                                              value: JSONWriter.formatNumber(value), unit: unit)
                input["id"] = .string(id)
                input["start"] = .string(start.text)
                input["end"] = .string(end.text)
                input["value"] = .number(value)
                input["unit"] = .string(unit)
            }
            input["source"] = .string(source)
            try checkExportDate(start: start, end: end)
            return .success(input)
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Workouts

    private mutating func startWorkout(_ tag: HealthExportTag, scanner: HealthExportScanner) {
        var pending = HealthExportPendingWorkout(position: tag.position)
        do throws(HealthExportValueProblem) {
            pending.activityType = try scanner.decodedValue(named: "workoutActivityType")
            pending.source = try scanner.decodedValue(named: "sourceName")
            if pending.source == nil { pending.source = try scanner.decodedValue(named: "source") }
            pending.start = try scanner.decodedValue(named: "startDate")
            pending.end = try scanner.decodedValue(named: "endDate")
            if let energy = try scanner.decodedValue(named: "totalEnergyBurned") {
                pending.energy = HealthExportMeasure(value: energy, unit: try scanner.decodedValue(named: "totalEnergyBurnedUnit"))
            }
            if let distance = try scanner.decodedValue(named: "totalDistance") {
                pending.distance = HealthExportMeasure(value: distance, unit: try scanner.decodedValue(named: "totalDistanceUnit"))
            }
        } catch {
            pending.problem = error.reason
        }
        workout = pending
    }

    private mutating func workoutStatistic(scanner: HealthExportScanner) {
        guard var pending = workout else { return }
        do throws(HealthExportValueProblem) {
            guard let type = try scanner.decodedValue(named: "type") else { return }
            let isEnergy = HealthExportMapping.isEnergyStatistic(type) && pending.statisticEnergy == nil
            let isDistance = HealthExportMapping.isDistanceStatistic(type) && pending.statisticDistance == nil
            guard isEnergy || isDistance, let sum = try scanner.decodedValue(named: "sum") else { return }
            let measure = HealthExportMeasure(value: sum, unit: try scanner.decodedValue(named: "unit"))
            if isEnergy { pending.statisticEnergy = measure } else { pending.statisticDistance = measure }
        } catch {
            if pending.problem == nil { pending.problem = "WorkoutStatistics " + error.reason }
        }
        workout = pending
    }

    /// Maps and emits the workout whose end tag (or self-closing start tag) was just read.
    mutating func finishWorkout(emit: Emit) throws {
        guard let pending = workout else { return }
        workout = nil
        let index = tally.index(named: "Workout")
        switch mapWorkout(pending) {
        case .success(let input):
            try emit(AppleHealthRecord(recordType: "Workout", kind: .workout, input: input,
                                       line: pending.position.line, byteOffset: pending.position.byteOffset))
            tally.emitted(at: index)
        case .failure(let problem):
            reject(index, problem.reason, problem.detail, at: pending.position)
        }
    }

    private func mapWorkout(_ pending: HealthExportPendingWorkout) -> Result<JSONObject, HealthExportRecordProblem> {
        do throws(HealthExportRecordProblem) {
            if let problem = pending.problem { throw HealthExportRecordProblem(.invalidAttribute, problem) }
            let rawType = try Self.required(pending.activityType, "workoutActivityType")
            guard let activityType = HealthExportMapping.activityType(rawType) else {
                throw HealthExportRecordProblem(.invalidValue,
                                                "workoutActivityType \"\(Self.clipped(rawType))\" is not an activity type like HKWorkoutActivityTypeRunning")
            }
            let source = try Self.required(pending.source, "sourceName")
            let start = try Self.date(try Self.required(pending.start, "startDate"), "startDate")
            let end = try Self.date(try Self.required(pending.end, "endDate"), "endDate")
            let id = AppleHealthSampleID.make(recordType: "Workout", source: source, start: start, end: end, value: activityType, unit: nil)
            var input = JSONObject([
                JSONMember("type", .string("sample")),
                JSONMember("kind", .string(SampleKind.workout.rawValue)),
                JSONMember("id", .string(id)),
                JSONMember("start", .string(start.text)),
                JSONMember("end", .string(end.text)),
                JSONMember("activityType", .string(activityType)),
            ])
            if let energy = pending.energy {
                try Self.measure(energy, "totalEnergyBurned", "totalEnergyBurnedUnit", into: &input, "energy", "energyUnit")
            } else if let energy = pending.statisticEnergy {
                try Self.measure(energy, "WorkoutStatistics sum (active energy)", "WorkoutStatistics unit", into: &input, "energy", "energyUnit")
            }
            if let distance = pending.distance {
                try Self.measure(distance, "totalDistance", "totalDistanceUnit", into: &input, "distance", "distanceUnit")
            } else if let distance = pending.statisticDistance {
                try Self.measure(distance, "WorkoutStatistics sum (distance)", "WorkoutStatistics unit", into: &input, "distance", "distanceUnit")
            }
            input["source"] = .string(source)
            try checkExportDate(start: start, end: end)
            return .success(input)
        } catch {
            return .failure(error)
        }
    }

    // MARK: - Helpers

    private mutating func reject(_ index: Int, _ reason: AppleHealthRejection.Reason, _ detail: String, at position: HealthExportPosition) {
        tally.rejected(at: index, AppleHealthRejection(recordType: tally.name(at: index), reason: reason, detail: detail,
                                                      line: position.line, byteOffset: position.byteOffset))
    }

    private func checkExportDate(start: Timestamp, end: Timestamp) throws(HealthExportRecordProblem) {
        guard let exportDate else { return }
        // A date outside SPEC §2's window is left to the validation, which names the window.
        for (name, date) in [("starts", start), ("ends", end)] where date.seconds(since: exportDate) > 0 && TimestampWindow.contains(date) {
            throw HealthExportRecordProblem(.afterExportDate,
                                            "\(name) \(date.text), after the export date \(exportDate.text); a record cannot be newer than its export (a device clock set ahead?)")
        }
    }

    private static func decoded(_ name: StaticString, _ scanner: HealthExportScanner) throws(HealthExportRecordProblem) -> String? {
        do {
            return try scanner.decodedValue(named: name)
        } catch {
            throw HealthExportRecordProblem(.invalidAttribute, error.reason)
        }
    }

    private static func required(_ value: String?, _ name: String) throws(HealthExportRecordProblem) -> String {
        guard let value else { throw HealthExportRecordProblem(.missingAttribute, "attribute \(name) is missing") }
        return value
    }

    private static func date(_ text: String, _ name: String) throws(HealthExportRecordProblem) -> Timestamp {
        guard let date = HealthExportMapping.timestamp(text) else {
            throw HealthExportRecordProblem(.invalidDate, "\(name) \"\(clipped(text))\" is not a valid date like 2023-01-05 07:12:00 +0100")
        }
        return date
    }

    private static func measure(_ measure: HealthExportMeasure, _ valueName: String, _ unitName: String,
                                into input: inout JSONObject, _ valueKey: String, _ unitKey: String) throws(HealthExportRecordProblem) {
        guard let value = HealthExportMapping.number(measure.value) else {
            throw HealthExportRecordProblem(.invalidNumber, "\(valueName) \"\(clipped(measure.value))\" is not a finite number")
        }
        guard let unit = measure.unit else {
            throw HealthExportRecordProblem(.missingAttribute, "\(unitName) is missing for \(valueName)")
        }
        input[valueKey] = .number(value)
        input[unitKey] = .string(unit)
    }

    /// At most 80 characters of `text`, for messages.
    static func clipped(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(80)) + "…"
    }
}

/// Why one record cannot be mapped; becomes an ``AppleHealthRejection``.
struct HealthExportRecordProblem: Error, Sendable, Equatable {
    var reason: AppleHealthRejection.Reason
    var detail: String

    init(_ reason: AppleHealthRejection.Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }
}
