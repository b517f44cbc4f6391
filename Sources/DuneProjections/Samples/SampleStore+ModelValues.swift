import DuneEvents

extension SampleStore {
    /// The daily values the read models are computed from, ascending by date.
    ///
    /// The same numbers as ``dailyValues(on:)`` for each day — every value is computed by
    /// the same code, from the same samples, in the same `seq` order — but
    /// without the per-sample references of the step samples (the bulk of a
    /// log), which no read model reads: `steps` holds each source's total
    /// without its sample list, and ``DailyValues/samples`` is empty.
    /// `explain` gets the full values from ``dailyValues(on:)``.
    ///
    /// With `firstDay`, only the days from `firstDay` on: what a store that
    /// keeps its last state recomputes after a change on `firstDay`.
    ///
    /// - Complexity: O(n log n + d log d) for n samples and d days
    ///   (sorting a day's step sources and sleep intervals), whatever the number
    ///   of sources; with `firstDay`, n and d of those days (and O(D) to find
    ///   them among all D days).
    func modelDailyValues(from firstDay: DayKey? = nil) -> [DailyValues] {
        let (blocks, firstVersions) = versions.allBlocks
        // Steps are summed per source as `DailySteps` does it: a `[String: …]`
        // dictionary, so names are grouped by `String` equality.
        var classByName: [String: Int32] = [:]
        func sourceClass(_ name: String) -> Int32 {
            if let existing = classByName[name] { return existing }
            let next = Int32(classByName.count)
            classByName[name] = next
            return next
        }
        // Each block's source numbers → classes, on the block's first use.
        var classesOfBlock = [[Int32]?](repeating: nil, count: blocks.count)
        var result: [DailyValues] = []
        // Source class → its index in `groups`, for the current day: a day with
        // thousands of sources costs a hash lookup per sample, not a scan of the
        // sources so far. Only looked up, never iterated (no hash order leaks out).
        var groupOfClass: [Int32: Int] = [:]
        var sleepRows: [PackedSleepRow] = []
        for bucket in buckets.occupied(from: firstDay?.ordinal ?? .min) {
            var others: [StoredSample] = []
            var groups: [StepGroup] = []
            groupOfClass.removeAll(keepingCapacity: true)
            // Packed sleep rows are united from their numbers (`DailySleep(packed:)`),
            // without building a `Sample` and two timestamp texts per row — unless the
            // day also has a sleep sample that is kept whole.
            sleepRows.removeAll(keepingCapacity: true)
            var hasFullSleep = false
            let current = bucket.current
            var position = 0
            while position < current.count {
                // The run of versions that live in one block.
                let blockIndex = SampleVersions.blockIndex(of: current[position], in: firstVersions)
                let first = firstVersions[blockIndex]
                let limit = blockIndex + 1 < firstVersions.count ? firstVersions[blockIndex + 1] : UInt32.max
                var runEnd = position
                while runEnd < current.count, current[runEnd] < limit { runEnd += 1 }
                let block = blocks[blockIndex]
                if classesOfBlock[blockIndex] == nil { classesOfBlock[blockIndex] = block.sources.map(sourceClass) }
                let classes = classesOfBlock[blockIndex] ?? []
                let rows = block.rows
                for version in current[position..<runEnd] {
                    let row = Int(version - first)
                    let packed = rows[row]
                    if packed.kindIndex == SampleKind.sleepIndex {
                        if packed.isFull {
                            hasFullSleep = true
                        } else {
                            sleepRows.append(PackedSleepRow(start: packed.start, end: packed.end, stage: Int(packed.value), seq: packed.seq))
                            continue
                        }
                    }
                    guard packed.kindIndex == SampleKind.stepCountIndex else {
                        others.append(StoredSample(sample: block.sample(at: row), seq: packed.seq))
                        continue
                    }
                    let value: Double
                    let group: Int32
                    var fullName: String?
                    if packed.isFull {
                        let sample = block.fullSamples[packed.fullIndex]
                        guard let quantity = sample.quantity?.value else { continue }
                        value = quantity
                        fullName = sample.source
                        group = sourceClass(sample.source)
                    } else {
                        value = packed.value
                        group = classes[Int(packed.source)]
                    }
                    if let existing = groupOfClass[group] {
                        groups[existing].steps += value
                    } else {
                        groupOfClass[group] = groups.count
                        groups.append(StepGroup(name: fullName ?? block.sources[Int(packed.source)], steps: value))
                    }
                }
                position = runEnd
            }
            if hasFullSleep, !sleepRows.isEmpty {
                // Rare: a night mixing packed and whole rows goes the general way, in seq order.
                for row in sleepRows {
                    let sample = Sample(id: "", kind: .sleep, start: row.start.timestamp, end: row.end.timestamp, source: "",
                                        reading: .sleep(SleepStage.packed(row.stage)))
                    others.append(StoredSample(sample: sample, seq: row.seq))
                }
                others.sort { $0.seq < $1.seq }
                sleepRows.removeAll(keepingCapacity: true)
            }
            // `.none`: compute from `others`; `.some(nil)`: a day without asleep or inBed rows.
            let packedSleep: DailySleep?? = hasFullSleep ? .none : .some(DailySleep(packed: sleepRows))
            result.append(DailyValues(date: DayKey(ordinal: bucket.day), samplesWithoutSteps: others,
                                      steps: Self.steps(groups), packedSleep: packedSleep))
        }
        return result
    }

    /// One source's running step total for a day.
    private struct StepGroup {
        /// The name as first seen that day (the dictionary key `DailySteps` keeps).
        var name: String
        var steps: Double
    }

    /// `DailySteps` from the per-source totals, sources in UTF-8 order.
    private static func steps(_ groups: [StepGroup]) -> DailySteps? {
        let sorted = groups.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        return DailySteps(sources: sorted.map { SourceSteps(source: $0.name, steps: $0.steps, samples: []) })
    }
}
