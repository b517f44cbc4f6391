import DuneEvents

/// The trends projection (docs/read-models.md): per-sample state folded from `sample.*` events.
package typealias TrendsProjection = SampleProjection<TrendsModel>

extension TrendsModel: SampleDailyModel {
    package static var projectionName: ProjectionName { .trends }

    /// Every kind: trends reads all of them.
    package static var retainedKinds: Set<SampleKind> { Set(SampleKind.allCases) }

    package static let foldVersion: UInt32 = 2
    package static let foldVersionOutputCRC: UInt32 = 0x5ba9b064
}
