/// Event ids for one batch of appends, without a system call per id.
///
/// Each id is a UUID version 7 (RFC 9562) for the batch's `recordedAt`
/// millisecond; its 74 random bits come from a xoshiro256** stream seeded
/// once from the system's random source, not asked once per id. Ids are unique within the log with the same
/// overwhelming probability; `verify` checks it.
struct EventIDGenerator {
    private var bits: Xoshiro256StarStar
    private let millis: UInt64

    init(at time: Timestamp) {
        var system = SystemRandomNumberGenerator()
        bits = Xoshiro256StarStar(system.next(), system.next(), system.next(), system.next() | 1)  // never the all-zero state
        millis = UInt64(max(0, time.epochSeconds)) * 1000 + UInt64(time.nanoseconds / 1_000_000)
    }

    private mutating func random() -> UInt64 {
        bits.next()
    }

    /// The next id, lowercase (e.g. `019a2b3c-4d5e-7f60-8a1b-2c3d4e5f6a7b`).
    mutating func next() -> String {
        nextPacked().text
    }

    /// The next id, packed.
    mutating func nextPacked() -> PackedUUID {
        let a = random()
        let b = random()
        let high = (millis & 0xFFFF_FFFF_FFFF) << 16 | 0x7000 | (a & 0x0FFF)  // version 7
        let low = 0x8000_0000_0000_0000 | (b & 0x3FFF_FFFF_FFFF_FFFF)        // variant 10
        return PackedUUID(high: high, low: low, uppercase: false)
    }
}
