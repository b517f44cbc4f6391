import DuneEvents

/// Where the synthetic person is, and so which UTC offset their clocks show.
///
/// Home is Europe/Berlin: +01:00, and +02:00 from the last Sunday of March to
/// the last Sunday of October, switching at 01:00 UTC (the EU rule). A week-long
/// trip every 240 days, first at day index 100 (or mid-span for spans shorter
/// than 108 days), alternates between Tokyo (+09:00, no DST) and Bogotá
/// (−05:00, no DST), so a generated log crosses DST changes and a far-away
/// offset with jet lag on both legs.
struct SyntheticCalendar {
    /// A trip away from home: `dayCount` local days in a fixed `offset`.
    struct Trip {
        var firstDayIndex: Int
        var dayCount: Int
        var offset: Int32
    }

    /// One year's summer time: `start ..< end` in epoch seconds.
    private struct SummerTime {
        var start: Int64
        var end: Int64
    }

    let startOrdinal: Int
    let trips: [Trip]
    private let firstYear: Int
    private let summerTimes: [SummerTime]

    static let winterOffset: Int32 = 3600
    static let summerOffset: Int32 = 7200

    init(start: DayKey, days: Int) {
        startOrdinal = start.ordinal
        var trips: [Trip] = []
        if days >= 21 && days < 108 {
            trips.append(Trip(firstDayIndex: days / 2 - 3, dayCount: 7, offset: 9 * 3600))
        }
        var first = 100
        while first + 8 <= days {
            let offset: Int32 = trips.count % 2 == 0 ? 9 * 3600 : -5 * 3600
            trips.append(Trip(firstDayIndex: first, dayCount: 7, offset: offset))
            first += 240
        }
        self.trips = trips
        let startYear = start.components.year
        let endYear = start.adding(days: max(days, 0) + 1).components.year
        firstYear = startYear - 1
        summerTimes = (startYear - 1...endYear + 1).map { year in
            SummerTime(start: Int64(Self.lastSunday(year: year, month: 3).ordinal) * 86_400 + 3600,
                       end: Int64(Self.lastSunday(year: year, month: 10).ordinal) * 86_400 + 3600)
        }
    }

    /// The trip that day `index` is part of, if any.
    func trip(onDay index: Int) -> Trip? {
        for trip in trips where index >= trip.firstDayIndex && index < trip.firstDayIndex + trip.dayCount {
            return trip
        }
        return nil
    }

    /// Day number within a trip (0 = arrival day), or `nil` at home.
    func tripDayNumber(_ index: Int) -> Int? {
        trip(onDay: index).map { index - $0.firstDayIndex }
    }

    /// Whether day `index` is the first or second day home after a trip.
    func isReturnRecovery(_ index: Int) -> Bool {
        trips.contains { index == $0.firstDayIndex + $0.dayCount || index == $0.firstDayIndex + $0.dayCount + 1 }
    }

    /// The offset the person's clocks show during the waking hours of day `index`.
    func dayOffset(_ index: Int) -> Int32 {
        if let trip = trip(onDay: index) { return trip.offset }
        // Local noon at home, located with the winter offset: DST switches at night.
        return homeOffset(atEpoch: Int64(startOrdinal + index) * 86_400 + 11 * 3600)
    }

    /// The offset for an instant during the night that ends on day `index`.
    ///
    /// On a trip the trip's offset; at home Berlin's offset at that very instant,
    /// so a night across the DST change starts in one offset and ends in the other.
    func nightOffset(atEpoch epoch: Int64, nightEndingOnDay index: Int) -> Int32 {
        if let trip = trip(onDay: index) { return trip.offset }
        return homeOffset(atEpoch: epoch)
    }

    /// Berlin's UTC offset at an instant.
    func homeOffset(atEpoch epoch: Int64) -> Int32 {
        let year = DayKey(ordinal: Int(floorDivide(epoch, 86_400))).components.year
        let index = year - firstYear
        guard index >= 0 && index < summerTimes.count else { return Self.winterOffset }
        let summer = summerTimes[index]
        return epoch >= summer.start && epoch < summer.end ? Self.summerOffset : Self.winterOffset
    }

    /// The epoch second of `secondOfDay` on local day `ordinal` in `offset`.
    @inline(__always)
    static func epoch(ordinal: Int, secondOfDay: Int, offset: Int32) -> Int64 {
        Int64(ordinal) * 86_400 + Int64(secondOfDay) - Int64(offset)
    }

    private static func lastSunday(year: Int, month: Int) -> DayKey {
        let last = DayKey(year: year, month: month, day: DayKey.daysIn(year: year, month: month))
        return last.adding(days: -(last.isoWeekday % 7))
    }
}
