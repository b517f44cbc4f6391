// Stand-in `Dispatch` module for Scripts/check-darwin.sh: the declarations of
// Apple's Dispatch overlay that Sources/DuneEvents/Platform/ uses, with their
// shapes, and nothing else. See Synchronization.swift for why a stand-in.
// Never run: every body is a placeholder.

/// `DispatchTimeInterval`.
public enum DispatchTimeInterval: Sendable, Equatable {
    case seconds(Int)
    case milliseconds(Int)
    case microseconds(Int)
    case nanoseconds(Int)
    case never
}

/// `DispatchTime`.
public struct DispatchTime: Sendable, Comparable {
    public let uptimeNanoseconds: UInt64

    public static func now() -> DispatchTime { DispatchTime(uptimeNanoseconds: 0) }

    public init(uptimeNanoseconds: UInt64) { self.uptimeNanoseconds = uptimeNanoseconds }

    public static func < (lhs: DispatchTime, rhs: DispatchTime) -> Bool { lhs.uptimeNanoseconds < rhs.uptimeNanoseconds }

    public static func + (time: DispatchTime, interval: DispatchTimeInterval) -> DispatchTime { time }
}

/// `DispatchSpecificKey`.
public final class DispatchSpecificKey<T>: @unchecked Sendable {
    public init() {}
}

/// `DispatchQueue`.
public final class DispatchQueue: @unchecked Sendable {
    public init(label: String) {}

    public func sync(execute work: () -> Void) { work() }

    public func async(execute work: @escaping @Sendable () -> Void) {}

    public func setSpecific<T>(key: DispatchSpecificKey<T>, value: T?) {}

    public class func getSpecific<T>(key: DispatchSpecificKey<T>) -> T? { nil }
}

/// `DispatchSourceProtocol`.
public protocol DispatchSourceProtocol: AnyObject {
    func setEventHandler(handler: (@Sendable () -> Void)?)
    func setCancelHandler(handler: (@Sendable () -> Void)?)
    func activate()
    func cancel()
}

/// `DispatchSourceRead`.
public protocol DispatchSourceRead: DispatchSourceProtocol {}

/// `DispatchSourceTimer`.
public protocol DispatchSourceTimer: DispatchSourceProtocol {
    func schedule(deadline: DispatchTime, repeating interval: DispatchTimeInterval, leeway: DispatchTimeInterval)
}

/// `DispatchSourceSignal`.
public protocol DispatchSourceSignal: DispatchSourceProtocol {}

/// `DispatchSource`: the factory of sources.
public final class DispatchSource: DispatchSourceRead, DispatchSourceTimer, DispatchSourceSignal {
    private init() {}

    public static func makeReadSource(fileDescriptor: Int32, queue: DispatchQueue? = nil) -> any DispatchSourceRead { DispatchSource() }

    public static func makeTimerSource(queue: DispatchQueue? = nil) -> any DispatchSourceTimer { DispatchSource() }

    public static func makeSignalSource(signal: Int32, queue: DispatchQueue? = nil) -> any DispatchSourceSignal { DispatchSource() }

    public func setEventHandler(handler: (@Sendable () -> Void)?) {}
    public func setCancelHandler(handler: (@Sendable () -> Void)?) {}
    public func activate() {}
    public func cancel() {}
    public func schedule(deadline: DispatchTime, repeating interval: DispatchTimeInterval = .never,
                         leeway: DispatchTimeInterval = .nanoseconds(0)) {}
}
