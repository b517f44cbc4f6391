import Foundation
import Testing
@testable import DuneEvents
import DuneFixtures
@testable import DuneHealthImport

/// Truncated, corrupted and hostile exports end with a located
/// `DuneEventsError`, never a crash or unbounded memory.
struct AppleHealthHostileInputTests {
    typealias Fixture = AppleHealthFixture

    static let smallBytes = Array(AppleHealthFixture.small.utf8)
    /// Where `</HealthData>` ends: every shorter prefix is truncated.
    static let rootEnd: Int = {
        let text = AppleHealthFixture.small
        guard let range = text.range(of: "</HealthData>") else { return 0 }
        return text.utf8.distance(from: text.utf8.startIndex, to: range.upperBound)
    }()
    /// Cut points spread over the whole file (DOCTYPE, tags, attribute values, end tags).
    static let cutPoints: [Int] = Array(stride(from: 0, to: rootEnd, by: 37)) + [1, 38, rootEnd - 1, rootEnd - 2, rootEnd - 13]

    @Test(arguments: cutPoints)
    func truncatedExportEndsWithALocatedError(cut: Int) throws {
        let reference = try importAppleHealthExport(Self.smallBytes)
        let outcome = try importAppleHealthExport(Array(Self.smallBytes[..<cut]))
        let error = try #require(outcome.error)
        #expect(error.code == .invalidInput)
        #expect(error.hasLocation())
        #expect(error.location.byteOffset.map { $0 <= cut } == true)
        #expect(error.message.contains("truncated") || error.message.contains("empty") || error.message.contains("no <HealthData>"))
        #expect(!outcome.summary.isComplete)
        #expect(outcome.summary.bytesRead == Int64(cut))
        // What was emitted before the cut is a prefix of the full import.
        #expect(Array(reference.records.prefix(outcome.records.count)) == outcome.records)
        #expect(outcome.summary.emitted == outcome.records.count)
    }

    @Test func everyCutPointFailsCleanly() throws {
        let bytes = Array(AppleHealthFixture.compact.utf8)
        let rootEnd = bytes.count - 1
        let reference = try importAppleHealthExport(bytes)
        #expect(reference.records.count == 6)
        for cut in 0..<rootEnd {
            let outcome = try importAppleHealthExport(Array(bytes[..<cut]), chunkSize: 97)
            #expect(outcome.error?.code == .invalidInput, "cut at \(cut)")
            #expect(outcome.error?.hasLocation() == true, "cut at \(cut)")
            #expect(Array(reference.records.prefix(outcome.records.count)) == outcome.records, "cut at \(cut)")
        }
        let whole = try importAppleHealthExport(Array(bytes[..<rootEnd]))
        #expect(whole.error == nil && whole.summary.isComplete)
    }

    @Test func truncationInsideARecordNamesTheOpenElement() throws {
        let text = Fixture.small
        let range = try #require(text.range(of: "<HeartRateVariabilityMetadataList>"))
        let cut = text.utf8.distance(from: text.utf8.startIndex, to: range.upperBound)
        let outcome = try importAppleHealthExport(Array(text.utf8.prefix(cut)))
        let error = try #require(outcome.error)
        #expect(error.message.contains("<HeartRateVariabilityMetadataList> opened at line"))
        #expect(error.location.byteOffset == cut)
        // The HRV record's start tag was complete, so it was emitted.
        #expect(outcome.records.map(\.kind) == [.hrv])
    }

    // MARK: - Flipped bytes

    @Test func flippedByteInAnEndTagNameIsAMismatch() throws {
        let text = Fixture.small.replacingOccurrences(of: "</Workout>", with: "</Workous>")
        let outcome = try importAppleHealthExport(text)
        let error = try #require(outcome.error)
        #expect(error.code == .invalidInput)
        #expect(error.message.contains("</Workous> does not match <Workout> opened at line"))
        let expectedLine = text.components(separatedBy: "\n").firstIndex { $0.contains("</Workous>") }.map { $0 + 1 }
        #expect(error.location.line == expectedLine)
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: try #require(text.range(of: "</Workous>")).lowerBound)
        #expect(error.location.byteOffset == offset)
    }

