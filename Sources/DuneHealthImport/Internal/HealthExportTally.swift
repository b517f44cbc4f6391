import DuneEvents

/// The running counts of an import, per record type, with bounded memory.
///
/// Types are found by their raw bytes: exports group records by type, so the
/// last type matches almost always and costs one `memcmp`; a miss costs one
/// `String` and one dictionary lookup. At most ``maximumTypes`` distinct types
/// of at most ``maximumTypeBytes`` bytes each are kept — a hostile file with a
/// million made-up types is counted under ``overflowType`` instead of
/// growing the table.
struct HealthExportTally {
    static let maximumTypes = 1000
    static let maximumTypeBytes = 256
    static let overflowType = "(other record types)"

    private var types: [AppleHealthRecordTypeSummary] = []
    private var reasonCounts: [[Int]] = []
    private var indexByName: [String: Int] = [:]
    private var lastRawType: [UInt8] = []
    private var lastIndex = -1
    var recordsInCorrelations = 0

    // MARK: - Types

    /// The index of the type written as `raw` in a `type` attribute.
    ///
    /// - Throws: ``HealthExportValueProblem`` when the name has a bad entity reference.
    mutating func index(ofRawType raw: UnsafeBufferPointer<UInt8>) throws(HealthExportValueProblem) -> Int {
        if lastIndex >= 0, raw.count == lastRawType.count, let base = raw.baseAddress,
           lastRawType.withUnsafeBufferPointer({ last in last.baseAddress.map { ByteView.equal($0, base, count: raw.count) } ?? raw.isEmpty }) {
            return lastIndex
        }
        guard raw.count <= Self.maximumTypeBytes else { return index(named: Self.overflowType) }
        let name: String
        do {
            name = try HealthExportScanner.decode(raw)
        } catch {
            throw HealthExportValueProblem(reason: "attribute type \(error.reason)")
        }
        let found = index(named: name)
        lastRawType.removeAll(keepingCapacity: true)
        lastRawType.append(contentsOf: raw)
        lastIndex = found
        return found
    }

    /// The index of the type called `name`, created on first use.
    mutating func index(named name: String) -> Int {
        if let found = indexByName[name] { return found }
        let kind = HealthExportMapping.kind(forRecordType: name)
        guard types.count < Self.maximumTypes || name == Self.overflowType || kind != nil else {
            return index(named: Self.overflowType)
        }
        types.append(AppleHealthRecordTypeSummary(recordType: name, kind: kind))
        reasonCounts.append([Int](repeating: 0, count: AppleHealthRejection.Reason.allCases.count))
        indexByName[name] = types.count - 1
        return types.count - 1
    }

    func kind(at index: Int) -> SampleKind? { types[index].kind }
    func name(at index: Int) -> String { types[index].recordType }

    // MARK: - Counting

    mutating func emitted(at index: Int) {
        types[index].seen += 1
        types[index].emitted += 1
    }

    mutating func skipped(at index: Int) {
        types[index].seen += 1
        types[index].skipped += 1
    }

    mutating func rejected(at index: Int, _ rejection: AppleHealthRejection) {
        types[index].seen += 1
        types[index].rejected += 1
        let reasonIndex = AppleHealthRejection.Reason.allCases.firstIndex(of: rejection.reason) ?? 0
        reasonCounts[index][reasonIndex] += 1
        if types[index].examples.count < AppleHealthImportSummary.maximumExamplesPerType {
            types[index].examples.append(rejection)
        }
    }

    /// The per-type summaries sorted by type name (UTF-8 byte order).
    func sortedSummaries() -> [AppleHealthRecordTypeSummary] {
        var result = types
        for index in result.indices {
            result[index].rejectionReasons = zip(AppleHealthRejection.Reason.allCases, reasonCounts[index])
                .filter { $0.1 > 0 }
                .map { AppleHealthRejectionCount(reason: $0.0, count: $0.1) }
                .sorted { $0.reason < $1.reason }
        }
        return result.sorted { $0.recordType.utf8.lexicographicallyPrecedes($1.recordType.utf8) }
    }
}
