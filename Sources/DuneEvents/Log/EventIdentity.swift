/// Wall-clock metadata for appended events: `recordedAt` and the event UUID.
///
/// This is the only place DuneEvents reads the clock or randomness. Both end
/// up in the envelope only; no projection reads them (docs/log-format.md).
package enum EventIdentity {
    /// The current UTC time, to the millisecond.
    package static func now() -> Timestamp {
        let now = SystemClock.now()
        let millis = Int32(now.nanoseconds / 1_000_000)
        return Timestamp(epochSeconds: now.seconds, nanoseconds: millis * 1_000_000, offsetSeconds: 0)
    }
}