    @Test func flippedByteInAStartTagNameIsAMismatchAtItsEnd() throws {
        let text = Fixture.small.replacingOccurrences(of: "<Correlation ", with: "<Corrolation ")
        let outcome = try importAppleHealthExport(text)
        let error = try #require(outcome.error)
        #expect(error.message.contains("</Correlation> does not match <Corrolation>"))
        #expect(error.hasLocation())
    }

    @Test(arguments: [UInt8(ascii: "%"), UInt8(ascii: "\""), 0x00, 0x7F, UInt8(ascii: "=")])
    func flippedByteToAnIllegalCharacterInANameIsMalformed(byte: UInt8) throws {
        var bytes = Self.smallBytes
        let text = Fixture.small
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: try #require(text.range(of: "<Record type")).lowerBound) + 3
        bytes[offset] = byte
        let outcome = try importAppleHealthExport(bytes)
        let error = try #require(outcome.error)
        #expect(error.code == .invalidInput)
        #expect(error.message.hasPrefix("malformed export"))
        #expect(error.location.byteOffset == offset)
    }

    @Test func invalidUTF8InAnAttributeValueIsLocatedExactly() throws {
        var bytes = Self.smallBytes
        let text = Fixture.small
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: try #require(text.range(of: "Anna’s Apple Watch")).lowerBound) + 4
        // ’ is E2 80 99; break its first continuation byte.
        bytes[offset + 1] = 0x28
        let outcome = try importAppleHealthExport(bytes)
        let error = try #require(outcome.error)
        #expect(error.message.contains("invalid UTF-8"))
        #expect(error.location.byteOffset == offset)
        let line = bytes[..<offset].filter { $0 == 0x0A }.count + 1
        #expect(error.location.line == line)
    }

    @Test(arguments: [[UInt8(0xFF)], [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xF4, 0x90, 0x80, 0x80]])
    func invalidUTF8InAnElementNameIsAnError(sequence: [UInt8]) throws {
        let head = Array(Fixture.writer.header().utf8)
        let bytes = head + Array(" <Rec".utf8) + sequence + Array("rd type=\"x\"/>\n</HealthData>\n".utf8)
        let outcome = try importAppleHealthExport(bytes)
        let error = try #require(outcome.error)
        #expect(error.message.contains("invalid UTF-8"))
        #expect(error.location.byteOffset == head.count + 5)
    }

    @Test func invalidUTF8InAnAttributeNameIsAnError() throws {
        let head = Array(Fixture.writer.header().utf8)
        let bytes = head + Array(" <Record ty".utf8) + [0xFE] + Array("pe=\"x\"/>\n</HealthData>\n".utf8)
        let outcome = try importAppleHealthExport(bytes)
        #expect(outcome.error?.message.contains("invalid UTF-8") == true)
        #expect(outcome.error?.location.byteOffset == head.count + 11)
    }

    @Test func randomByteFlipsNeverCrash() throws {
        var random = AppleHealthTestRandom(state: 0x5EED)
        let reference = try importAppleHealthExport(Self.smallBytes)
        for iteration in 0..<300 {
            var bytes = Self.smallBytes
            for _ in 0..<(1 + iteration % 3) {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                bytes[index] ^= UInt8(1 << Int.random(in: 0..<8, using: &random))
            }
            let outcome = try importAppleHealthExport(bytes, chunkSize: [7, 64, 1 << 20][iteration % 3])
            if let error = outcome.error {
                #expect(error.code == .invalidInput, "iteration \(iteration)")
                #expect(error.hasLocation(), "iteration \(iteration)")
                #expect(!outcome.summary.isComplete)
            } else {
                #expect(outcome.summary.isComplete)
                #expect(outcome.summary.emitted == outcome.records.count, "iteration \(iteration)")
                #expect(outcome.records.count <= reference.records.count + 1, "iteration \(iteration)")
            }
        }
    }

    // MARK: - DTD

