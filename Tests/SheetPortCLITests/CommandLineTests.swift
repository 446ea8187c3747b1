import Foundation
import Testing
@testable import SheetPortReader
import SheetPortTestSupport

/// The `sheetport` executable: exit statuses, standard streams, and no partial output.
@Suite struct CommandLineTests {
    @Test func printsVersion() throws {
        let result = try runSheetport(["--version"])
        #expect(result.status == 0)
        #expect(String(decoding: result.stdout, as: UTF8.self).hasPrefix("sheetport "))
    }

    /// `bench`'s phases run and count every cell (its timings are for Benchmarks/, not tests).
    @Test func benchPhasesCountEveryCell() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = folder.appendingPathComponent("bench.xlsx").path
        let generated = try runSheetport(["bench", "generate", "--rows", "1000", "-o", book, "--no-progress"])
        #expect(generated.status == 0, "\(generated.stderr)")
        for phase in [["read", book], ["read", book, "--to", "csv"], ["read", book, "--to", "jsonl"], ["check", book]] {
            let result = try runSheetport(["bench"] + phase + ["--no-progress"])
            #expect(result.status == 0, "\(result.stderr)")
            let output = String(decoding: result.stdout, as: UTF8.self)
            #expect(output.contains(": 10010 cells in "), "\(phase): \(output)")
            #expect(output.contains("MB/s of worksheet XML, peak RSS "), "\(phase): \(output)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["bench.xlsx"])
        let bad = try runSheetport(["bench", "read", book, "--to", "xml"])
        #expect(bad.status == 2)
    }

    /// `bench read --to tokens`, the fast path's floor, counts the worksheet's elements, and
    /// says so when the fast path would hand the part over (no floor to measure).
    @Test func benchTokensCountsElementsOrRefuses() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
        let plain = folder.appendingPathComponent("plain.xlsx").path
        let sheet = "<worksheet xmlns=\"\(main)\"><sheetData><row r=\"1\"><c r=\"A1\"><v>1</v></c></row></sheetData></worksheet>"
        try Data(StoredZip.workbook(sheetXML: Array(sheet.utf8))).write(to: URL(fileURLWithPath: plain))
        let counted = try runSheetport(["bench", "read", plain, "--to", "tokens", "--no-progress"])
        #expect(counted.status == 0, "\(counted.stderr)")
        #expect(String(decoding: counted.stdout, as: UTF8.self).contains("read to tokens: 5 cells in "))
        let doctype = folder.appendingPathComponent("doctype.xlsx").path
        try Data(StoredZip.workbook(sheetXML: Array(("<!DOCTYPE worksheet>" + sheet).utf8))).write(to: URL(fileURLWithPath: doctype))
        let refused = try runSheetport(["bench", "read", doctype, "--to", "tokens", "--no-progress"])
        #expect(refused.status == 2) // the input could not be processed
        #expect(refused.stderr.contains("hands this part over to libxml2"), "\(refused.stderr)")
    }

    @Test func convertsStandardInputToStandardOutput() throws {
        let input = try Data(contentsOf: URL(fileURLWithPath: Project.fixture("cell_types.xlsx")))
        // The fixture's formulas without cached values stay empty, as the reader gives them.
        let result = try runSheetport(["convert", "-", "--to", "jsonl", "--no-recalc"], input: input)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try String(contentsOfFile: Project.fixture("cell_types.expected.jsonl"), encoding: .utf8)
        #expect(try jsonObjects(String(decoding: result.stdout, as: UTF8.self), ignoring: ["style"]) == jsonObjects(expected))
    }

    @Test func writesOutputFileWithFormatFromExtension() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.tsv").path
        let result = try runSheetport(["convert", Project.fixture("multi_sheet.xlsx"), "-o", output, "--sheet", "Data"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.tsv"])
        #expect(try String(contentsOfFile: output, encoding: .utf8).contains("\t"))
    }

    @Test func badInputLeavesNoOutputAndNamesFileAndPart() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.csv").path
        let bad = Project.corpus.appendingPathComponent("exceljs__invalid-xml.xlsx").path
        let result = try runSheetport(["convert", bad, "-o", output])
        #expect(result.status == 3)
        #expect(result.stderr.contains(bad))
        #expect(result.stderr.contains("xl/worksheets/sheet1.xml"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func existingDestinationSurvivesAFailure() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("keep.csv")
        try Data("old\n".utf8).write(to: output)
        let bad = Project.corpus.appendingPathComponent("poi__poc-xmlbomb.xlsx").path
        let result = try runSheetport(["convert", bad, "-o", output.path])
        #expect(result.status == 3)
        #expect(result.stderr.contains("forbidden-dtd"))
        #expect(try String(contentsOf: output, encoding: .utf8) == "old\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["keep.csv"])
    }

    @Test(arguments: [["convert"], ["convert", "a.xlsx", "--bogus"], ["nonsense"],
                      ["convert", "missing.xlsx", "--to", "pdf"]])
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let result = try runSheetport(arguments)
        #expect(result.status == (arguments.contains("missing.xlsx") ? 3 : 2)) // a missing input is met first
        #expect(!result.stderr.isEmpty)
        #expect(result.stdout.isEmpty)
    }

    @Test func missingFileAndFolderAreIOErrors() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in [folder.appendingPathComponent("missing.xlsx").path, folder.path + "/"] {
            let result = try runSheetport(["convert", path, "--to", "csv", "--from", "xlsx"])
            #expect(result.status == 3)
            #expect(result.stderr.contains(path) && result.stderr.contains("(io-error)"), "\(result.stderr)")
        }
    }

    @Test func unknownSheetListsTheSheets() throws {
        let result = try runSheetport(["convert", Project.fixture("multi_sheet.xlsx"), "--sheet", "Nope"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\"Data\""))
    }

    @Test func everyCommandHasHelp() throws {
        for arguments in [["--help"], ["convert", "--help"]] {
            let result = try runSheetport(arguments)
            #expect(result.status == 0)
            #expect(String(decoding: result.stdout, as: UTF8.self).contains("USAGE"))
        }
    }
}

