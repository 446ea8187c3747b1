import Foundation
import Testing
@testable import SheetPortReader
import SheetPortTestSupport

/// Runs `sheetport arguments` under `script`, so that standard output and standard error are a
/// terminal (what a person sees); returns the exit status and everything the terminal showed.
func runOnTerminal(_ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    let command = ([Project.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
    process.arguments = ["-qec", command, "/dev/null"]
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// The input format told from the content; nothing binary and no progress bar drawn into a
/// terminal's data; progress with speed, time left and a summary.
@Suite struct TerminalAndSniffingTests {
    @Test func csvOnStandardInputIsSniffed() throws {
        let result = try runSheetport(["convert", "-"], input: Data("name;qty\r\napples;3\r\n".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.starts(with: [0x50, 0x4B, 0x03, 0x04])) // an xlsx
        let jsonl = try runSheetport(["convert", "-", "--to", "xlsx"], input: Data(#"  {"ref":"A1","type":"number","value":1}"#.utf8))
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        // And an xlsx on standard input still converts to CSV.
        let book = try Data(contentsOf: URL(fileURLWithPath: Project.fixture("multi_sheet.xlsx")))
        let back = try runSheetport(["convert", "-", "--sheet", "Data"], input: book)
        #expect(back.status == 0 && String(decoding: back.stdout, as: UTF8.self).hasPrefix("Item,Qty\r\n"), "\(back.stderr)")
    }

    @Test func aLegacyWorkbookIsNamedWhateverItsExtension() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (corpus, code) in [("roo__type_excel.xlsx", "legacy-xls"), ("poi__protect.xlsx", "encrypted-workbook")] {
            for name in ["book.xls", "book.bin", "book"] {
                let path = folder.appendingPathComponent(name)
                try? FileManager.default.removeItem(at: path)
                try FileManager.default.copyItem(at: Project.corpus.appendingPathComponent(corpus), to: path)
                let result = try runSheetport(["convert", path.path])
                #expect(result.status == 3)
                #expect(result.stderr.contains("(\(code))") && !result.stderr.contains("cannot tell"), "\(name): \(result.stderr)")
            }
        }
    }

    @Test func odsTextBinaryEmptyAndFoldersSayWhatTheyAre() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ods = folder.appendingPathComponent("sheet.ods")
        try Data(StoredZip.make([("mimetype", Array("application/vnd.oasis.opendocument.spreadsheet".utf8)),
                                      ("content.xml", Array("<office:document-content/>".utf8))])).write(to: ods)
        let text = folder.appendingPathComponent("text.xlsx")
        try Data("a,b\n1,2\n".utf8).write(to: text)
        let binary = folder.appendingPathComponent("program")
        try Data([0x7F, 0x45, 0x4C, 0x46, 0, 1, 2, 3, 0x1B, 0x9B]).write(to: binary)
        let empty = folder.appendingPathComponent("empty.xlsx")
        try Data().write(to: empty)
        for (path, message) in [(ods.path, "OpenDocument"), (text.path, "text (CSV), not an xlsx workbook; to convert it to xlsx, give --from csv"),
                                (binary.path, "starts with the bytes 7F 45 4C 46"), (empty.path, "an empty file"),
                                (folder.path, "a directory")] {
            let result = try runSheetport(["convert", path])
            #expect(result.status == 3)
            #expect(result.stderr.contains(message), "\(result.stderr)")
            #expect(!result.stderr.contains("cannot tell") && !result.stderr.contains("unknown output format"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).count == 4)
    }

    @Test func anOutputWithoutExtensionTakesTheDefault() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let result = try runSheetport(["convert", Project.fixture("multi_sheet.xlsx"), "--sheet", "Data", "-o", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: out, encoding: .utf8).hasPrefix("Item,Qty\r\n"))
        let unknown = try runSheetport(["convert", Project.fixture("multi_sheet.xlsx"), "-o", folder.appendingPathComponent("out.pdf").path])
        #expect(unknown.status == 2 && unknown.stderr.contains("unknown output format \"pdf\" (from the extension of"), "\(unknown.stderr)")
        let xlsx = folder.appendingPathComponent("book")
        let text = try runSheetport(["convert", "-", "-o", xlsx.path], input: Data("a\n1\n".utf8))
        #expect(text.status == 0, "\(text.stderr)")
        #expect(try Data(contentsOf: xlsx).starts(with: [0x50, 0x4B]))
    }

    @Test func anXlsxIsNeverWrittenToATerminal() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("data.csv")
        try Data("a,b\n1,2\n".utf8).write(to: csv)
        let result = try runOnTerminal(["convert", csv.path])
        #expect(result.status == 2)
        #expect(result.output.contains("not written to a terminal") && result.output.contains("-o OUT.xlsx"))
        #expect(!result.output.contains("PK"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["data.csv"])
    }

    @Test func noBarInDataOnATerminalButABarWithSpeedAndASummaryElsewhere() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try makeLargeWorkbook(rows: 30_000, in: folder)
        // CSV to the terminal: the data is clean of the bar; a summary line follows it.
        let toTerminal = try runOnTerminal(["convert", book])
        #expect(toTerminal.status == 0)
        #expect(!toTerminal.output.contains("converting Data ["))
        #expect(!toTerminal.output.contains("\u{1B}[2K"))
        #expect(toTerminal.output.contains("converted \"Data\": 30000 rows"))
        // To a file: the bar shows rows, speed and time left, then the summary.
        let toFile = try runOnTerminal(["convert", book, "-o", folder.appendingPathComponent("out.csv").path])
        #expect(toFile.status == 0)
        #expect(toFile.output.contains("converting Data [") && toFile.output.contains(" rows"))
        #expect(toFile.output.contains(" MB/s") || toFile.output.contains(" left"), "\(toFile.output)")
        #expect(toFile.output.contains("converted \"Data\": 30000 rows") && toFile.output.contains(" s ("))
        // --no-progress: neither bar nor summary.
        let quiet = try runOnTerminal(["convert", book, "-o", folder.appendingPathComponent("out.csv").path, "--no-progress"])
        #expect(quiet.status == 0 && quiet.output.isEmpty, "\(quiet.output)")
    }

    @Test func checkShowsProgressAndASummaryOnLargeFiles() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try makeLargeWorkbook(rows: 30_000, in: folder)
        let result = try runOnTerminal(["check", book])
        #expect(result.status == 0)
        #expect(result.output.contains("checking \(book) ["), "\(result.output)")
        #expect(result.output.contains("checked \(book): 30000 rows x 10 columns"))
        let small = try runOnTerminal(["check", Project.fixture("multi_sheet.xlsx")])
        #expect(!small.output.contains("checking") && !small.output.contains("checked"))
        let piped = try runSheetport(["check", book])
        #expect(piped.stderr.isEmpty)
    }


    @Test func aPipeIsNotReadToTellItsFormat() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.bin").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Nothing opens the FIFO (that would block): its name cannot tell, so --from is asked for.
        let result = try runSheetport(["convert", fifo])
        #expect(result.status == 2 && result.stderr.contains("not a regular file") && result.stderr.contains("--from"), "\(result.stderr)")
    }
}
