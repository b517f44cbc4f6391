/// The decisions the platform layer makes about what a system call returned,
/// kept out of `Syscalls.swift`'s `#if` branches so that they compile, and are
/// tested, on every platform, including the ones whose calls cannot run here.

// MARK: - Free space

/// What `statvfs(3)` (Linux) or `statfs(2)` (Darwin) says about the room left
/// on a file system (`system_freeSpace`): blocks available to an unprivileged
/// process, and their size.
struct FreeSpace: Sendable, Equatable {
    /// `f_bavail`.
    var availableBlocks: UInt64
    /// `f_frsize` (Linux) or `f_bsize` (Darwin).
    var blockSize: UInt64

    /// `availableBlocks × blockSize` in bytes, in 64-bit arithmetic (a
    /// 32-bit block count would be wrong above 2³² blocks); `Int64.max` when
    /// the product does not fit.
    var availableBytes: Int64 {
        let (bytes, overflow) = availableBlocks.multipliedReportingOverflow(by: blockSize)
        return overflow ? .max : Int64(clamping: bytes)
    }
}

// MARK: - Refusals that mean "not here"

extension Errno {
    /// Whether `fcntl(F_FULLFSYNC)` failing with this error means the file
    /// system cannot flush the drive's cache that way, so that `fsync(2)` is
    /// the best there is: `ENOTSUP`, and `EINVAL` (what Darwin returns for a
    /// descriptor or file system the command does not apply to). Any other
    /// error, `EIO` first, is a failed sync, reported as such: falling back
    /// to `fsync` would hide it.
    var meansFullSyncUnsupported: Bool {
        self == .notSupported || self == .invalidArgument
    }

    /// Whether `fcntl(F_SETPROTECTIONCLASS)` failing with this error means
    /// the file system has no Data Protection classes (`ENOTSUP`: an iPhone
    /// or iPad app running on a Mac), so the file is kept unprotected by
    /// class, as on macOS, instead of failing its creation.
    var meansNoProtectionClasses: Bool {
        self == .notSupported
    }
}