    @Test func iOS16DoctypeWithAnUnclosedAttributeListIsSkipped() throws {
        let writer = AppleHealthExportWriter(exportDate: Fixture.exportDate, doctype: .malformedIOS16)
        let header = writer.header()
        #expect(header.contains("<!ATTLIST VisionPrescription\n  type") && header.contains("#IMPLIED\n<!ELEMENT RightEye"))
        let outcome = try importAppleHealthExport(writer.document([Fixture.quantity("StepCount", "412", "count")]))
        #expect(outcome.error == nil)
        #expect(outcome.inputs == [try Fixture.expectedQuantity("StepCount", kind: .stepCount, value: 412, unit: "count")])
    }

    @Test func unknownDoctypeContentIsSkipped() throws {
        let doctype = """
        <?xml version="1.0" encoding="UTF-8"?>
        <?xml-stylesheet href="health.xsl"?>
        <!DOCTYPE HealthData SYSTEM "weird]>.dtd" [
        <!-- a comment with ]> and <!ATTLIST inside -->
        <!ENTITY watch "Apple ]> Watch">
        <!ATTLIST Record
          type CDATA #REQUIRED
          odd CDATA "a 'quoted' ]> default"
        <?pi with ]> inside ?>
        <!ELEMENT Extra ANY
        <!NOTATION gif SYSTEM 'image/gif'>
        ]  >
        <!-- after the DOCTYPE -->
        <HealthData locale="en_US">
         <ExportDate value="2024-03-01 09:00:00 +0100"/>
         <!-- a comment with <Record type="HKQuantityTypeIdentifierStepCount"/> inside -->
         <![CDATA[ <Record type="fake"/> ]]>
         <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Apple Watch" unit="count" value="412" startDate="2024-02-28 07:12:00 +0100" endDate="2024-02-28 07:12:00 +0100"/>
        </HealthData>

        """
        for chunkSize in [1, 2, 3, 5, 1 << 20] {
            let outcome = try importAppleHealthExport(doctype, chunkSize: chunkSize)
            #expect(outcome.error == nil, "chunk size \(chunkSize)")
            #expect(outcome.inputs == [try Fixture.expectedQuantity("StepCount", kind: .stepCount, value: 412, unit: "count")])
        }
    }

    @Test(arguments: [
        "<!DOCTYPE HealthData [\n<!ELEMENT HealthData ANY>\n",
        "<!DOCTYPE HealthData [\n<!-- never closed\n",
        "<!DOCTYPE HealthData [ <!ENTITY x \"never closed ]>\n",
    ])
    func unclosedDoctypeIsTruncation(doctype: String) throws {
        let outcome = try importAppleHealthExport("<?xml version=\"1.0\"?>\n" + doctype + "<HealthData>\n</HealthData>\n")
        let error = try #require(outcome.error)
        #expect(error.message.contains("ends inside the DOCTYPE declaration that starts at line 2"))
        #expect(error.hasLocation())
    }

    @Test func junkAfterTheDoctypeSubsetIsAnError() throws {
        let outcome = try importAppleHealthExport("<!DOCTYPE HealthData [ <!ELEMENT a ANY> ] junk>\n<HealthData/>\n")
        #expect(outcome.error?.message.contains("internal subset ends with ']'") == true)
        #expect(outcome.error?.location.line == 1)
    }

    // MARK: - Sizes and shapes

    @Test func tenMegabyteAttributeIsRejectedWithoutReadingItAll() throws {
        var bytes = Array(Fixture.writer.header().utf8)
        let start = bytes.count + 1
        bytes += Array(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: 10 << 20)
        bytes += Array("\" unit=\"count\" value=\"1\" startDate=\"2024-02-28 07:12:00 +0100\" endDate=\"2024-02-28 07:12:00 +0100\"/>\n</HealthData>\n".utf8)
        let outcome = try importAppleHealthExport(bytes)
        let error = try #require(outcome.error)
        #expect(error.code == .invalidInput)
        #expect(error.message.contains("longer than 1048576 bytes"))
        #expect(error.location.byteOffset == start)
        #expect(error.location.line == Fixture.writer.header().filter { $0 == "\n" }.count + 1)
        #expect(outcome.summary.bytesRead < 3 << 20)
    }

