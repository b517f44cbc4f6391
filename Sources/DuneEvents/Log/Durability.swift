/// When appended events are flushed to disk, and so what "acknowledged" means.
///
/// The flush is the platform's strongest: `fdatasync(2)` on Linux, and on
/// macOS and iOS `fcntl(F_FULLFSYNC)` — a plain `fsync` there leaves the
/// bytes in the drive's cache — falling back to `fsync` where the file system
/// refuses it.
public enum Durability: String, Sendable, CaseIterable {
    /// One flush after every event: each is durable on its own.
    case fsync
    /// One `write` and one flush per append call (group commit). The default:
    /// an append returns once all its events are durable.
    case batch
    /// No flush: the operating system decides when the bytes reach the disk.
    /// An append returns once the bytes are written; a power loss can lose them.
    case none
}
