import Testing
@testable import DuneEvents
import DuneTools

/// SPEC §11.1: every hrv sample knows whether it is SDNN or RMSSD; a line
/// that does not say takes the measure from its source name.
@Suite struct HRVMeasureTests {
    @Test func sourceRuleFoldsASCIICaseOnly() {
        #expect(HRVMeasure(source: "Oura") == .rmssd)
        #expect(HRVMeasure(source: "my OURA ring") == .rmssd)
        #expect(HRVMeasure(source: "WHOOP 4.0") == .rmssd)
        #expect(HRVMeasure(source: "Whoop") == .rmssd)
        #expect(HRVMeasure(source: "xwhoopx") == .rmssd)
        #expect(HRVMeasure(source: "Apple Watch") == .sdnn)
        #expect(HRVMeasure(source: "") == .sdnn)
        #expect(HRVMeasure(source: "our a") == .sdnn)
        #expect(HRVMeasure(source: "Laura's Watch") == .sdnn)
        #expect(HRVMeasure(source: "whoo") == .sdnn)
        // Only A–Z fold: a dotless or dotted I, a long s or a Kelvin sign never
        // turns into an ASCII letter, whatever the locale.
        #expect(HRVMeasure(source: "OURA\u{130}") == .rmssd)
        #expect(HRVMeasure(source: "WHO\u{17F}P") == .sdnn)
        #expect(HRVMeasure(source: "Ｏｕｒａ") == .sdnn)
    }

    @Test func sampleCarriesAMeasureExactlyWhenItIsHRV() {
        let at = Timestamp(epochSeconds: 1_790_000_000, nanoseconds: 0, offsetSeconds: 0)
        let quantity = Sample.Reading.quantity(Quantity(value: 50, inputValue: 50, inputUnit: "ms"))
        let ring = Sample(id: "a", kind: .hrv, start: at, end: at, source: "Oura", reading: quantity)
        #expect(ring.hrvMeasure == .rmssd)
        let watch = Sample(id: "a", kind: .hrv, start: at, end: at, source: "Apple Watch", reading: quantity)
        #expect(watch.hrvMeasure == .sdnn)
        let named = Sample(id: "a", kind: .hrv, start: at, end: at, source: "Apple Watch", reading: quantity, hrvMeasure: .rmssd)
        #expect(named.hrvMeasure == .rmssd)
        let resting = Sample(id: "a", kind: .restingHeartRate, start: at, end: at, source: "Oura",
                             reading: .quantity(Quantity(value: 50, inputValue: 50, inputUnit: "count/min")), hrvMeasure: .rmssd)
        #expect(resting.hrvMeasure == nil)
    }

    /// A stored v1 hrv line from an Oura source: the fast scanner (packed
    /// row, and the full row of a non-UUID id) and the reference decoder
    /// both read RMSSD; an Apple Watch line reads SDNN.
    @Test func storedV1LineDecodesItsMeasureOnBothPaths() throws {
        let cases: [(id: String, source: String, measure: HRVMeasure)] = [
            ("8264d208-f9ae-4bcc-ac75-d0a4fcc88741", "Oura Ring", .rmssd),
            ("oura-not-a-uuid", "OURA", .rmssd),
            ("8264d208-f9ae-4bcc-ac75-d0a4fcc88742", "Apple Watch", .sdnn),
            ("8264d208-f9ae-4bcc-ac75-d0a4fcc88743", "WHOOP", .rmssd),
        ]
        for (seq, item) in cases.enumerated() {
            let text = #"{"v":1,"seq":\#(seq + 1),"id":"019a2b3c-4d5e-7f60-8a1b-00000000000\#(seq + 1)","type":"sample.ingested","#
                + #""recordedAt":"2026-03-01T07:00:00.120Z","data":{"end":"2026-03-01T06:00:00Z","id":"\#(item.id)","#
                + #""kind":"hrv","source":"\#(item.source)","start":"2026-03-01T06:00:00Z","unit":"ms","value":61.5}"#
            var line = Array(text.utf8)
            StoredLine.seal(&line)
            line.removeLast()  // the decoders take a line without its newline

            var builder = EventBatchBuilder()
            let handled = ByteView.with(line) { StoredLineScanner().decode($0, into: &builder) }
            #expect(handled)
            let batch = builder.build()
            #expect(batch.count == 1)
            guard case .sampleIngested(let fast) = batch[0].event.payload else {
                Issue.record("the scanner did not decode a sample")
                continue
            }
            #expect(fast.hrvMeasure == item.measure)
            #expect(batch.samples.rows[0].hrvMeasure == item.measure)

            let reference = try line.withUnsafeBytes { bytes throws(EventCodec.DecodeError) in try EventCodec.decode(bytes) }
            guard case .sampleIngested(let decoded) = reference.event.payload else {
                Issue.record("the reference did not decode a sample")
                continue
            }
            #expect(decoded.hrvMeasure == item.measure)
            #expect(decoded == fast)
        }
    }

