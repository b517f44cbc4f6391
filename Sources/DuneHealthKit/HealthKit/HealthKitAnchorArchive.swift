#if canImport(HealthKit)
import DuneProjections
import Foundation
import HealthKit

/// An `HKQueryAnchor` as the text a `sync.anchored` event stores:
/// the base64 of its `NSKeyedArchiver` archive with secure coding, and back.
enum HealthKitAnchorArchive {
    /// The anchor's text.
    /// - Throws: ``SyncSourceError`` `unarchivableAnchor` when archiving fails.
    static func anchor(of queryAnchor: HKQueryAnchor) throws -> SyncAnchor {
        do {
            let data = try NSKeyedArchiver.archivedData(withRootObject: queryAnchor, requiringSecureCoding: true)
            return SyncAnchor(data.base64EncodedString())
        } catch {
            throw SyncSourceError(code: "unarchivableAnchor", message: "HealthKit's anchor could not be archived: \(error)")
        }
    }

    /// The `HKQueryAnchor` a stored anchor text archived.
    /// - Throws: ``SyncSourceError`` `unreadableAnchor` when the text is not
    ///   base64 of a secure archive of an `HKQueryAnchor` (nothing is queried then).
    static func queryAnchor(from anchor: SyncAnchor) throws -> HKQueryAnchor {
        let decoded: HKQueryAnchor?
        do {
            decoded = try Data(base64Encoded: anchor.text).flatMap {
                try NSKeyedUnarchiver.unarchivedObject(ofClass: HKQueryAnchor.self, from: $0)
            }
        } catch {
            throw SyncSourceError(code: "unreadableAnchor", message: "the stored anchor is not an archived HKQueryAnchor: \(error)")
        }
        guard let decoded else {
            throw SyncSourceError(code: "unreadableAnchor", message: "the stored anchor is not base64 of an archived HKQueryAnchor")
        }
        return decoded
    }
}
#endif
