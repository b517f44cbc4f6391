// The Swift half of the stand-in `Darwin` module of Scripts/check-darwin.sh:
// the declarations Swift's own Darwin overlay adds over Apple's C module
// (swiftlang/swift, stdlib/public/Platform/Platform.swift and Darwin.swift.gyb),
// with the same shapes, for the ones the platform layer uses. Only ever
// type-checked against; the bodies are never run.

@_exported import Darwin  // the stand-in C module (Darwin/DarwinStandIn.h)

// MARK: - sys/errno.h (Platform.swift: `errno`)

public var errno: Int32 {
    get { __error().pointee }
    set { __error().pointee = newValue }
}

// MARK: - fcntl.h (Platform.swift: the variadic open and fcntl, with fixed shapes)

public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 {
    _dune_stand_in_open(path, oflag, 0)
}

public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 {
    _dune_stand_in_open(path, oflag, mode)
}

public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 {
    _dune_stand_in_fcntl(fd, cmd, 0)
}

public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 {
    _dune_stand_in_fcntl(fd, cmd, value)
}

public func fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32 {
    _dune_stand_in_fcntlPtr(fd, cmd, ptr)
}

// MARK: - sys/stat.h (Platform.swift: the file-type bits as mode_t, UInt16 on Darwin)

public var S_IFMT: mode_t { mode_t(0o170000) }
public var S_IFDIR: mode_t { mode_t(0o040000) }
public var S_IFREG: mode_t { mode_t(0o100000) }
public var S_IFLNK: mode_t { mode_t(0o120000) }

// MARK: - signal.h (Platform.swift: SIG_IGN as a sig_t)

public var SIG_IGN: sig_t { unsafeBitCast(1, to: sig_t.self) }

// MARK: - sys/mman.h (Darwin.swift.gyb: MAP_FAILED)

public let MAP_FAILED: UnsafeMutableRawPointer! = UnsafeMutableRawPointer(bitPattern: -1)
