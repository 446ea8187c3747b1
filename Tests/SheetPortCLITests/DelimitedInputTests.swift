import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
import SheetPortTestSupport

/// Converts `bytes` saved as `name` to xlsx with the CLI; returns the exit status, stderr, the
/// folder's content afterwards (the input aside) and the rows of the written workbook.
func convertText(_ bytes: [UInt8], name: String, _ extra: [String] = []) throws
    -> (status: Int32, stderr: String, files: [String], rows: [Row]) {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent(name)
    try Data(bytes).write(to: input)
    let output = folder.appendingPathComponent("out.xlsx").path
    let result = try runSheetport(["convert", input.path, "-o", output] + extra)
    var rows: [Row] = []
    if result.status == 0 {
        let workbook = try Workbook(path: output)
        let reader = try workbook.rows(of: try #require(workbook.firstWorksheet))
        while let row = try reader.nextRow() { rows.append(row) }
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != name }
    return (result.status, result.stderr, files.sorted(), rows)
}

/// Expects `convert data.csv` with `options` to exit 2 with `message`, its hostile values
/// escaped, and to write nothing.
private func expectUsageError(_ options: [String], _ message: String) throws {
    let result = try convertText(Array("a,b\n".utf8), name: "data.csv", options)
    #expect(result.status == 2)
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(!result.stderr.dropLast().containsControlCharacters, "\(result.stderr)")
    #expect(result.files.isEmpty)
}

/// The values of `rows`, row by row.
private func values(_ rows: [Row]) -> [[CellValue]] { rows.map { $0.cells.map(\.value) } }

/// `convert X.csv --delimiter C`, and the delimiter told from the start of the input when it
/// is not given: `,` `;` TAB `|`, outside quotes, consistent counts winning.
@Suite struct DelimiterTests {
    @Test(arguments: [
        ("a;b;c\r\n1;2;3\r\n", [[CellValue.string("a"), .string("b"), .string("c")], [.number(1), .number(2), .number(3)]]),
        ("a\tb\n1\t2\n", [[.string("a"), .string("b")], [.number(1), .number(2)]]),
        ("a|b\n1|2\n", [[.string("a"), .string("b")], [.number(1), .number(2)]]),
        // Commas inside quotes and text do not count; the semicolon is on every line.
        ("name;note\n\"Smith, Jo\";\"a, b, c\"\nLee;x\n", [[.string("name"), .string("note")], [.string("Smith, Jo"), .string("a, b, c")], [.string("Lee"), .string("x")]]),
        // A delimiter only inside quotes: one column.
        ("\"a;b\"\n\"c;d\"\n", [[.string("a;b")], [.string("c;d")]]),
        // None at all: one column; a tie between comma and semicolon goes to the comma.
        ("alpha\nbeta\n", [[.string("alpha")], [.string("beta")]]),
        ("a,b;c\n1,2;3\n", [[.string("a"), .string("b;c")], [.number(1), .string("2;3")]]),
        // Mixed line endings (CRLF, LF, CR) and a blank line do not upset the counts.
        ("a;b\r\n1;2\n\n3;4\r5;6", [[.string("a"), .string("b")], [.number(1), .number(2)], [.number(3), .number(4)], [.number(5), .number(6)]]),
    ])
    func isToldFromTheStart(_ csv: String, _ expected: [[CellValue]]) throws {
        let result = try convertText(Array(csv.utf8), name: "data.csv")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(values(result.rows) == expected)
    }

    @Test func aSemicolonCSVWithDecimalCommasIsEuropeanExcel() throws {
        // Without a header the comma (decimal) and the semicolon tie; --decimal-comma breaks it.
        let csv = "1,5;2,25\r\n3,75;-4\r\n"
        let result = try convertText(Array(csv.utf8), name: "data.csv", ["--decimal-comma", "--no-header"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(values(result.rows) == [[.number(1.5), .number(2.25)], [.number(3.75), .number(-4)]])
    }

    @Test func aGivenDelimiterWins() throws {
        let csv = "a;b,c\n1;2,3\n"
        let result = try convertText(Array(csv.utf8), name: "data.csv", ["--delimiter", ";"])
        #expect(values(result.rows) == [[.string("a"), .string("b,c")], [.number(1), .string("2,3")]])
        let tab = try convertText(Array("a,b\tc\n".utf8), name: "data.csv", ["--delimiter", "\\t"])
        #expect(values(tab.rows) == [[.string("a,b"), .string("c")]])
    }

    @Test(arguments: ["", ";;", "\"", "\n", "\u{1}", "é", "\u{1B}[31m"])
    func aBadDelimiterIsAUsageError(_ delimiter: String) throws {
        try expectUsageError(["--delimiter", delimiter], "--delimiter takes one character")
        try expectUsageError(["--delimiter", ";", "--from", "tsv"], "--delimiter is for CSV input")
    }
}

/// `convert X.csv --encoding NAME`: iconv converts, byte order marks are honoured, and
/// invalid bytes are an error naming the file, the line and the byte offset.
@Suite struct EncodingTests {
    private func utf16(_ text: String, bigEndian: Bool = false, mark: Bool = true) -> [UInt8] {
        let units = (mark ? [0xFEFF] : []) + Array(text.utf16)
        return units.flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    @Test func cp1252AndLatin1AreConverted() throws {
        // 0x80 is the euro sign in cp1252; 0xE9 is é in both.
        let bytes: [UInt8] = Array("name;price\n".utf8) + [0x43, 0x61, 0x66, 0xE9, 0x3B, 0x80, 0x31, 0x0A]
        let cp1252 = try convertText(bytes, name: "data.csv", ["--encoding", "cp1252"])
        #expect(cp1252.status == 0, "\(cp1252.stderr)")
        #expect(values(cp1252.rows) == [[.string("name"), .string("price")], [.string("Café"), .string("€1")]])
        let latin1 = try convertText(Array(bytes.dropLast(3)) + [0x0A], name: "data.csv", ["--encoding", "LATIN1"])
        #expect(values(latin1.rows).last == [.string("Café")])
        // The same bytes read as UTF-8 (the default) are an error that says where.
        let utf8 = try convertText(bytes, name: "data.csv")
        #expect(utf8.status == 3)
        #expect(utf8.stderr.contains("data.csv: line 2: the text is not valid UTF-8 at byte offset 14"), "\(utf8.stderr)")
    }

    @Test(arguments: [false, true])
    func utf16ByteOrderMarksAreHonoured(_ bigEndian: Bool) throws {
        let result = try convertText(utf16("city;n\r\nZürich;1\r\n北京;2\r\n𝄞;3\r\n", bigEndian: bigEndian), name: "data.csv")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(values(result.rows) == [[.string("city"), .string("n")], [.string("Zürich"), .number(1)],
                                        [.string("北京"), .number(2)], [.string("𝄞"), .number(3)]])
    }

    @Test func charactersCutByTheReadBuffersAreWhole() throws {
        // 3,000 rows of pairs and 3-byte characters: the 64 KiB reads and buffers of converted
        // text end inside characters at many offsets.
        var text = "id;text\r\n"
        for row in 1...3000 { text += "\(row);" + String(repeating: "é𝄞€", count: row % 7 + 1) + "x\r\n" }
        let result = try convertText(utf16(text), name: "long.csv")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.rows.count == 3001)
        let expected = (1...3000).map { [CellValue.number(Double($0)), .string(String(repeating: "é𝄞€", count: $0 % 7 + 1) + "x")] }
        #expect(Array(values(result.rows).dropFirst()) == expected)
    }

    @Test func aBadByteFarInNamesItsLineAndOffset() throws {
        // 30,000 lines in cp1252 (past several 64 KiB reads), CRLF, LF and CR, then a 0x81.
        let lines = (0..<30_000).flatMap { [0xE9, 0x3B, 0x31] + ($0 % 3 == 0 ? [0x0D, 0x0A] : $0 % 3 == 1 ? [0x0A] : [0x0D]) as [UInt8] }
        let result = try convertText(lines + [0x61, 0x81], name: "far.csv", ["--encoding", "cp1252"])
        #expect(result.stderr.contains("far.csv: line 30001: the text is not valid cp1252 at byte offset \(lines.count + 1) (0x81)"), "\(result.stderr)")
    }

    @Test func utf32ByteOrderMarksAreHonoured() throws {
        let scalars = [0xFEFF] + "a;é\n𝄞;1\n".unicodeScalars.map { Int($0.value) }
        for bigEndian in [false, true] {
            let bytes = scalars.flatMap { value in (bigEndian ? [24, 16, 8, 0] : [0, 8, 16, 24]).map { UInt8((value >> $0) & 0xFF) } }
            let result = try convertText(bytes, name: "data.csv")
            #expect(values(result.rows) == [[.string("a"), .string("é")], [.string("𝄞"), .number(1)]], "\(result.stderr)")
        }
    }

    @Test(arguments: [false, true])
    func utf16WithoutAMarkIsToldFromItsZeros(_ bigEndian: Bool) throws {
        let result = try convertText(utf16("id;name\n1;Zoë\n", bigEndian: bigEndian, mark: false), name: "data.csv")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(values(result.rows) == [[.string("id"), .string("name")], [.number(1), .string("Zoë")]])
        // Not from text that merely has a NUL in it.
        let nul = try convertText([0x61, 0x00, 0x62, 0x00, 0x2C, 0x31, 0x0A], name: "data.csv", ["--no-header"])
        #expect(values(nul.rows) == [[.string("a\u{0}b\u{0}"), .number(1)]])
    }

    @Test func utf16WithAMarkOrANameIsRead() throws {
        let result = try convertText(utf16("a\tb\n1\t2\n", mark: false), name: "data.tsv", ["--encoding", "utf-16le"])
        #expect(values(result.rows) == [[.string("a"), .string("b")], [.number(1), .number(2)]])
        let named = try convertText(utf16("a,1\n", bigEndian: true), name: "data.csv", ["--encoding", "UTF-16", "--no-header"])
        #expect(values(named.rows) == [[.string("a"), .number(1)]])
    }

    @Test func aByteOrderMarkAloneOrNothingIsAnEmptySheet() throws {
        for bytes: [UInt8] in [[], [0xEF, 0xBB, 0xBF], [0xFF, 0xFE], [0xFE, 0xFF]] {
            let result = try convertText(bytes, name: "data.csv")
            #expect(result.status == 0, "\(bytes): \(result.stderr)")
            #expect(result.rows.isEmpty)
        }
    }

    @Test(arguments: [
        // A lone high surrogate (D800) before "x", and a lone low one (DC00), on line 2.
        ([0xFF, 0xFE, 0x61, 0x00, 0x0A, 0x00, 0x00, 0xD8, 0x78, 0x00], [String](), "line 2: the text is not valid UTF-16LE at byte offset 6"),
        ([0xFF, 0xFE, 0x61, 0x00, 0x0A, 0x00, 0x62, 0x00, 0x00, 0xDC], [], "line 2: the text is not valid UTF-16LE at byte offset 8"),
        // Cut off inside a character.
        ([0xFF, 0xFE, 0x61, 0x00, 0x62], [], "line 1: the input ends inside a UTF-16LE character at byte offset 4"),
        // 0x81 is no character in cp1252.
        (Array("a\r\nb\r\nc\u{0}d\r\n".utf8) + [0x81], ["--encoding", "cp1252"], "line 4: the text is not valid cp1252 at byte offset 11 (0x81)"),
        // Overlong and surrogate encodings are not UTF-8.
        ([0x61, 0x0A, 0xC0, 0xAF], [], "line 2: the text is not valid UTF-8 at byte offset 2"),
        ([0x61, 0x2C, 0xED, 0xA0, 0x80], [], "line 1: the text is not valid UTF-8 at byte offset 2"),
    ] as [([UInt8], [String], String)])
    func brokenTextNamesTheLineAndOffsetAndLeavesNothing(_ bytes: [UInt8], _ extra: [String], _ message: String) throws {
        let result = try convertText(bytes, name: "broken.csv", extra)
        #expect(result.status == 3)
        #expect(result.stderr.contains("broken.csv: " + message), "\(result.stderr)")
        #expect(result.files.isEmpty)
    }

    @Test(arguments: ["nope", "utf-8//IGNORE", "cp1252\u{7F}", "\u{1B}[2J", String(repeating: "x", count: 100), "-"])
    func anUnknownEncodingIsAUsageError(_ name: String) throws {
        try expectUsageError(["--encoding", name], "unknown encoding")
    }

    @Test func nulBytesAreKeptAsText() throws {
        let result = try convertText(Array("a\u{0}b,1\n\u{0},2\n".utf8), name: "data.csv", ["--no-header"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(values(result.rows) == [[.string("a\u{0}b"), .number(1)], [.string("\u{0}"), .number(2)]])
    }
}

/// Types decided over the whole column (Docs/Reference/Formats.md, "CSV and TSV"), `--decimal-comma`, and the
/// limits that keep memory bounded.
@Suite struct ColumnTypeTests {
    @Test func oneCodeMakesAZIPColumnText() throws {
        var csv = "zip,amount\n"
        for index in 0..<3000 { csv += index == 2500 ? "01234,\(index)\n" : "\(10_000 + index),\(index)\n" }
        let result = try convertText(Array(csv.utf8), name: "zips.csv")
        #expect(result.status == 0, "\(result.stderr)")
        let zips = result.rows.dropFirst().map { $0.cells[0].value }
        #expect(zips.allSatisfy { if case .string = $0 { true } else { false } })
        #expect(zips.first == .string("10000") && zips[2500] == .string("01234"))
        #expect(result.rows.dropFirst().allSatisfy { if case .number = $0.cells[1].value { true } else { false } })
    }

    @Test func eachKindHoldsOnlyWhenEveryFieldIsOne() throws {
        let csv = """
        n,flag,day,at,mixed,word
        1,TRUE,2024-01-31,13:45,1,x
        2.5,false,2024-02-29 08:00:00,08:00:00,TRUE,
        ,,,36:00:00,2024-01-01,3
        """
        let result = try convertText(Array(csv.utf8), name: "kinds.csv")
        #expect(result.status == 0, "\(result.stderr)")
        let quarter = 13.75 / 24.0, eight = 8.0 / 24
        #expect(values(result.rows) == [
            [.string("n"), .string("flag"), .string("day"), .string("at"), .string("mixed"), .string("word")],
            [.number(1), .boolean(true), .date(serial: 45322), .date(serial: quarter), .string("1"), .string("x")],
            [.number(2.5), .boolean(false), .date(serial: 45351 + eight), .date(serial: eight), .string("TRUE")],
            [.duration(days: 1.5), .string("2024-01-01"), .string("3")],
        ])
    }

    @Test func timesWithoutSecondsAreShownWithout() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("times.csv"), output = folder.appendingPathComponent("times.xlsx")
        try Data("at\n13:45\n08:00:00\n100:30\n".utf8).write(to: input)
        #expect(try runSheetport(["convert", input.path, "-o", output.path]).status == 0)
        let workbook = try Workbook(path: output.path)
        let styles = try workbook.styles()
        let reader = try workbook.rows(of: workbook.sheets[0])
        var formats: [String?] = []
        while let row = try reader.nextRow() { formats.append(styles.format(row.cells[0].styleIndex).numberFormat) }
        #expect(formats.dropFirst() == ["hh:mm", "hh:mm:ss", "[h]:mm"])
    }

    @Test func aFirstRowOfCodesCountsAgainstTheColumnWithNoHeader() throws {
        // --no-header: 007 is data, so the column is text; by default it is the header.
        let codes = try convertText(Array("007\n12\n34\n".utf8), name: "codes.csv", ["--no-header"])
        #expect(values(codes.rows) == [[.string("007")], [.string("12")], [.string("34")]])
        let header = try convertText(Array("007\n12\n34\n".utf8), name: "codes.csv")
        #expect(values(header.rows) == [[.string("007")], [.number(12)], [.number(34)]])
        let named = try convertText(Array("\n,\nAmount (€)\n12\n34\n".utf8), name: "named.csv")
        #expect(values(named.rows) == [[.string("Amount (€)")], [.number(12)], [.number(34)]])
        let single = try convertText(Array("1,x,2024-01-31\n".utf8), name: "one.csv", ["--no-header"])
        #expect(values(single.rows) == [[.number(1), .string("x"), .date(serial: 45322)]])
    }

    @Test(arguments: [
        ("1.234,5", CellValue.number(1234.5)), ("1234,5", .number(1234.5)), ("-0,25", .number(-0.25)),
        ("1.234.567", .number(1_234_567)), (",5", .number(0.5)), ("1,5E3", .number(1500)),
        ("1.5", .string("1.5")), ("1.23", .string("1.23")), ("01,5", .string("01,5")), ("1.234,", .number(1234)),
        ("1..234", .string("1..234")), ("1.2345,6", .string("1.2345,6")), (".234,5", .string(".234,5")),
    ])
    func decimalCommaNumbers(_ field: String, _ expected: CellValue) throws {
        let result = try convertText(Array("\(field)\n".utf8), name: "one.tsv", ["--decimal-comma", "--no-header"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(values(result.rows) == [[expected]])
        #expect(TypeInference.number(field) == nil || !field.contains(","))
    }

    @Test func typesOfStandardInputAreDecidedOverTheWholeColumn() throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // The 007 on the last line makes the first line's 1 text: both passes read the spool.
        let result = try runSheetport(["convert", "-", "--from", "csv", "--to", "xlsx", "--no-header"], input: Data("1;a\n2;b\n007;c\n".utf8),
                                      environment: ["TMPDIR": scratch.path])
        #expect(result.status == 0, "\(result.stderr)")
        let workbook = try Workbook(bytes: [UInt8](result.stdout), name: "<stdout>")
        let reader = try workbook.rows(of: workbook.sheets[0])
        #expect(try reader.nextRow()?.cells.map(\.value) == [.string("1"), .string("a")])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    @Test func anEndlessDeviceStopsAtTheFirstBadFieldNotAtAFullDisk() throws {
        // The copy for the second pass is made while the first reads, so the first error ends both.
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try runSheetport(["convert", "/dev/zero", "--from", "csv", "-o", scratch.appendingPathComponent("out.xlsx").path],
                                      environment: ["TMPDIR": scratch.path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("/dev/zero: line 1: a field of over 98301 bytes"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }

    @Test func noInferStreamsStandardInputWithoutASpool() throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try runSheetport(["convert", "-", "--from", "csv", "-o", scratch.appendingPathComponent("out.xlsx").path, "--no-infer"],
                                      input: Data("1;2\n".utf8), environment: ["TMPDIR": scratch.path])
        #expect(result.status == 0, "\(result.stderr)")
        let workbook = try Workbook(path: scratch.appendingPathComponent("out.xlsx").path)
        #expect(try workbook.rows(of: workbook.sheets[0]).nextRow()?.cells.map(\.value) == [.string("1"), .string("2")])
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["out.xlsx"])
    }

    @Test(arguments: [false, true])
    func aOneMegabyteFieldIsRefusedWithItsLine(_ quoted: Bool) throws {
        let field = String(repeating: "x", count: 1 << 20)
        let csv = "a,b\n1,2\n" + (quoted ? "\"\(field)\"" : field) + ",3\n"
        let result = try convertText(Array(csv.utf8), name: "big.csv")
        #expect(result.status == 3)
        #expect(result.stderr.contains("big.csv: line 3: a field of over 98301 bytes: a cell holds at most 32,767 characters"), "\(result.stderr)")
        #expect(result.files.isEmpty)
    }

    @Test func aRecordWiderThanTheGridIsRefused() throws {
        let result = try convertText(Array(("a\n" + String(repeating: ",", count: 20_000) + "\n").utf8), name: "wide.csv")
        #expect(result.status == 3)
        #expect(result.stderr.contains("wide.csv: line 2: over 16,384 fields"), "\(result.stderr)")
    }
}

/// The spool of standard input: private, and removed on SIGINT and SIGTERM.
@Suite(.serialized) struct SpoolSignalTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalWhileSpoolingRemovesTheSpool(_ signal: Int32, _ status: Int32) throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = Project.executable
        process.arguments = ["convert", "-", "--from", "csv", "-o", scratch.appendingPathComponent("out.xlsx").path]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": scratch.path]) { $1 }
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Input arrives and then stalls, as from a slow producer; the spool holds what came.
        input.fileHandleForWriting.write(Data("a,b\n1,2\n".utf8))
        var modes: (folder: Int, file: Int)?
        for _ in 0..<1000 where process.isRunning && modes == nil {
            if let folder = try FileManager.default.contentsOfDirectory(atPath: scratch.path).first(where: { $0.hasPrefix("sheetport-scratch-") }) {
                let path = scratch.appendingPathComponent(folder).path
                if let file = try FileManager.default.contentsOfDirectory(atPath: path).first,
                   let size = try FileManager.default.attributesOfItem(atPath: path + "/" + file)[.size] as? Int, size > 0 {
                    modes = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? 0,
                             try FileManager.default.attributesOfItem(atPath: path + "/" + file)[.posixPermissions] as? Int ?? 0)
                }
            }
            if modes == nil { usleep(10_000) }
        }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        #expect(modes?.folder == 0o700 && modes?.file == 0o600, "\(String(describing: modes))")
        #expect(process.terminationStatus == status)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }
}
