import DuneEvents

/// A deterministic generator of realistic input lines (docs/input-format.md), for demos, tests and benchmarks.
///
/// It simulates one person living in Berlin: Apple Watch sleep stages every
/// night with overlapping iPhone (`inBed`, `asleepUnspecified`) and AutoSleep
/// records on some nights, afternoon naps, HRV and resting HR that respond to
/// training load, short or late nights, illness and jet lag (so readiness
/// moves), thousands of overlapping iPhone and Apple Watch step samples, morning
/// weigh-ins in kg, lb or g, body fat as a fraction (`%`) or in `percent`,
/// BMI, workouts in four-week training blocks with energy in kcal, Cal or kJ
/// and distance in km, mi or m; DST changes (+01:00 ↔ +02:00) and week-long
/// trips to +09:00 and −05:00; re-sent duplicate lines, corrections (same
/// sample id, new value) and deletions; app foregrounds with HealthKit observer
/// bursts that trip both refresh throttles, background deliveries and
/// pull-to-refresh; load tasks that complete, fail, get cancelled, get
/// superseded and report stale completions; a `profile` line setting a 450-minute
/// sleep target; a few `eventID`s and unknown extra members.
///
/// Every line passes input validation: values within the plausibility
/// ranges, every timestamp with an explicit offset, `end ≥ start`. Lines come
/// in chronological order of when the app would receive them.
///
/// **Determinism.** The same `days`, `seed`, `start` and `density` give the
/// same bytes on every machine and in every process: the generator uses its own
/// xoshiro256** generator, integer arithmetic and IEEE `+ − × ÷` only, never the
/// clock, `Dictionary`/`Set` order, Foundation formatting or platform `exp`/`log`.
/// A longer span with the same seed starts with the same lines as a shorter
/// one when both hold the same trips (a trip starts at day 100 and every 240
/// days after, if it fits; a span of 21–107 days gets one trip mid-span).
///
/// **Size.** At `density` 1 a day has about 145 lines (180 days ≈ 26 000
/// lines, 4.6 MB; 365 days ≈ 52 000). `density` splits every recorded step
/// sample into that many consecutive samples with the same total, adding about
/// 80 lines per day per unit: `SyntheticHealthData(days: 365, seed: 1,
/// density: 33)` is 1.0 million lines (196 MB). Changing the density changes
/// only step samples and which of them are re-sent, corrected or deleted; every
/// other line stays byte-identical, and so do step totals per source.
///
/// **Speed.** About 2 million lines (400 MB) per second in a release build.
///
/// ```swift
/// let data = SyntheticHealthData(days: 180, seed: 1)
/// try data.generateBlocks { block in try output.write(block) }
/// ```
package struct SyntheticHealthData: Sendable {
    /// Monday 2026-01-05, the default first day.
    package static let defaultStart = DayKey(year: 2026, month: 1, day: 5)

    /// How many local days to generate.
    package let days: Int
    /// The seed: different seeds give different people and different days.
    package let seed: UInt64
    /// The first local day.
    package let start: DayKey
    /// How many samples each recorded step sample is split into, 1…60.
    package let density: Int

    /// A generator for `days` days from `start`.
    ///
    /// - Parameters:
    ///   - days: the number of local days; negative counts as 0.
    ///   - seed: any value; equal seeds give equal output.
    ///   - start: the first local day (default ``defaultStart``).
    ///   - density: step samples per recorded step sample, clamped to 1…60
    ///     (see the type's discussion for sizes).
    package init(days: Int, seed: UInt64, start: DayKey = SyntheticHealthData.defaultStart, density: Int = 1) {
        self.days = max(0, days)
        self.seed = seed
        self.start = start
        self.density = min(max(density, 1), 60)
    }

    /// Calls `emit` with each line's UTF-8 bytes, without a trailing newline, in order.
    ///
    /// The buffer is valid only during the call. Only one day of lines is held
    /// in memory at a time, so any span can be streamed.
    ///
    /// - Parameter emit: receives one line; an error it throws stops generation.
    /// - Throws: whatever `emit` throws.
    /// - Complexity: O(lines).
    package func generate(_ emit: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var generator = SyntheticGenerator(seed: seed, start: start, days: days, density: density)
        var batch = SyntheticLineBatch()
        for index in 0..<days {
            batch.removeAll()
            generator.generateDay(index, into: &batch)
            batch.sortChronologically()
            try batch.forEachLine(emit)
        }
    }

    /// Calls `emit` with blocks of whole lines, each line ending in `\n`, in order.
    ///
    /// The fast way to write the output to a file or a pipe: one write per block.
    ///
    /// - Parameters:
    ///   - blockSize: a block is emitted once it holds at least this many bytes
    ///     (and at the end); one block never splits a line.
    ///   - emit: receives one block; an error it throws stops generation.
    /// - Throws: whatever `emit` throws.
    package func generateBlocks(blockSize: Int = 1 << 16,
                               _ emit: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        var block: [UInt8] = []
        block.reserveCapacity(blockSize + 4096)
        try generate { line in
            block.append(contentsOf: line)
            block.append(0x0A)
            if block.count >= blockSize {
                try block.withUnsafeBytes { try emit($0) }
                block.removeAll(keepingCapacity: true)
            }
        }
        if !block.isEmpty {
            try block.withUnsafeBytes { try emit($0) }
        }
    }

    /// All lines as strings — for tests and small spans; large spans should stream with ``generate(_:)``.
    ///
    /// - Complexity: O(lines) time and memory.
    package func lines() -> [String] {
        var result: [String] = []
        generate { line in
            result.append(String(decoding: line, as: UTF8.self))
        }
        return result
    }
}
