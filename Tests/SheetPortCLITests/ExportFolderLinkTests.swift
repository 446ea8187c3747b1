import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortWriter
import SheetPortTestSupport
@testable import SheetPortReader
@testable import SheetPortConvert
@testable import SheetPortClient
@testable import SheetPortServer

/// `export --out DIR` (issue 23): a name that comes from the server never leads outside DIR. A
/// symbolic link (to a file outside, or dangling) or a FIFO named like a sheet's file fails that
/// sheet at once, by name, before anything is downloaded (a FIFO no longer holds the client past
/// `--timeout`), and nothing outside DIR is replaced or created.
@Suite struct ExportFolderLinkTests {
    /// What is planted in DIR: the same as for `convert --all` (OutputFolderLinkTests plants it).
    typealias Plant = OutputFolderLinkTests.Plant

    static func says(_ plant: Plant) -> String { plant == .fifo ? "FIFO" : "symbolic link" }

    static func expectOutsideUntouched(_ plant: Plant, _ target: String?) {
        switch plant {
        case .linkToOutside: #expect((try? String(contentsOfFile: target!, encoding: .utf8)) == "keep me")
        case .danglingLink: #expect(!FileManager.default.fileExists(atPath: target!))
        case .fifo: break
        }
    }

    /// A workbook whose first sheet is "Data".
    static func workbook(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("book.xlsx").path
        let writer = try WorkbookWriter(path: path)
        let sheet = try writer.addWorksheet(named: "Data")
        try sheet.append(Row(index: 1, cells: [Cell(column: 1, value: .string("in Data"))]))
        try writer.close()
        return path
    }

    @Test(arguments: Plant.allCases)
    func exportRefusesWhatIsNotARegularFile(_ plant: Plant) throws {
        let server = try ClientFixture()
        defer { server.stop() }
        let connection = try server.connection(subject: "alice")
        let tokenFile = try server.tokenFile(subject: "alice")
        _ = try server.importWorkbook(try Self.workbook(in: server.folder), as: connection) // the first sheet, "Data"
        let outside = server.folder.appendingPathComponent("outside")
        let out = server.folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let target = try OutputFolderLinkTests.plant(plant, at: out.appendingPathComponent("Data.xlsx").path, outside: outside)
        let result = try runWithDeadline(["export", "--all", "--json", "--no-progress", "--timeout", "5", "--server", server.url,
                                          "--token-file", tokenFile, "--out", out.path], seconds: 30)
        #expect(result.status == 1 && result.seconds < 4, "\(result.status) after \(result.seconds) s: \(result.stderr)")
        #expect(result.stdout.contains("Data.xlsx") && result.stdout.contains(Self.says(plant)) && result.stdout.contains("\"failed\""),
                "\(result.stdout)")
        Self.expectOutsideUntouched(plant, target)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["Data.xlsx"])
    }
}