/// The progress bar: on a terminal only, and never with `--no-progress`.
@Suite struct ProgressTests {
    /// Runs `sheetport ARGS` under `script`, so that standard error is a terminal.
    private func onTerminal(_ arguments: [String]) throws -> String {
        let result = try runOnTerminal(arguments)
        #expect(result.status == 0)
        return result.output
    }

    @Test func showsProgressOnATerminalOnly() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try makeLargeWorkbook(rows: 30_000, in: folder)
        let out = folder.appendingPathComponent("big.csv").path
        #expect(try onTerminal(["convert", book, "-o", out]).contains("converting Data ["))
        #expect(!(try onTerminal(["convert", book, "-o", out, "--no-progress"]).contains("converting")))
        let piped = try runSheetport(["convert", book, "-o", out])
        #expect(piped.status == 0 && piped.stderr.isEmpty)
    }
}

/// SIGINT and SIGTERM during a conversion: exit 130 or 143, no temporary file, destination untouched.
@Suite(.serialized) struct SignalTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func signalLeavesNothingBehind(_ signal: Int32, _ status: Int32) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try makeLargeWorkbook(rows: 150_000, in: folder)
        let output = folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let destination = output.appendingPathComponent("big.jsonl")
        try Data("previous\n".utf8).write(to: destination)

        // Interrupt once the temporary file has grown.
        let result = try interruptSheetport(["convert", book, "-o", destination.path], with: signal) {
            try FileManager.default.contentsOfDirectory(atPath: output.path).contains { name in
                name.hasPrefix(".big.jsonl.sheetport-")
                    && (try? FileManager.default.attributesOfItem(atPath: output.appendingPathComponent(name).path)[.size] as? Int) ?? 0 > 0
            }
        }
        #expect(result.wasReady, "the conversion ended before it could be interrupted")
        #expect(result.status == status)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path) == ["big.jsonl"])
        #expect(try String(contentsOf: destination, encoding: .utf8) == "previous\n")
    }
}
