/// Whether these tests run on Linux: some need what only Linux offers
/// (`/proc`, `/dev/full`, util-linux's `setpriv`, GNU `time`, `ulimit -f`
/// checked against Linux's `EFBIG`). They are disabled elsewhere with a
/// reason that Swift Testing prints, never skipped silently.
enum LinuxOnly {
    #if os(Linux)
    static let isLinux = true
    #else
    static let isLinux = false
    #endif
}
