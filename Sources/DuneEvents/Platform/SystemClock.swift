/// The clocks DuneEvents and `dune-replay` read: wall time for `recordedAt`
/// and side-file names, monotonic time for pacing progress output. No
/// projection reads either (docs/log-format.md).
package enum SystemClock {
    /// Wall-clock time since 1970-01-01 UTC (`clock_gettime(CLOCK_REALTIME)`).
    package static func now() -> (seconds: Int64, nanoseconds: Int64) {
        system_realtime()
    }

    /// Seconds on a clock that never jumps (`CLOCK_MONOTONIC`); only
    /// differences between two readings mean anything.
    package static func monotonicSeconds() -> Double {
        Double(system_monotonicNanoseconds()) / 1e9
    }

    /// CPU seconds the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`):
    /// unlike the wall clock, not stretched by other processes on a busy
    /// machine. For the rebuild's stage profile.
    package static func threadCPUSeconds() -> Double {
        Double(system_threadCPUNanoseconds()) / 1e9
    }

    /// Blocks the calling thread for `seconds` (`nanosleep(2)`). For the
    /// command line's test hooks only: never call it from async code.
    package static func sleep(seconds: Double) {
        system_sleep(seconds: seconds)
    }
}

/// This process's id, for names of temporary files (`getpid(2)`).
package enum ProcessIdentity {
    package static var current: Int32 { system_getpid() }
}

/// The number of processors online (`sysconf(_SC_NPROCESSORS_ONLN)`), without Foundation.
package enum ProcessInfoLite {
    package static var activeProcessorCount: Int {
        let count = system_processorCount()
        return count > 0 ? count : 1
    }
}
