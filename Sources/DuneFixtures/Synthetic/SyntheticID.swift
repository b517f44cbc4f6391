import DuneEvents

/// A version-4-shaped UUID drawn from a ``SyntheticRandom`` stream.
///
/// Written in HealthKit's upper-case 8-4-4-4-12 form. 122 random bits make a
/// collision between two generated ids practically impossible.
struct SyntheticID: Hashable {
    var high: UInt64
    var low: UInt64

    init(using random: inout SyntheticRandom) {
        high = (random.next() & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        low = (random.next() & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
    }
}
