import DuneEvents

/// The day-by-day state machine behind ``SyntheticHealthData``.
///
/// Each call to ``generateDay(_:into:)`` plans one local day, writes its lines
/// (the night that ends that morning, body measurements, workouts, steps, app
/// activity) into a batch and folds the day into the person's physiology. The
/// writers live in `SyntheticGenerator+*.swift`, one concern per file.
struct SyntheticGenerator {
    let seed: UInt64
    let start: DayKey
    let density: Int
    let calendar: SyntheticCalendar
    var person: SyntheticPerson
    /// The previous evening's bedtime: where the next night starts.
    var previousBedtime: Int64
    var previousLateNight = false
    /// The last number used for each feature's task ids.
    var taskNumbers = [0, 0, 0]
    /// Recent iPhone step-sample ids a later day may delete.
    var deletableStepIDs: [SyntheticID] = []

    init(seed: UInt64, start: DayKey, days: Int, density: Int) {
        self.seed = seed
        self.start = start
        self.density = density
        calendar = SyntheticCalendar(start: start, days: days)
        person = SyntheticPerson(seed: seed)
        previousBedtime = SyntheticCalendar.epoch(ordinal: start.ordinal - 1, secondOfDay: 23 * 3600 + 300,
                                                  offset: calendar.dayOffset(-1))
    }

    /// The random stream for `stream` on day `index`.
    func stream(_ purpose: SyntheticStream, day index: Int) -> SyntheticRandom {
        SyntheticRandom(seed: seed, day: index, stream: purpose)
    }

    /// Writes day `index`'s lines into `batch` (unsorted) and advances the person.
    mutating func generateDay(_ index: Int, into batch: inout SyntheticLineBatch) {
        var day = planDay(index)
        writeNight(&day, into: &batch)
        writeBody(&day, into: &batch)
        writeWorkouts(day, into: &batch)
        writeSteps(day, into: &batch)
        writeAppActivity(day, into: &batch)
        var load = 0.0
        for workout in day.workouts { load += workout.load }
        person.finishDay(load: load)
        previousBedtime = day.bedtime
        previousLateNight = day.lateNightTonight
    }

    // MARK: - Planning

    /// Decides when the person slept and woke, where they are, and their workouts.
    mutating func planDay(_ index: Int) -> SyntheticDay {
        var random = stream(.plan, day: index)
        let ordinal = start.ordinal + index
        let weekday = DayKey(ordinal: ordinal).isoWeekday
        let offset = calendar.dayOffset(index)
        let tripDay = calendar.tripDayNumber(index)
        var ill = false
        if person.illnessDaysLeft > 0 {
            ill = true
            person.illnessDaysLeft -= 1
        } else if index >= 20 && tripDay == nil && random.chance(1.0 / 75) {
            ill = true
            person.illnessDaysLeft = random.int(2...4)
        }
        let workday = weekday <= 5 && tripDay == nil

        // The night that ends this morning: an alarm (local time) on workdays.
        var wakeSecond: Int
        if tripDay != nil {
            wakeSecond = random.int(27_000...30_600)  // 07:30–08:30
        } else if workday {
            wakeSecond = random.int(22_500...25_200)  // 06:15–07:00
        } else {
            wakeSecond = random.int(27_000...32_400)  // 07:30–09:00
        }
        if ill { wakeSecond += random.int(1800...4500) }
        if previousLateNight && !workday { wakeSecond += random.int(1800...3600) }
        var wake = SyntheticCalendar.epoch(ordinal: ordinal, secondOfDay: wakeSecond, offset: offset)
        var inBedStart = previousBedtime
        var onset = inBedStart + Int64(random.int(300...1500))
        let usualNight = Int64(random.int(25_200...30_600))
        if wake - onset > 11 * 3600 {
            // Flew west: the evening was spent travelling; a normal night ends at the alarm.
            onset = wake - usualNight
            inBedStart = onset - Int64(random.int(300...1200))
        } else if wake - onset < 3 * 3600 {
            // Flew east: the body clock says it is the middle of the night; sleep in.
            wake = onset + usualNight
        }

        // Tonight's bedtime, before 01:00 local so DST switches (01:00 UTC) fall during sleep.
        let tomorrowWorkday = DayKey(ordinal: ordinal + 1).isoWeekday <= 5 && calendar.tripDayNumber(index + 1) == nil
        var bedSecond = tomorrowWorkday ? random.int(81_900...85_200) : random.int(84_600...89_100)
        if ill { bedSecond = random.int(79_200...81_000) }
        let lateNight = !ill && random.chance(tomorrowWorkday ? 0.04 : 0.15)
        if lateNight { bedSecond += random.int(3600...7200) }
        bedSecond = min(bedSecond, 90_000)
        let bedtime = max(SyntheticCalendar.epoch(ordinal: ordinal, secondOfDay: bedSecond, offset: offset),
                          wake + 8 * 3600)

        var day = SyntheticDay(
            index: index, ordinal: ordinal, weekday: weekday, offset: offset,
            inBedStart: inBedStart, sleepOnset: onset, wake: wake, bedtime: bedtime,
            lateNightTonight: lateNight, ill: ill,
            jetLag: tripDay == 0 || tripDay == 1 || calendar.isReturnRecovery(index),
            onTrip: tripDay != nil, workouts: [])
        day.workouts = planWorkouts(day, &random)
        return day
    }
}
