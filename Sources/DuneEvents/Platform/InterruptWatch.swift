import Dispatch
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM as an event a command can answer, instead of
/// the default action that ends the process without a word: `ingest` says
/// what it made durable and how to resume (issue 35, item 13).
///
/// The signals are ignored by the process and delivered through Dispatch
/// signal sources on a queue of their own, so the handler runs as ordinary
/// code (it may take locks and write), never inside a signal handler.
package enum InterruptWatch {
    /// The sources, kept alive for the rest of the process.
    private static let sources = Mutex<[any DispatchSourceSignal]>([])

    /// From now on, calls `handler` with the signal's exit status (130 for
    /// SIGINT, 143 for SIGTERM: 128 + the number, as a shell reports a
    /// process the signal ended) when one of them arrives. The handler is
    /// expected to end the process.
    package static func install(_ handler: @escaping @Sendable (_ exitStatus: Int32) -> Void) {
        let queue = DispatchQueue(label: "dune.interrupt")
        for number in system_interruptSignals {
            // Made inside the lock, so the source never leaves the list that keeps it alive.
            // Ignored first, then the source: on Linux, Dispatch installs a handler of its own when
            // the source starts (on a thread of its own), which an ignore that came later would
            // replace, and the signal would then be dropped. Ignoring first is also the order
            // Darwin's documentation gives.
            system_ignoreSignal(number)
            sources.withLock { list in
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { handler(128 + number) }
                source.activate()
                list.append(source)
            }
        }
    }
}
