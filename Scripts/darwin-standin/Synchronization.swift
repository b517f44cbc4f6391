// Stand-in `Synchronization` module for Scripts/check-darwin.sh: `Mutex`, with
// the shape of the standard library's, and nothing else.
//
// Why a stand-in: on Linux the toolchain's Synchronization (and Dispatch)
// modules import Glibc, and Glibc's C structs (`stat`, `timespec`, …) cannot
// share a clang instance with the Darwin stand-in's structs of the same names
// ("different definitions in different modules"). The platform layer's use of
// these modules is checked for real by the Linux build; here it only has to
// type-check around the Darwin calls. Never run.

/// `Synchronization.Mutex`: a value guarded by a lock.
public struct Mutex<Value: ~Copyable>: ~Copyable {
    private let box: UnsafeMutablePointer<Value>

    public init(_ initialValue: consuming sending Value) {
        box = .allocate(capacity: 1)
        box.initialize(to: initialValue)
    }

    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try body(&box.pointee)
    }
}

extension Mutex: @unchecked Sendable where Value: ~Copyable {}