    @Test func hugeCommentAndTextAreSkippedInBoundedMemory() throws {
        var bytes = Array(Fixture.writer.header().utf8)
        bytes += Array(" <!--".utf8) + [UInt8](repeating: UInt8(ascii: "-"), count: 3 << 20) + Array("->\n".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: " "), count: 3 << 20)
        bytes += Array("x".utf8)  // character data inside the root is ignored
        bytes += Array(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Apple Watch\" unit=\"count\" value=\"412\" startDate=\"2024-02-28 07:12:00 +0100\" endDate=\"2024-02-28 07:12:00 +0100\"/>\n</HealthData>\n".utf8)
        let outcome = try importAppleHealthExport(bytes, chunkSize: 1 << 16, maximumElementBytes: 1 << 12)
        #expect(outcome.error == nil)
        #expect(outcome.records.count == 1)
    }

    @Test func deepNestingIsAnError() throws {
        let head = Fixture.writer.header()
        let nested = String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100)
        let outcome = try importAppleHealthExport(head + nested + "\n</HealthData>\n")
        #expect(outcome.error?.message.contains("nested more than 64 deep") == true)
        #expect(outcome.error?.hasLocation() == true)
    }

    @Test func overlongElementNameIsAnError() throws {
        let head = Fixture.writer.header()
        let name = String(repeating: "n", count: 5000)
        let outcome = try importAppleHealthExport(head + " <Workout><\(name)>\n</\(name)></Workout>\n</HealthData>\n")
        #expect(outcome.error?.message.contains("element name is longer than 1024 bytes") == true)
        #expect(outcome.error?.location.byteOffset == head.utf8.count + 11)
    }

    @Test func manyDistinctRecordTypesAreCountedInBoundedMemory() throws {
        var xml = Fixture.writer.header()
        for index in 0..<(HealthExportTally.maximumTypes + 50) {
            xml += " <Record type=\"HKQuantityTypeIdentifierMadeUp\(index)\" sourceName=\"x\" startDate=\"2024-02-28 07:12:00 +0100\" endDate=\"2024-02-28 07:12:00 +0100\"/>\n"
        }
        xml += " <Record type=\"" + String(repeating: "T", count: 300) + "\" sourceName=\"x\"/>\n"
        xml += " <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"Apple Watch\" unit=\"count\" value=\"412\" startDate=\"2024-02-28 07:12:00 +0100\" endDate=\"2024-02-28 07:12:00 +0100\"/>\n"
        xml += AppleHealthExportWriter.footer
        let outcome = try importAppleHealthExport(xml)
        #expect(outcome.error == nil)
        // The made-up types up to the cap, the overflow bucket, and StepCount (supported types always get their own entry).
        #expect(outcome.summary.recordTypes.count == HealthExportTally.maximumTypes + 2)
        #expect(outcome.summary[HealthExportTally.overflowType]?.seen == 51)
        #expect(outcome.records.count == 1)
        #expect(outcome.summary.seen == HealthExportTally.maximumTypes + 52)
    }

    @Test(arguments: [
        ("", "the file is empty"),
        ("   \n\n", "no <HealthData> element"),
        ("{\"type\":\"sample\"}\n", "unexpected text '{' before the <HealthData> element"),
        ("<?xml version=\"1.0\"?>\n<html><body/></html>\n", "the root element is <html>, not <HealthData>"),
        ("<HealthData></HealthData>\n<HealthData/>\n", "after the end of </HealthData>"),
        ("<HealthData></HealthData>\ntrailing", "unexpected text 't' after </HealthData>"),
        ("<HealthData>\n</Record>\n</HealthData>\n", "end tag </Record> does not match <HealthData>"),
        ("<HealthData>\n<Record type=\"a\" type2 = \"b\"c=\"d\"/>\n</HealthData>\n", "expected an attribute name"),
        ("<HealthData>\n<Record type=a/>\n</HealthData>\n", "is not quoted"),
        ("<HealthData>\n<Record type/>\n</HealthData>\n", "has no '='"),
        ("<HealthData>\n<Record type=\"a\"/ >\n</HealthData>\n", "expected '>' after '/'"),
        ("<HealthData>\n<!ELEMENT x ANY>\n</HealthData>\n", "unexpected markup '<!'"),
        ("<HealthData>\n< Record/>\n</HealthData>\n", "not an element name"),
        ("<HealthData>\n</ Record>\n</HealthData>\n", "not an element name"),
        ("<HealthData>\n<!DOCTYPE x>\n</HealthData>\n", "a DOCTYPE after the root element started"),
    ])
    func notAnExportOrMalformedXMLIsNamed(text: String, expected: String) throws {
        let outcome = try importAppleHealthExport(text)
        let error = try #require(outcome.error)
        #expect(error.code == .invalidInput)
        #expect(error.message.contains(expected), "\(error)")
        #expect(error.hasLocation())
    }

    @Test func zipArchiveIsRecognized() throws {
        let outcome = try importAppleHealthExport([0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00])
        #expect(outcome.error?.message.contains("zip archive") == true)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let outcome = try importAppleHealthExport([0xEF, 0xBB, 0xBF] + Self.smallBytes)
        #expect(outcome.error == nil)
        #expect(outcome.records.count == 6)
    }

    @Test func badEntitiesRejectOnlyTheirRecord() throws {
        let outcome = try importAppleHealthExport(Fixture.writer.document([
            .raw(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"a &#0; b\" unit=\"count\" value=\"3\" startDate=\"2024-02-28 07:00:00 +0100\" endDate=\"2024-02-28 07:01:00 +0100\"/>\n"),
            .raw(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"a &#xD800; b\" unit=\"count\" value=\"3\" startDate=\"2024-02-28 07:00:00 +0100\" endDate=\"2024-02-28 07:01:00 +0100\"/>\n"),
            .raw(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"AT&T\" unit=\"count\" value=\"3\" startDate=\"2024-02-28 07:00:00 +0100\" endDate=\"2024-02-28 07:01:00 +0100\"/>\n"),
            .raw(" <Record type=\"HKQuantityTypeIdentifierStepCount\" sourceName=\"&#x110000;\" unit=\"count\" value=\"3\" startDate=\"2024-02-28 07:00:00 +0100\" endDate=\"2024-02-28 07:01:00 +0100\"/>\n"),
            .raw(" <Record type=\"HKQuantityTypeIdentifier&bad;\" sourceName=\"x\"/>\n"),
            Fixture.quantity("StepCount", "10", "count"),
        ]))
        #expect(outcome.error == nil)
        #expect(outcome.records.count == 1)
        #expect(outcome.summary["HKQuantityTypeIdentifierStepCount"]?.rejectionReasons == [
            AppleHealthRejectionCount(reason: .invalidAttribute, count: 4),
        ])
        #expect(outcome.summary["Record"]?.rejectionReasons == [AppleHealthRejectionCount(reason: .invalidAttribute, count: 1)])
    }

    @Test func missingFileAndDirectoryAreInputUnavailable() throws {
        try withAppleHealthTestDirectory { directory in
            let missing = importAppleHealthFile(directory.appendingPathComponent("nope.xml").path)
            #expect(missing.error?.code == .inputUnavailable)
            #expect(missing.error?.message.contains("does not exist") == true)
            let folder = importAppleHealthFile(directory.path)
            #expect(folder.error?.code == .inputUnavailable)
            #expect(folder.error?.message.contains("is a directory") == true)
        }
    }

    // MARK: - Chunk boundaries

    @Test(arguments: [1, 2, 3, 7, 64, 333, 4096, 1 << 20])
    func anyChunkSizeGivesTheSameResult(chunkSize: Int) throws {
        let reference = try importAppleHealthExport(Self.smallBytes)
        let outcome = try importAppleHealthExport(Self.smallBytes, chunkSize: chunkSize)
        #expect(outcome.error == nil)
        #expect(outcome.records == reference.records)
        var summary = outcome.summary
        summary.path = reference.summary.path
        #expect(summary == reference.summary)
    }
}
