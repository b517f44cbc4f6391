/// The Data Protection class of the files DuneEvents creates: when the
/// system lets them be read while the device is locked.
///
/// Every file DuneEvents creates (the log, its checkpoint, torn-tail side
/// files, temporary files, read-model files, snapshots) gets the class passed
/// to the call that creates it.
///
/// - On iOS, watchOS, tvOS and visionOS the class is applied to each new
///   file with `fcntl(fd, F_SETPROTECTIONCLASS, class)` (fcntl(2)); the
///   classes are Apple's A–D, the same ones `FileProtectionType` names.
/// - On macOS, Linux and the simulators it is accepted and ignored: they have no
///   per-file protection classes (FileVault or disk encryption protects the
///   whole volume).
///
/// The default, ``completeUntilFirstUserAuthentication``, keeps the log
/// writable while the phone is locked after its first unlock, which
/// HealthKit background delivery needs: it wakes the app with the screen
/// locked.
///
/// ```swift
/// // A store that may only be read while the phone is unlocked:
/// let protection = FileProtection.complete
/// ```
public enum FileProtection: Sendable, Hashable, CaseIterable {
    /// Class A: readable and writable only while the device is unlocked.
    /// Appends from a locked phone (background delivery) fail.
    case complete
    /// Class B: a file open before the device locked stays usable; new files
    /// can be created while locked, but existing ones not opened.
    case completeUnlessOpen
    /// Class C, the default: usable from the first unlock after a restart
    /// until the next restart, locked or not.
    case completeUntilFirstUserAuthentication
    /// Class D: no protection beyond the volume's encryption.
    case none

    /// The default class: ``completeUntilFirstUserAuthentication``.
    public static let `default` = FileProtection.completeUntilFirstUserAuthentication

    /// The class number `F_SETPROTECTIONCLASS` takes. Apple's `PROTECTION_CLASS_A`
    /// … `_D` (1…4) are not in the public SDK headers (sys/cprotect.h), so the
    /// values are written here.
    var protectionClass: CInt {
        switch self {
        case .complete: 1
        case .completeUnlessOpen: 2
        case .completeUntilFirstUserAuthentication: 3
        case .none: 4
        }
    }
}