    @Test func sampleBlockKeepsTheMeasureOfPackedAndFullRows() {
        let at = Timestamp(epochSeconds: 1_790_000_000, nanoseconds: 0, offsetSeconds: 0)
        let quantity = Sample.Reading.quantity(Quantity(value: 50, inputValue: 50, inputUnit: "ms"))
        var builder = SampleBlockBuilder()
        let packs = Sample(id: "8264d208-f9ae-4bcc-ac75-d0a4fcc88741", kind: .hrv, start: at, end: at, source: "Apple Watch",
                           reading: quantity, hrvMeasure: .rmssd)
        let full = Sample(id: "not-a-uuid", kind: .hrv, start: at, end: at, source: "Oura", reading: quantity)
        let plain = Sample(id: "8264d208-f9ae-4bcc-ac75-d0a4fcc88742", kind: .hrv, start: at, end: at, source: "Oura",
                           reading: quantity, hrvMeasure: .sdnn)
        builder.append(packs, seq: 1)
        builder.append(full, seq: 2)
        builder.append(plain, seq: 3)
        let block = builder.build()
        #expect(block.rows.map(\.hrvMeasure) == [.rmssd, .rmssd, .sdnn])
        #expect(!block.rows[0].isFull && block.rows[1].isFull && !block.rows[2].isFull)
        #expect((0..<3).map { block.sample(at: $0) } == [packs, full, plain])
    }

    /// The Apple Health import applies the source rule to each record's source name.
    @Test func appleHealthRecordsTakeTheMeasureOfTheirSource() throws {
        let outcome = try importAppleHealthExport(AppleHealthFixture.writer.document([
            AppleHealthFixture.quantity("HeartRateVariabilitySDNN", "48.2", "ms"),
            AppleHealthFixture.quantity("HeartRateVariabilitySDNN", "71.5", "ms", source: "Oura"),
            AppleHealthFixture.quantity("HeartRateVariabilitySDNN", "90", "ms", source: "WHOOP"),
        ]))
        #expect(outcome.error == nil)
        let measures = try outcome.inputs.map { input -> HRVMeasure? in
            let command = try InputParser.parse(JSONWriter.string(.object(input)))
            guard case .sample(let sample) = command.intent else { return nil }
            return sample.hrvMeasure
        }
        #expect(measures == [.sdnn, .rmssd, .rmssd])
    }

    /// An explicit measure on both input parsers, and in the content: the
    /// rule's measure named is the same content as none; the other is not.
    @Test func anExplicitMeasureIsStoredAndTheRulesOneIsTheSameContent() throws {
        func line(_ source: String, _ measure: String?) -> String {
            #"{"type":"sample","kind":"hrv","id":"8264d208-f9ae-4bcc-ac75-d0a4fcc88741","start":"2026-03-01T06:00:00Z","end":"2026-03-01T06:00:00Z","value":61.5,"unit":"ms","source":"\#(source)""#
                + (measure.map { #","measure":"\#($0)""# } ?? "") + "}"
        }
        func parsed(_ text: String) throws -> (fast: IngestCommand, reference: IngestCommand) {
            let reference = try Array(text.utf8).withUnsafeBytes { buffer throws(Rejection) in try InputParser.parseGeneral(buffer) }
            return (try InputParser.parse(text), reference)
        }
        for (source, rule, other) in [("Oura Ring", "rmssd", "sdnn"), ("Apple Watch", "sdnn", "rmssd")] {
            let none = try parsed(line(source, nil)), same = try parsed(line(source, rule)), different = try parsed(line(source, other))
            #expect(none.fast.content == none.reference.content)
            #expect(same.fast.content == none.fast.content && same.reference.content == none.fast.content)
            #expect(different.fast.content != none.fast.content && different.reference.content == different.fast.content)
            guard case .sample(let sample) = different.fast.intent, case .sample(let referenceSample) = different.reference.intent else {
                Issue.record("not a sample")
                continue
            }
            #expect(sample.hrvMeasure == HRVMeasure(rawValue: other) && referenceSample == sample)
        }
    }

    /// A typed input: `hrvMeasure` is stored as given, `nil` takes the source
    /// rule (the same content as the line), and on another reading it is refused.
    @Test func typedInputTakesAnOptionalMeasure() throws {
        let at = try Timestamp(parsing: "2026-03-01T06:00:00Z")
        func command(_ reading: SampleInput.Reading, _ measure: HRVMeasure?, source: String = "Oura Ring") throws -> IngestCommand {
            let input = SampleInput(id: "8264d208-f9ae-4bcc-ac75-d0a4fcc88741", start: at, end: at, source: source, reading: reading,
                                    hrvMeasure: measure)
            return try IngestCommand.sample(input, eventID: nil)
        }
        let ruled = try command(.hrv(61.5, .milliseconds), nil)
        let named = try command(.hrv(61.5, .milliseconds), .rmssd)
        let other = try command(.hrv(61.5, .milliseconds), .sdnn)
        let line = try InputParser.parse(#"{"type":"sample","kind":"hrv","id":"8264d208-f9ae-4bcc-ac75-d0a4fcc88741","start":"2026-03-01T06:00:00Z","end":"2026-03-01T06:00:00Z","value":61.5,"unit":"ms","source":"Oura Ring"}"#)
        #expect(ruled.content == line.content && named.content == line.content && other.content != line.content)
        guard case .sample(let sample) = other.intent else { return }
        #expect(sample.hrvMeasure == .sdnn)
        #expect(throws: Rejection(.measureNotHRV, field: "measure",
                                  "field \"measure\" is given on a restingHeartRate sample; only hrv samples have a measure")) {
            try command(.restingHeartRate(52, .countPerMinute), .rmssd)
        }
    }
}
