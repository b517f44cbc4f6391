import DuneEvents

extension TrendsModel {
    /// The version of the trends model's output: bump it whenever a change
    /// makes the engine produce other bytes for the same log, so that
    /// snapshots taken by the older code are not used (see `ProjectionSnapshot`).
    package static let foldVersion: UInt32 = 2
    /// CRC-32 of `trends.json` rebuilt from the shipped sample log at
    /// ``foldVersion``: `FoldVersionTests` fails when the output changes and these two do not.
    package static let foldVersionOutputCRC: UInt32 = 0x5ba9b064
}
