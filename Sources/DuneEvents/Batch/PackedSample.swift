/// One sample version in 64 bytes: the form projections keep a million of.
///
/// A sample packs when every part of it can be rebuilt exactly from numbers:
/// its id is a canonical UUID (``PackedUUID``), `start` and `end` have canonical
/// text (``PackedTimestamp``), and its reading is a quantity in the kind's
/// canonical unit as written (no `input` member) or a sleep stage. Anything
/// else — workouts, converted units, other ids or timestamp texts — is a
/// *full* row: the ``Sample`` itself is kept in ``SampleBlock/fullSamples``
/// and the row holds its index, seq, kind and (when it packs) id.
package struct PackedSample: Sendable, BitwiseCopyable {
    package var idHigh: UInt64
    package var idLow: UInt64
    package var seq: Int
    /// The canonical quantity value; the sleep stage's index; for a full row,
    /// the index into ``SampleBlock/fullSamples`` as a bit pattern.
    package var value: Double
    package var startSeconds: Int64
    package var endSeconds: Int64
    package var startNanoseconds: Int32
    package var endNanoseconds: Int32
    package var startOffsetMinutes: Int16
    package var endOffsetMinutes: Int16
    /// Index into ``SampleBlock/sources``.
    package var source: UInt16
    /// Index into `SampleKind.allCases`.
    package var kindIndex: UInt8
    package var flags: UInt8

    package init(idHigh: UInt64, idLow: UInt64, seq: Int, value: Double, startSeconds: Int64, endSeconds: Int64,
                 startNanoseconds: Int32, endNanoseconds: Int32, startOffsetMinutes: Int16, endOffsetMinutes: Int16,
                 source: UInt16, kindIndex: UInt8, flags: UInt8) {
        self.idHigh = idHigh
        self.idLow = idLow
        self.seq = seq
        self.value = value
        self.startSeconds = startSeconds
        self.endSeconds = endSeconds
        self.startNanoseconds = startNanoseconds
        self.endNanoseconds = endNanoseconds
        self.startOffsetMinutes = startOffsetMinutes
        self.endOffsetMinutes = endOffsetMinutes
        self.source = source
        self.kindIndex = kindIndex
        self.flags = flags
    }

    /// The id is a packed UUID (`idHigh`, `idLow`).
    package static let idPacked: UInt8 = 1
    /// The packed id's letters are uppercase.
    package static let idUppercase: UInt8 = 2
    /// The sample is kept whole in ``SampleBlock/fullSamples``.
    package static let full: UInt8 = 4
    /// An hrv sample's measure is RMSSD (clear: SDNN); set on full rows too,
    /// from their sample. Meaningless for other kinds.
    package static let rmssd: UInt8 = 8

    /// The flag bits for an hrv row of `measure` (none for other kinds).
    @inline(__always)
    package static func measureFlags(kindIndex: UInt8, _ measure: HRVMeasure?) -> UInt8 {
        kindIndex == SampleKind.hrvIndex && measure == .rmssd ? rmssd : 0
    }

    @inline(__always) package var isFull: Bool { flags & Self.full != 0 }
    @inline(__always) package var hasPackedID: Bool { flags & Self.idPacked != 0 }
    @inline(__always) package var fullIndex: Int { Int(truncatingIfNeeded: value.bitPattern) }
    @inline(__always) package var kind: SampleKind { SampleKind.packed(kindIndex) }
    /// Which HRV statistic the value is: ``HRVMeasure/rmssd`` when the
    /// ``rmssd`` bit is set, else ``HRVMeasure/sdnn``. Meaningful only for hrv rows.
    @inline(__always) package var hrvMeasure: HRVMeasure { flags & Self.rmssd != 0 ? .rmssd : .sdnn }

    @inline(__always) package var packedID: PackedUUID {
        PackedUUID(high: idHigh, low: idLow, uppercase: flags & Self.idUppercase != 0)
    }

    @inline(__always) package var start: PackedTimestamp {
        PackedTimestamp(epochSeconds: startSeconds, nanoseconds: startNanoseconds, offsetMinutes: startOffsetMinutes)
    }

    @inline(__always) package var end: PackedTimestamp {
        PackedTimestamp(epochSeconds: endSeconds, nanoseconds: endNanoseconds, offsetMinutes: endOffsetMinutes)
    }

    /// ``Sample/day`` as a day ordinal: the local date of `start`, for sleep of `end + 6 h`.
    /// Valid for packed rows; a full row's day comes from its sample.
    @inline(__always) package var packedDayOrdinal: Int {
        if kindIndex == SampleKind.sleepIndex {
            return Int(floorDivide(endSeconds + 6 * 3600 + Int64(endOffsetMinutes) * 60, 86_400))
        }
        return Int(floorDivide(startSeconds + Int64(startOffsetMinutes) * 60, 86_400))
    }
}

extension SampleKind {
    /// The index of `.hrv` in `allCases`.
    package static let hrvIndex: UInt8 = 0
    /// The index of `.sleep` in `allCases`.
    package static let sleepIndex: UInt8 = 6
    /// The index of `.stepCount` in `allCases`.
    package static let stepCountIndex: UInt8 = 2

    /// The index of this kind in `allCases`.
    @inline(__always)
    package var packedIndex: UInt8 {
        switch self {
        case .hrv: 0
        case .restingHeartRate: 1
        case .stepCount: 2
        case .bodyMass: 3
        case .bodyFatPercentage: 4
        case .bodyMassIndex: 5
        case .sleep: 6
        case .workout: 7
        }
    }

    /// The kind at `index` in `allCases` (indices come from ``packedIndex``).
    @inline(__always)
    package static func packed(_ index: UInt8) -> SampleKind {
        switch index {
        case 0: .hrv
        case 1: .restingHeartRate
        case 2: .stepCount
        case 3: .bodyMass
        case 4: .bodyFatPercentage
        case 5: .bodyMassIndex
        case 6: .sleep
        default: .workout
        }
    }
}

extension SleepStage {
    /// The index of this stage in `allCases`.
    @inline(__always)
    package var packedIndex: Int {
        switch self {
        case .inBed: 0
        case .asleepUnspecified: 1
        case .asleepCore: 2
        case .asleepDeep: 3
        case .asleepREM: 4
        case .awake: 5
        }
    }

    /// The stage at `index` in `allCases`.
    @inline(__always)
    package static func packed(_ index: Int) -> SleepStage {
        switch index {
        case 0: .inBed
        case 1: .asleepUnspecified
        case 2: .asleepCore
        case 3: .asleepDeep
        case 4: .asleepREM
        default: .awake
        }
    }
}
