import DuneEvents

extension AppleHealthExportWriter {
    /// The DOCTYPE of HealthKit Export Version 14, with its `<!ATTLIST …>`
    /// declarations (what makes FoundationXML's parser crash on Linux).
    static var dtdVersion14: String {
        dtd(version: 14, closeVisionPrescription: true)
    }

    /// The iOS 16 (Export Version 12) DOCTYPE: `<!ATTLIST VisionPrescription`
    /// lacks its closing `>`, so strict parsers reject the whole file.
    static var dtdMalformedIOS16: String {
        dtd(version: 12, closeVisionPrescription: false)
    }

    private static func attributeList(_ element: String, _ attributes: [(String, String)], closed: Bool = true) -> String {
        let width = (attributes.map(\.0.count).max() ?? 0) + 1
        var text = "<!ATTLIST \(element)\n"
        for (name, kind) in attributes {
            text += "  " + name + String(repeating: " ", count: width - name.count) + "CDATA " + kind + "\n"
        }
        return text + (closed ? ">\n" : "")
    }

    private static func dtd(version: Int, closeVisionPrescription: Bool) -> String {
        let required = "#REQUIRED", implied = "#IMPLIED"
        let sampleDates: [(String, String)] = [("creationDate", implied), ("startDate", required), ("endDate", required)]
        var text = "<!DOCTYPE HealthData [\n<!-- HealthKit Export Version: \(version) -->\n"
        text += "<!ELEMENT HealthData (ExportDate,Me,(Record|Correlation|Workout|ActivitySummary|ClinicalRecord|Audiogram|VisionPrescription)*)>\n"
        text += attributeList("HealthData", [("locale", required)])
        text += "<!ELEMENT ExportDate EMPTY>\n" + attributeList("ExportDate", [("value", required)])
        text += "<!ELEMENT Me EMPTY>\n" + attributeList("Me", [
            ("HKCharacteristicTypeIdentifierDateOfBirth", required), ("HKCharacteristicTypeIdentifierBiologicalSex", required),
            ("HKCharacteristicTypeIdentifierBloodType", required), ("HKCharacteristicTypeIdentifierFitzpatrickSkinType", required),
            ("HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse", required),
        ])
        text += "<!ELEMENT Record ((MetadataEntry|HeartRateVariabilityMetadataList)*)>\n" + attributeList("Record", [
            ("type", required), ("unit", implied), ("value", implied), ("sourceName", required), ("sourceVersion", implied),
            ("device", implied),
        ] + sampleDates)
        text += "<!-- Note: Any Records that appear as children of a correlation also appear as top-level records in this document. -->\n"
        text += "<!ELEMENT Correlation ((MetadataEntry|Record)*)>\n" + attributeList("Correlation", [
            ("type", required), ("sourceName", required), ("sourceVersion", implied), ("device", implied),
        ] + sampleDates)
        text += "<!ELEMENT Workout ((MetadataEntry|WorkoutEvent|WorkoutRoute|WorkoutStatistics)*)>\n" + attributeList("Workout", [
            ("workoutActivityType", required), ("duration", implied), ("durationUnit", implied),
            ("totalDistance", implied), ("totalDistanceUnit", implied), ("totalEnergyBurned", implied), ("totalEnergyBurnedUnit", implied),
            ("sourceName", required), ("sourceVersion", implied), ("device", implied),
        ] + sampleDates)
        text += "<!ELEMENT WorkoutActivity ((MetadataEntry)*)>\n" + attributeList("WorkoutActivity", [
            ("uuid", required), ("startDate", required), ("endDate", implied), ("duration", implied), ("durationUnit", implied),
        ])
        text += "<!ELEMENT WorkoutEvent ((MetadataEntry)*)>\n" + attributeList("WorkoutEvent", [
            ("type", required), ("date", required), ("duration", implied), ("durationUnit", implied),
        ])
        text += "<!ELEMENT WorkoutStatistics EMPTY>\n" + attributeList("WorkoutStatistics", [
            ("type", required), ("startDate", required), ("endDate", required), ("average", implied), ("minimum", implied),
            ("maximum", implied), ("sum", implied), ("unit", implied),
        ])
        text += "<!ELEMENT WorkoutRoute ((MetadataEntry|FileReference)*)>\n" + attributeList("WorkoutRoute", [
            ("sourceName", required), ("sourceVersion", implied), ("device", implied),
        ] + sampleDates)
        text += "<!ELEMENT FileReference EMPTY>\n" + attributeList("FileReference", [("path", required)])
        text += "<!ELEMENT ActivitySummary EMPTY>\n" + attributeList("ActivitySummary", [
            ("dateComponents", implied), ("activeEnergyBurned", implied), ("activeEnergyBurnedGoal", implied),
            ("activeEnergyBurnedUnit", implied), ("appleMoveTime", implied), ("appleMoveTimeGoal", implied),
            ("appleExerciseTime", implied), ("appleExerciseTimeGoal", implied), ("appleStandHours", implied),
            ("appleStandHoursGoal", implied),
        ])
        text += "<!ELEMENT MetadataEntry EMPTY>\n" + attributeList("MetadataEntry", [("key", required), ("value", required)])
        text += "<!-- Note: Heart Rate Variability records captured by Apple Watch may include an associated list of instantaneous beats-per-minute readings. -->\n"
        text += "<!ELEMENT HeartRateVariabilityMetadataList (InstantaneousBeatsPerMinute*)>\n"
        text += "<!ELEMENT InstantaneousBeatsPerMinute EMPTY>\n" + attributeList("InstantaneousBeatsPerMinute", [
            ("bpm", required), ("time", required),
        ])
        text += "<!ELEMENT ClinicalRecord EMPTY>\n" + attributeList("ClinicalRecord", [
            ("type", required), ("identifier", required), ("sourceName", required), ("sourceURL", required),
            ("fhirVersion", required), ("receivedDate", required), ("resourceFilePath", required),
        ])
        text += "<!ELEMENT Audiogram ((MetadataEntry|SensitivityPoint)*)>\n" + attributeList("Audiogram", [
            ("type", required), ("sourceName", required), ("sourceVersion", implied), ("device", implied),
        ] + sampleDates)
        text += "<!ELEMENT SensitivityPoint EMPTY>\n" + attributeList("SensitivityPoint", [
            ("frequencyValue", required), ("frequencyUnit", required), ("leftEarValue", implied), ("leftEarUnit", implied),
            ("rightEarValue", implied), ("rightEarUnit", implied),
        ])
        text += "<!ELEMENT VisionPrescription ((RightEye|LeftEye|Attachment|MetadataEntry)*)>\n"
        text += attributeList("VisionPrescription", [
            ("type", required), ("dateIssued", required), ("expirationDate", implied), ("brand", implied),
        ], closed: closeVisionPrescription)
        for eye in ["RightEye", "LeftEye"] {
            text += "<!ELEMENT \(eye) EMPTY>\n" + attributeList(eye, [
                ("sphere", implied), ("sphereUnit", implied), ("cylinder", implied), ("cylinderUnit", implied),
                ("axis", implied), ("axisUnit", implied), ("add", implied), ("addUnit", implied),
            ])
        }
        text += "<!ELEMENT Attachment EMPTY>\n" + attributeList("Attachment", [("identifier", implied)])
        return text + "]>\n"
    }
}
