import Testing
@testable import DuneEvents
import DuneTools
import DuneFixtures

/// All bytes of a generated input, lines joined with `\n` (small spans only).
private func syntheticBytes(_ data: SyntheticHealthData) -> [UInt8] {
    var bytes: [UInt8] = []
    data.generate { line in
        bytes.append(contentsOf: line)
        bytes.append(0x0A)
    }
    return bytes
}

@Suite struct SyntheticHealthDataTests {
    // MARK: - Determinism

    @Test func sameDaysAndSeedGiveIdenticalBytes() {
        let first = syntheticBytes(SyntheticHealthData(days: 45, seed: 7))
        let second = syntheticBytes(SyntheticHealthData(days: 45, seed: 7))
        #expect(first.count > 100_000)
        #expect(first == second)
    }

    @Test func differentSeedsGiveDifferentLines() {
        let one = SyntheticHealthData(days: 10, seed: 1).lines()
        let two = SyntheticHealthData(days: 10, seed: 2).lines()
        #expect(one != two)
        #expect(Set(one).isDisjoint(with: Set(two)))
    }

    /// A golden digest: the same output on every machine and toolchain, or determinism broke.
    /// (Update deliberately when the generator changes; cross-checked with Python's zlib.crc32.)
    @Test func thirtyDaysOfSeedOneMatchTheGoldenDigest() {
        let bytes = syntheticBytes(SyntheticHealthData(days: 30, seed: 1))
        let lines = bytes.lazy.filter { $0 == 0x0A }.count
        #expect(SyntheticDigest(lines: lines, crc: CRC32.checksum(bytes)) == SyntheticDigest(lines: 4_472, crc: 0x4B86_CDC4))
    }

    @Test func aLongerSpanStartsWithTheSameLines() {
        let short = syntheticBytes(SyntheticHealthData(days: 120, seed: 3))
        let long = syntheticBytes(SyntheticHealthData(days: 150, seed: 3))
        #expect(long.count > short.count)
        #expect(Array(long.prefix(short.count)) == short)
    }

    @Test func zeroOrNegativeDaysGiveNoLines() {
        #expect(SyntheticHealthData(days: 0, seed: 1).lines().isEmpty)
        #expect(SyntheticHealthData(days: -3, seed: 1).lines().isEmpty)
    }

    @Test(arguments: [1, 100, 1 << 16])
    func blocksAreTheLinesJoinedByNewlines(blockSize: Int) {
        let data = SyntheticHealthData(days: 12, seed: 5)
        var joined: [UInt8] = []
        var blocks = 0
        data.generateBlocks(blockSize: blockSize) { block in
            #expect(block.last == 0x0A)
            joined.append(contentsOf: block)
            blocks += 1
        }
        #expect(joined == syntheticBytes(data))
        #expect(blocks > 1)
    }

    // MARK: - Density

    @Test(arguments: [2, 7])
    func densitySplitsStepSamplesAndChangesNothingElse(density: Int) throws {
        let base = try SyntheticDayTotals(SyntheticHealthData(days: 21, seed: 9))
        let dense = try SyntheticDayTotals(SyntheticHealthData(days: 21, seed: 9, density: density))
        #expect(dense.otherLines == base.otherLines)
        #expect(dense.stepsBySource == base.stepsBySource)
        #expect(dense.stepLines >= base.stepLines * density * 9 / 10)
    }

    @Test func densityIsClampedToOneThroughSixty() {
        #expect(SyntheticHealthData(days: 1, seed: 1, density: 0).density == 1)
        #expect(SyntheticHealthData(days: 1, seed: 1, density: 500).density == 60)
    }

    // MARK: - Validity

