import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert
import SheetPortTestSupport

/// `sheetport convert IN.(csv|tsv|jsonl) -o OUT.xlsx`: typing, quoting, line endings,
/// errors with line numbers, and nothing left behind on failure or cancellation.
@Suite struct TextToWorkbookTests {
    /// Converts `text` saved as `name` to xlsx with the CLI ("<FF>" stands for a byte that
    /// is not UTF-8), as `convertText` does.
    private func convert(_ text: String, name: String, _ extra: [String] = []) throws
        -> (status: Int32, stderr: String, files: [String], rows: [Row]) {
        try convertText(Array(text.components(separatedBy: "<FF>").map { Data($0.utf8) }.joined(separator: [0xFF])), name: name, extra)
    }

    @Test func typesCSVFieldsAsSpreadsheetUsersExpect() throws {
        let csv = "\u{FEFF}name,amount,id,flag,when,at,time,elapsed,zip,big,text\r\n"
            + "\"Smith, \"\"Jo\"\"\",1.5,-42,TRUE,2024-01-31,2024-01-31 13:45:00,13:45:30,36:00:00,007,12345678901234567,=1+1\r\n"
            + "\"multi\nline\",1e3,+7,false,2024-02-30,x,,,0.5,1234567890,  spaced  \r"
        let result = try convert(csv, name: "data.csv")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.files == ["out.xlsx"])
        let values = result.rows.map { $0.cells.map(\.value) }
        #expect(values[0].first == .string("name"))
        // Types are decided per column: the invalid 2024-02-30, the x, the 007, the 17-digit ID
        // and the 1e3 beside a plain 1.5 (an exponent only in part of a column) make their whole
        // columns text.
        let time: Double = 49_530 / 86_400.0
        let second: [CellValue] = [.string("Smith, \"Jo\""), .string("1.5"), .number(-42), .boolean(true),
                                   .string("2024-01-31"), .string("2024-01-31 13:45:00"), .date(serial: time), .duration(days: 1.5),
                                   .string("007"), .string("12345678901234567"), .string("=1+1")]
        #expect(values[1] == second)
        #expect(values[2] == [.string("multi\nline"), .string("1e3"), .number(7), .boolean(false), .string("2024-02-30"),
                              .string("x"), .string("0.5"), .string("1234567890"), .string("  spaced  ")])
        #expect(result.rows.map(\.index) == [1, 2, 3])
    }

    @Test func noInferKeepsEveryFieldAsText() throws {
        let result = try convert("1,TRUE,2024-01-31\n", name: "data.csv", ["--no-infer"])
        #expect(result.rows.first?.cells.map(\.value) == [.string("1"), .string("TRUE"), .string("2024-01-31")])
    }

    @Test func readsTSVWithEscapes() throws {
        let result = try convert("a\\tb\t2\n\nlast\\nline\\\\\n", name: "data.tsv", ["--no-header"])
        #expect(result.rows.map(\.index) == [1, 3])
        #expect(result.rows.map { $0.cells.map(\.value) } == [[.string("a\tb"), .number(2)], [.string("last\nline\\")]])
    }

    @Test(arguments: [
        ("data.csv", "a,b\n1,\"open\n2,3\n", "line 2: a quoted field is not closed"),
        ("data.csv", "a,\"b\"c\n", "line 1: unexpected \"c\" after a closing quote"),
        ("data.csv", "ok\n<FF>bad\n", "line 2: the text is not valid UTF-8 at byte offset 3"),
        ("cells.jsonl", "{\"ref\":\"A1\",\"type\":\"number\",\"value\":1}\nnot json\n", "line 2: not a JSON object"),
        ("cells.jsonl", "{\"ref\":\"B2\",\"type\":\"number\",\"value\":1}\n{\"ref\":\"A1\",\"type\":\"number\",\"value\":1}\n", "line 2: A1 comes after B2"),
        ("cells.jsonl", "{\"ref\":\"A1\",\"type\":\"texte\",\"value\":1}\n", "line 1: \"type\" must be"),
        ("cells.jsonl", "{\"ref\":\"A1\",\"type\":\"string\",\"value\":\"\(String(repeating: "x", count: 32_768))\"}\n", "over Excel's limit of 32,767"),
        ("cells.jsonl", "{\"ref\":\"XFE1\",\"type\":\"number\",\"value\":1}\n", "\"ref\" must be a cell reference"),
    ])
    func malformedInputNamesTheLineAndLeavesNothing(_ name: String, _ text: String, _ message: String) throws {
        let result = try convert(text, name: name)
        #expect(result.status == 3)
        #expect(result.stderr.contains(name) && result.stderr.contains(message), "\(result.stderr)")
        #expect(result.files.isEmpty)
    }

    @Test func jsonlCarriesTypesFormulasAndStyles() throws {
        let jsonl = """
        {"ref":"A1","type":"string","value":"Total","style":{"bold":true,"fill":"#FFEE00"}}
        {"ref":"B1","type":"number","value":0.1,"formula":"A2/3"}
        {"ref":"C1","type":"date","value":"2024-01-31T13:45:00.000","style":{"numFmt":"yyyy-mm-dd hh:mm"}}
        {"ref":"D1","type":"empty","value":null,"formula":"NOW()"}
        {"ref":"E1","type":"error","value":"#N/A"}
        {"ref":"A3","type":"boolean","value":false}
        """
        let result = try convert(jsonl, name: "cells.jsonl")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.rows.map(\.index) == [1, 3])
        let afternoon: Double = 45322 + 49_500 / 86_400.0
        let first: [CellValue] = [.string("Total"), .number(0.1), .date(serial: afternoon), .empty, .error("#N/A")]
        #expect(result.rows[0].cells.map(\.value) == first)
        #expect(result.rows[0].cells.map(\.formula) == [nil, "A2/3", nil, "NOW()", nil])
    }

    @Test func writesXLSXToStandardOutput() throws {
        let result = try runSheetport(["convert", "-", "--from", "csv", "--to", "xlsx", "--no-header"], input: Data("a,1\n".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let workbook = try Workbook(bytes: [UInt8](result.stdout), name: "<stdout>")
        #expect(workbook.sheets.map(\.name) == ["Sheet1"])
        #expect(try workbook.rows(of: workbook.sheets[0]).nextRow()?.cells.map(\.value) == [.string("a"), .number(1)])
    }
}

/// SIGINT and SIGTERM while a workbook is being written, and staging left by a killed
/// process: no staging directory survives and the destination is left as it was.
@Suite(.serialized) struct WriterSignalTests {
    private func bigCSV(in folder: URL, rows: Int = 400_000) throws -> URL {
        let url = folder.appendingPathComponent("big.csv")
        var text = ""
        text.reserveCapacity(rows * 60)
        for row in 1...rows { text += "\(row),item-\(row),\(Double(row) / 7),TRUE,2024-01-31\n" }
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalLeavesNoStaging(_ signal: Int32, _ status: Int32) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = try bigCSV(in: folder)
        let output = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let destination = output.appendingPathComponent("big.xlsx")
        try Data("previous".utf8).write(to: destination)

        // Interrupt once the package being streamed has bytes in the staging directory (with
        // --no-infer, which skips the first pass that decides column types).
        let result = try interruptSheetport(["convert", csv.path, "-o", destination.path, "--no-infer"], with: signal) {
            try FileManager.default.contentsOfDirectory(atPath: output.path).contains { name in
                guard name.hasPrefix(".big.xlsx.sheetport-") else { return false }
                let staging = output.appendingPathComponent(name)
                let size = (try? FileManager.default.attributesOfItem(atPath: staging.appendingPathComponent("workbook.xlsx.next").path)[.size] as? Int) ?? 0
                guard size > 0 else { return false }
                let mode = (try? FileManager.default.attributesOfItem(atPath: staging.path)[.posixPermissions]) as? Int
                #expect(mode == 0o700)
                return true
            }
        }
        #expect(result.wasReady, "the conversion ended before it could be interrupted")
        #expect(result.status == status)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["big.xlsx"])
        #expect(try String(contentsOf: destination, encoding: .utf8) == "previous")
    }

    /// A full disk, as `ulimit -f` makes one: an unwritable output (exit 4) naming the file, no
    /// staging left, the destination as it was. For xlsx output and for CSV output.
    @Test(arguments: ["big.xlsx", "big.csv"])
    func fileSizeLimitIsAnErrorThatCleansUp(_ name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = try bigCSV(in: folder, rows: 40_000) // 2 MB of CSV, 1 MB of xlsx
        var input = csv.path
        if name == "big.csv" { // a workbook to convert to CSV
            input = folder.appendingPathComponent("in.xlsx").path
            #expect(try runSheetport(["convert", csv.path, "-o", input]).status == 0)
        }
        let output = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let destination = output.appendingPathComponent(name)
        try Data("previous".utf8).write(to: destination)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = ["-c", "ulimit -f 512 && exec \"$0\" convert \"$1\" -o \"$2\"", Project.executable.path, input, destination.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 4, "\(stderr)")
        #expect(stderr.contains(destination.path), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == [name])
        #expect(try String(contentsOf: destination, encoding: .utf8) == "previous")
    }

    @Test func stagingOfAKilledProcessIsSwept() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The pid of a process that has ended.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = folder.appendingPathComponent(".out.xlsx.sheetport-\(ended.processIdentifier)-AbC123")
        try FileManager.default.createDirectory(at: stale, withIntermediateDirectories: true)
        try Data("partial".utf8).write(to: stale.appendingPathComponent("workbook.xlsx.next"))
        // One of a process that is still running (this one) is left alone.
        let live = folder.appendingPathComponent(".out.xlsx.sheetport-\(getpid())-XyZ789")
        try FileManager.default.createDirectory(at: live, withIntermediateDirectories: true)
        let csv = folder.appendingPathComponent("in.csv")
        try Data("1,2\n".utf8).write(to: csv)
        let result = try runSheetport(["convert", csv.path, "-o", folder.appendingPathComponent("out.xlsx").path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [live.lastPathComponent, "in.csv", "out.xlsx"])
    }
}
