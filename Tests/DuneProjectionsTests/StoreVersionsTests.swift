import Foundation
import Testing
import DuneEvents
import DuneOracles
@testable import DuneProjections

/// SPEC §11 and §11.1 through the store and the snapshot: a v1 hrv line of
/// an Oura source reads as RMSSD and a v2 line as its stored measure on every
/// path; a line of a newer version than this build reads is refused when a
/// store opens, and ends a following store's observers.
@Suite struct StoreVersionsTests {
    /// Sealed lines: seq 1 a v1 Oura hrv sample (no measure: the source rule
    /// gives RMSSD), seq 2 a v2 Apple Watch hrv sample that stores RMSSD
    /// (against its source's rule), seq 3 a v1 non-UUID Oura sample (a full row).
    static let lines: [[UInt8]] = [
        #"{"v":1,"seq":1,"id":"019a2b3c-4d5e-7f60-8a1b-000000000001","type":"sample.ingested","recordedAt":"2026-03-01T07:00:00.120Z","data":{"end":"2026-03-01T06:00:00Z","id":"8264d208-f9ae-4bcc-ac75-d0a4fcc88741","kind":"hrv","source":"Oura Ring","start":"2026-03-01T06:00:00Z","unit":"ms","value":71.5}"#,
        #"{"v":2,"seq":2,"id":"019a2b3c-4d5e-7f60-8a1b-000000000002","type":"sample.ingested","recordedAt":"2026-03-01T07:00:00.120Z","data":{"end":"2026-03-02T06:00:00Z","id":"8264d208-f9ae-4bcc-ac75-d0a4fcc88742","kind":"hrv","measure":"rmssd","source":"Apple Watch","start":"2026-03-02T06:00:00Z","unit":"ms","value":66}"#,
        #"{"v":1,"seq":3,"id":"019a2b3c-4d5e-7f60-8a1b-000000000003","type":"sample.ingested","recordedAt":"2026-03-01T07:00:00.120Z","data":{"end":"2026-03-03T06:00:00Z","id":"oura-3","kind":"hrv","source":"OURA","start":"2026-03-03T06:00:00Z","unit":"ms","value":69}"#,
    ].map { text in
        var line = Array(text.utf8)
        StoredLine.seal(&line)
        return line
    }

    static let newer: [UInt8] = {
        var line = Array(#"{"v":99,"seq":4,"id":"019a2b3c-4d5e-7f60-8a1b-000000000004","type":"sample.ingested","recordedAt":"2031-03-01T07:00:00.120Z","data":{"shape":"unknown to this build"}"#.utf8)
        StoredLine.seal(&line)
        return line
    }()

    static let expectedMeasures: [HRVMeasure] = [.rmssd, .rmssd, .rmssd]

    static func measures(_ events: [RecordedEvent]) -> [HRVMeasure?] {
        events.map { event in
            if case .sampleIngested(let sample) = event.payload { return sample.hrvMeasure }
            return nil
        }
    }

    static func write(_ lines: [[UInt8]], to path: String) throws {
        try Data(lines.joined()).write(to: URL(fileURLWithPath: path))
    }

    @Test func bothReadersUpcastV1AndReadV2AsStored() throws {
        try DuneStoreTests.withDirectorySync { directory in
            let path = directory + "/events.jsonl"
            try Self.write(Self.lines, to: path)
            var fast: [RecordedEvent] = []
            var rows: [HRVMeasure] = []
            _ = try LogReader(path: path).forEachEventBatch { batch in
                fast += batch.events
                rows += batch.samples.rows.map(\.hrvMeasure)
            }
            #expect(Self.measures(fast) == Self.expectedMeasures)
            #expect(rows == Self.expectedMeasures)
            #expect(fast.map(\.storedVersion) == [1, 2, 1])
            var reference: [RecordedEvent] = []
            try ReferenceLogReader.forEachBatch(path: path) { reference += $0 }
            #expect(reference == fast)
            // Written back in their stored versions, the events give the stored bytes.
            #expect(fast.map { EventCodec.encodeLine($0) } == Self.lines)
        }
    }

    @Test func aSnapshotKeepsTheUpcastMeasures() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            try Self.write(Self.lines, to: path)
            let store = try await DuneStore.open(at: path)
            await store.close()  // leaves a snapshot
            let file = try #require(MappedFile(SnapshotFile.path(forLog: path)))
            let (snapshot, _) = try #require(try? SnapshotFile.read(file, stampMismatch: { _ in nil }).get())
            let block = try #require(snapshot.samples.loaded())
            #expect(block.rows.map(\.hrvMeasure) == Self.expectedMeasures)
            #expect((0..<block.count).map { block.sample(at: $0).hrvMeasure } == Self.expectedMeasures)
            let again = try await DuneStore.open(at: path)
            #expect(await again.snapshotSeq == 3)
            await again.close()
        }
    }

    @Test func aSnapshotOfOtherEventVersionsIsIgnoredWithAWarning() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            try Self.write(Self.lines, to: path)
            let store = try await DuneStore.open(at: path)
            await store.close()
            let snapshotPath = SnapshotFile.path(forLog: path)
            let file = try #require(MappedFile(snapshotPath))
            let (snapshot, stamp) = try #require(try? SnapshotFile.read(file, stampMismatch: { _ in nil }).get())
            let other = EventVersions.stamp.replacingOccurrences(of: "sample.ingested=2", with: "sample.ingested=1")
            try Data(SnapshotFile.encoded(snapshot, at: stamp, eventVersions: other)).write(to: URL(fileURLWithPath: snapshotPath), options: .atomic)
            let reopened = try await DuneStore.open(at: path)
            #expect(await reopened.snapshotSeq == 0)
            let warnings = await reopened.warnings
            #expect(warnings.count == 1 && warnings[0].contains("it was built under other event versions"), "\(warnings)")
            await reopened.close()
        }
    }

    @Test func openingAStoreOnANewerVersionIsRefusedNamingTheLine() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            try Self.write(Self.lines + [Self.newer], to: path)
            for options in [DuneStore.Options(), DuneStore.Options(access: .readOnly)] {
                do {
                    let store = try await DuneStore.open(at: path, options: options)
                    await store.close()
                    Issue.record("the store opened")
                } catch let error as DuneEventsError {
                    #expect(error.code == .newerVersion)
                    #expect(error.location.seq == 4)
                    #expect(error.message.contains("seq 4 is a sample.ingested event of version 99, newer than this build reads (sample.ingested up to version 2)"),
                            "\(error)")
                }
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data((Self.lines + [Self.newer]).joined()))
        }
    }

    /// Another process (a later version of the app) appends a line this build
    /// cannot read: the following store's observers end with that error.
    @Test func aFollowingStoreEndsItsObserversWithTheNewerVersionError() async throws {
        try await DuneStoreTests.withDirectory { directory in
            let path = directory + "/events.jsonl"
            try Self.write(Self.lines, to: path)
            let store = try await DuneStore.open(at: path, options: .init(access: .readOnly))
            var states = store.states.makeAsyncIterator()
            #expect(try await states.next()?.throughSeq == 3)
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(Self.newer))
            try handle.close()
            do {
                while try await states.next() != nil {}
                Issue.record("the observation ended without an error")
            } catch let error as DuneEventsError {
                #expect(error.code == .newerVersion)
                #expect(error.location.seq == 4)
            }
            await store.close()
        }
    }
}

extension DuneStoreTests {
    /// ``withDirectory(_:)`` for a synchronous body.
    static func withDirectorySync(_ body: (String) throws -> Void) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("DuneStoreTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        try body(url.path)
    }
}