    @Test func everyLineIsAValidInputLine() {
        var rejections: [String] = []
        var contentByEventID: [String: [UInt8]] = [:]
        var lines = 0
        SyntheticHealthData(days: 180, seed: 1).generate { line in
            lines += 1
            do {
                let command = try InputParser.parse(line)
                if let eventID = command.eventID {
                    // The same eventID with different content would be a conflict (rejected).
                    if let earlier = contentByEventID[eventID], earlier != command.content {
                        rejections.append("line \(lines): eventID \(eventID) reused with other content")
                    }
                    contentByEventID[eventID] = command.content
                }
            } catch {
                rejections.append("line \(lines): \(error)")
            }
        }
        #expect(lines > 20_000)
        #expect(rejections == [])
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func valuesRespectThePlausibilityRanges(seed: UInt64) {
        let census = SyntheticCensus(SyntheticHealthData(days: 120, seed: seed))
        #expect(census.problems == [])
    }

    @Test func appLinesAreInChronologicalOrder() {
        let census = SyntheticCensus(SyntheticHealthData(days: 90, seed: 4))
        // Only a retried pull-to-refresh (the same line again, seconds later) steps back.
        #expect(census.largestStepBackSeconds < 5)
    }

    // MARK: - Content

    @Test func halfAYearOfSeedOneHasEveryPromisedFeature() throws {
        let census = SyntheticCensus(SyntheticHealthData(days: 180, seed: 1))
        #expect(census.problems == [])

        let kinds = ["hrv", "restingHeartRate", "stepCount", "bodyMass", "bodyFatPercentage", "bodyMassIndex",
                     "sleep", "workout"]
        for kind in kinds { #expect(census.byType["sample/\(kind)", default: 0] > 20, "sample/\(kind)") }
        #expect(census.byType["sample/stepCount", default: 0] > 180 * 50)
        #expect(census.byType["sample/hrv", default: 0] >= 180 * 2)
        #expect(census.byType["sample/restingHeartRate"] == 180)

        #expect(census.sources == ["Apple Watch", "iPhone", "AutoSleep", "Withings", "Health"])
        #expect(census.sleepStages == ["inBed", "asleepUnspecified", "asleepCore", "asleepDeep", "asleepREM", "awake"])
        #expect(census.overlappingSleepFromOtherSources > 50)
        #expect(census.naps > 5)

        let units: Set<String> = [
            "hrv:ms", "restingHeartRate:count/min", "restingHeartRate:bpm", "stepCount:count", "bodyMass:kg",
            "bodyMass:lb", "bodyMass:g", "bodyFatPercentage:%", "bodyFatPercentage:percent", "bodyMassIndex:count",
            "bodyMassIndex:kg/m2", "energy:kcal", "energy:Cal", "energy:kJ", "distance:km", "distance:mi", "distance:m",
        ]
        #expect(census.units == units)
        #expect(census.activityTypes == ["running", "cycling", "traditionalStrengthTraining", "walking"])

        // Berlin winter and summer time, the night of the change, UTC from AutoSleep, and a trip to Tokyo.
        #expect(census.offsets == ["+01:00", "+02:00", "+09:00", "Z"])
        #expect(census.sleepAcrossOffsetChange == ["+01:00→+02:00"])

        #expect(census.duplicateLines > 20)
        #expect(census.corrections > 10)
        #expect(census.deletionsOfEarlierIDs > 5)

        #expect(census.byType["refresh/foreground", default: 0] >= 180 * 2)
        #expect(census.byType["refresh/backgroundDelivery", default: 0] > 180)
        #expect(census.byType["refresh/pullToRefresh", default: 0] > 30)
        #expect(census.observerRepeatsWithin60s > 180)
        #expect(census.observersRightAfterForeground > 180 * 3)

        #expect(census.byType["task/started", default: 0] > 180 * 6)
        #expect(census.supersededStarts > 50)
        #expect(census.staleCompletions > 20)
        #expect(census.userCancellations > 20)
        #expect(census.failuresWithErrorCancelled > 20)
        #expect(census.failuresWithOtherErrors > 20)

        #expect(census.sleepTargets == [450, 450])
        #expect(census.linesWithEventID > 30)
        #expect(census.linesWithUnknownFields > 20)
    }

    @Test func aYearCrossesBothDSTChangesAndTwoTrips() {
        let census = SyntheticCensus(SyntheticHealthData(days: 365, seed: 2))
        #expect(census.problems == [])
        #expect(census.offsets == ["+01:00", "+02:00", "+09:00", "-05:00", "Z"])
        #expect(census.sleepAcrossOffsetChange == ["+01:00→+02:00", "+02:00→+01:00"])
    }

    @Test func aShortSpanStillHasATrip() {
        let census = SyntheticCensus(SyntheticHealthData(days: 30, seed: 1, start: DayKey(year: 2026, month: 6, day: 1)))
        #expect(census.offsets == ["+02:00", "+09:00", "Z"])
    }
}

/// Line count and CRC-32 of a generated input.
struct SyntheticDigest: Equatable {
    var lines: Int
    var crc: UInt32
}

/// Step totals per source, and every line that is neither a step sample nor a deletion.
///
/// Totals count each step sample id once, with its first value: corrections,
/// re-sends and deletions pick different samples at different densities. (Per
/// day the totals may differ slightly: a split sample can straddle midnight.)
struct SyntheticDayTotals {
    var stepsBySource: [String: Double] = [:]
    var stepLines = 0
    var otherLines: [String] = []

    init(_ data: SyntheticHealthData) throws {
        var failure: (any Error)?
        var seen: Set<String> = []
        data.generate { line in
            let text = String(decoding: line, as: UTF8.self)
            if text.contains("\"type\":\"sampleDeleted\"") { return }
            guard text.contains("\"kind\":\"stepCount\"") else {
                otherLines.append(text)
                return
            }
            do {
                let command = try InputParser.parse(line)
                guard case .sample(let sample) = command.intent, let value = sample.quantity?.value else { return }
                stepLines += 1
                guard seen.insert(sample.id).inserted else { return }
                stepsBySource[sample.source, default: 0] += value
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }
}
