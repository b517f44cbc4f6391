#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Wall-clock metadata for appended events: `recordedAt` and the event UUID.
///
/// This is the only place DuneEvents reads the clock or randomness. Both end
/// up in the envelope only; no projection reads them (SPEC §4).
public enum EventIdentity {
    /// The current UTC time, to the millisecond.
    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        let millis = Int32(spec.tv_nsec / 1_000_000)
        return Timestamp(epochSeconds: Int64(spec.tv_sec), nanoseconds: millis * 1_000_000, offsetSeconds: 0)
    }

    /// A new UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random
    /// bits, so event ids sort roughly by append time.
    public static func makeEventID(at time: Timestamp) -> String {
        var generator = SystemRandomNumberGenerator()
        let millis = UInt64(max(0, time.epochSeconds)) * 1000 + UInt64(time.nanoseconds / 1_000_000)
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: millis >> (8 * (5 - index))) }
        let random = generator.next() as UInt64
        let more = generator.next() as UInt64
        for index in 6..<16 {
            bytes[index] = UInt8(truncatingIfNeeded: (index < 14 ? random : more) >> (8 * (index % 8)))
        }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // variant 10
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
