import DuneHealthKit
import Synchronization
import Testing

struct ObserverWakeTests {
    @Test func completesAtMostOnce() {
        let calls = Mutex(0)
        let wake = ObserverWake(type: .hrv, isBackgroundDelivery: true) { calls.withLock { $0 += 1 } }
        #expect(!wake.isCompleted)
        #expect(wake.complete())
        #expect(!wake.complete())
        #expect(wake.isCompleted)
        #expect(calls.withLock { $0 } == 1)
    }
}
