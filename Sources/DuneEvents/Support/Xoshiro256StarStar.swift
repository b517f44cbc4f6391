/// The xoshiro256** pseudo-random generator (Blackman and Vigna): 256 bits of
/// state, 64 bits per step, fixed by its arithmetic alone, so that a state gives
/// the same sequence on every machine and Swift release.
///
/// Event ids draw their random bits from it (seeded once per batch from the
/// system); the synthetic generator draws everything from it (seeded from the
/// user's seed).
@usableFromInline package struct Xoshiro256StarStar: Sendable {
    @usableFromInline var s0: UInt64
    @usableFromInline var s1: UInt64
    @usableFromInline var s2: UInt64
    @usableFromInline var s3: UInt64

    /// A generator with this state; it must not be all zero.
    package init(_ s0: UInt64, _ s1: UInt64, _ s2: UInt64, _ s3: UInt64) {
        self.s0 = s0
        self.s1 = s1
        self.s2 = s2
        self.s3 = s3
    }

    /// The next 64 random bits.
    @inlinable @inline(__always)
    package mutating func next() -> UInt64 {
        let result = ((s1 &* 5) << 7 | (s1 &* 5) >> 57) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = s3 << 45 | s3 >> 19
        return result
    }
}
