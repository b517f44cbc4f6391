import DuneEvents

/// Writes Apple Health `export.xml` files the way the Health app does: XML
/// declaration, a DOCTYPE with the real internal DTD (`<!ATTLIST …>` lines
/// and all), `<HealthData>`, `<ExportDate>`, `<Me>`, then the elements.
///
/// For test fixtures and benchmarks; values are strings written exactly as
/// given (escaped), so a fixture can hold any text a real export could.
///
/// ```swift
/// let writer = AppleHealthExportWriter(exportDate: "2024-03-01 09:00:00 +0100")
/// let xml = writer.document([
///     .record(.init(type: "HKQuantityTypeIdentifierStepCount", sourceName: "iPhone", unit: "count",
///                   value: "412", startDate: "2024-02-28 08:00:00 +0100", endDate: "2024-02-28 08:10:00 +0100")),
/// ])
/// ```
package struct AppleHealthExportWriter: Sendable {
    /// Which DOCTYPE to write.
    package enum Doctype: Sendable, Equatable {
        /// HealthKit Export Version 14's DTD (iOS 17 and later).
        case version14
        /// The iOS 16 DTD, whose `<!ATTLIST VisionPrescription` is never closed.
        case malformedIOS16
        /// No DOCTYPE.
        case none
    }

    /// The `<ExportDate value=…>` text, e.g. `2024-03-01 09:00:00 +0100`.
    package var exportDate: String
    package var locale: String
    package var doctype: Doctype

    package init(exportDate: String, locale: String = "en_US", doctype: Doctype = .version14) {
        self.exportDate = exportDate
        self.locale = locale
        self.doctype = doctype
    }

    // MARK: - Text

    /// Everything before the first record: declaration, DOCTYPE, `<HealthData>`, `<ExportDate>`, `<Me>`.
    package func header() -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        switch doctype {
        case .version14: text += Self.dtdVersion14
        case .malformedIOS16: text += Self.dtdMalformedIOS16
        case .none: break
        }
        text += "<HealthData locale=\"\(Self.escape(locale))\">\n"
        text += " <ExportDate value=\"\(Self.escape(exportDate))\"/>\n"
        text += " <Me HKCharacteristicTypeIdentifierDateOfBirth=\"1990-01-01\" HKCharacteristicTypeIdentifierBiologicalSex=\"HKBiologicalSexNotSet\" HKCharacteristicTypeIdentifierBloodType=\"HKBloodTypeNotSet\" HKCharacteristicTypeIdentifierFitzpatrickSkinType=\"HKFitzpatrickSkinTypeNotSet\" HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse=\"None\"/>\n"
        return text
    }

    /// The closing `</HealthData>` line.
    package static let footer = "</HealthData>\n"

    /// A whole export with `elements` in the given order.
    package func document(_ elements: [Element]) -> String {
        var text = header()
        for element in elements { text += Self.text(of: element) }
        return text + Self.footer
    }

    /// The XML of one top-level element, indented like the Health app's, ending in a newline.
    package static func text(of element: Element) -> String {
        switch element {
        case .record(let record):
            return recordText(record, indent: " ")
        case .workout(let workout):
            var attributes: [(String, String?)] = [
                ("workoutActivityType", workout.activityType), ("duration", workout.duration), ("durationUnit", workout.durationUnit),
                ("totalDistance", workout.totalDistance), ("totalDistanceUnit", workout.totalDistanceUnit),
                ("totalEnergyBurned", workout.totalEnergyBurned), ("totalEnergyBurnedUnit", workout.totalEnergyBurnedUnit),
                ("sourceName", workout.sourceName), ("sourceVersion", workout.sourceVersion), ("device", workout.device),
                ("creationDate", workout.creationDate), ("startDate", workout.startDate), ("endDate", workout.endDate),
            ]
            attributes += workout.extraAttributes.map { ($0.key, $0.value) }
            var children = workout.metadata.map { "  " + metadataText($0) }
            for event in workout.events {
                children.append("  <WorkoutEvent type=\"\(escape(event.type))\" date=\"\(escape(event.date))\"/>\n")
            }
            for statistic in workout.statistics {
                children.append("  " + tag("WorkoutStatistics", [
                    ("type", statistic.type), ("startDate", statistic.startDate), ("endDate", statistic.endDate),
                    ("average", statistic.average), ("minimum", statistic.minimum), ("maximum", statistic.maximum),
                    ("sum", statistic.sum), ("unit", statistic.unit),
                ], selfClosing: true))
            }
            if let route = workout.routeFile {
                children.append("  " + tag("WorkoutRoute", [("sourceName", workout.sourceName), ("startDate", workout.startDate),
                                                            ("endDate", workout.endDate)], selfClosing: false))
                children.append("   <FileReference path=\"\(escape(route))\"/>\n")
                children.append("  </WorkoutRoute>\n")
            }
            return elementText(" ", "Workout", attributes, children: children)
        case .correlation(let correlation):
            let attributes: [(String, String?)] = [
                ("type", correlation.type), ("sourceName", correlation.sourceName), ("sourceVersion", correlation.sourceVersion),
                ("creationDate", correlation.creationDate), ("startDate", correlation.startDate), ("endDate", correlation.endDate),
            ]
            var children = correlation.metadata.map { "  " + metadataText($0) }
            children += correlation.records.map { recordText($0, indent: "  ") }
            return elementText(" ", "Correlation", attributes, children: children)
        case .activitySummary(let summary):
            let attributes: [(String, String?)] = [
                ("dateComponents", summary.dateComponents), ("activeEnergyBurned", summary.activeEnergyBurned),
                ("activeEnergyBurnedGoal", summary.activeEnergyBurnedGoal), ("activeEnergyBurnedUnit", summary.activeEnergyBurnedUnit),
                ("appleExerciseTime", summary.appleExerciseTime), ("appleExerciseTimeGoal", summary.appleExerciseTimeGoal),
                ("appleStandHours", summary.appleStandHours), ("appleStandHoursGoal", summary.appleStandHoursGoal),
            ]
            return " " + tag("ActivitySummary", attributes, selfClosing: true)
        case .comment(let text):
            return " <!-- \(text.replacingDoubleHyphens()) -->\n"
        case .raw(let text):
            return text
        }
    }

    // MARK: - Files

    /// Writes a whole export to `path` (created or truncated, mode 0600),
    /// pulling elements from `elements` one at a time, so a multi-gigabyte
    /// benchmark file never sits in memory. Not atomic and not synced: for
    /// fixtures, never for the log or read models.
    ///
    /// - Returns: The number of bytes written.
    /// - Throws: `DuneEventsError(.io)` when the file cannot be created or written.
    @discardableResult
    package func write(to path: String, elements: some Sequence<Element>) throws(DuneEventsError) -> Int64 {
        func ioError(_ code: Errno, _ verb: String) -> DuneEventsError {
            DuneEventsError(.io, "cannot \(verb) '\(path)': \(code.description) (errno \(code.rawValue)); check the directory and free space",
                            location: .init(path: path))
        }
        let file: FileDescriptor
        do throws(Errno) {
            file = try FileSystem.createFile(path, access: .writeOnly, ifExists: .truncate, protection: .default)
        } catch {
            throw ioError(error, "create")
        }
        defer { try? file.close() }
        var written: Int64 = 0
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 20)
        func flush() throws(DuneEventsError) {
            do throws(Errno) {
                try file.writeAll(buffer)
            } catch {
                throw ioError(error, "write")
            }
            written += Int64(buffer.count)
            buffer.removeAll(keepingCapacity: true)
        }
        buffer.append(contentsOf: header().utf8)
        for element in elements {
            buffer.append(contentsOf: Self.text(of: element).utf8)
            if buffer.count >= 1 << 20 { try flush() }
        }
        buffer.append(contentsOf: Self.footer.utf8)
        try flush()
        return written
    }

    // MARK: - XML pieces

    /// `text` with `&`, `<`, `>`, `"` escaped, and tabs and line breaks as
    /// character references (so they survive attribute-value normalization).
    package static func escape(_ text: String) -> String {
        var output = ""
        output.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "\t": output += "&#9;"
            case "\n": output += "&#10;"
            case "\r": output += "&#13;"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }

    private static func recordText(_ record: Record, indent: String) -> String {
        var attributes: [(String, String?)] = [
            ("type", record.type), ("sourceName", record.sourceName), ("sourceVersion", record.sourceVersion),
            ("device", record.device), ("unit", record.unit), ("creationDate", record.creationDate),
            ("startDate", record.startDate), ("endDate", record.endDate), ("value", record.value),
        ]
        attributes += record.extraAttributes.map { ($0.key, $0.value) }
        var children = record.metadata.map { indent + " " + metadataText($0) }
        if !record.instantaneousBeatsPerMinute.isEmpty {
            children.append(indent + " <HeartRateVariabilityMetadataList>\n")
            for beat in record.instantaneousBeatsPerMinute {
                children.append(indent + "  <InstantaneousBeatsPerMinute bpm=\"\(escape(beat.bpm))\" time=\"\(escape(beat.time))\"/>\n")
            }
            children.append(indent + " </HeartRateVariabilityMetadataList>\n")
        }
        return elementText(indent, "Record", attributes, children: children)
    }

    private static func metadataText(_ entry: MetadataEntry) -> String {
        "<MetadataEntry key=\"\(escape(entry.key))\" value=\"\(escape(entry.value))\"/>\n"
    }

    private static func elementText(_ indent: String, _ name: String, _ attributes: [(String, String?)], children: [String]) -> String {
        if children.isEmpty { return indent + tag(name, attributes, selfClosing: true) }
        return indent + tag(name, attributes, selfClosing: false) + children.joined() + indent + "</\(name)>\n"
    }

    private static func tag(_ name: String, _ attributes: [(String, String?)], selfClosing: Bool) -> String {
        var text = "<" + name
        for (key, value) in attributes {
            guard let value else { continue }
            text += " \(key)=\"\(escape(value))\""
        }
        return text + (selfClosing ? "/>\n" : ">\n")
    }
}

extension String {
    /// The text with `--` broken up, so it can sit inside an XML comment.
    fileprivate func replacingDoubleHyphens() -> String {
        var output = ""
        var previousWasHyphen = false
        for character in self {
            if character == "-" && previousWasHyphen { output += " " }
            output.append(character)
            previousWasHyphen = character == "-"
        }
        if previousWasHyphen { output += " " }
        return output
    }
}
