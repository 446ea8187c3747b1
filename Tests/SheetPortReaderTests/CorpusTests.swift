import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport

/// Every workbook of ../shared/corpus is read without a crash or a hang, in bounded memory;
/// what cannot be read fails with a `ReaderError` that names the file and the reason.
@Suite struct CorpusTests {
    static let files = Project.corpusFiles()


    @Test func corpusIsThere() {
        #expect(Self.files.count >= 285, "expected the corpus at \(Project.corpus.path)")
    }

    @Test(arguments: files)
    func readsEveryWorksheet(_ name: String) throws {
        let path = Project.corpus.appendingPathComponent(name).path
        let started = Date()
        var error: ReaderError?
        do {
            let workbook = try Workbook(path: path)
            _ = try workbook.styles()
            for sheet in workbook.sheets where sheet.kind == .worksheet {
                let reader = try workbook.rows(of: sheet)
                var previous = 0
                while let row = try reader.nextRow() {
                    for cell in row.cells {
                        #expect(cell.column > previous || previous == 0)
                        previous = cell.column
                    }
                    previous = 0
                }
                _ = try workbook.comments(of: sheet)
            }
        } catch let caught as ReaderError {
            error = caught
            #expect(caught.file == path)
            #expect(!caught.message.isEmpty)
        }
        #expect(Date().timeIntervalSince(started) < 30, "\(name) took too long")
        if let code = Project.expectedCorpusErrors[name] {
            #expect(error?.code == code, "\(name): \(error.map(String.init(describing:)) ?? "no error")")
        } else {
            #expect(error == nil, "\(name) is not a known-bad file: \(error.map(String.init(describing:)) ?? "")")
        }
    }

    @Test func multiSheetFilesListTheirSheets() throws {
        let workbook = try Workbook(path: Project.corpus.appendingPathComponent("calamine__any_sheets.xlsx").path)
        #expect(workbook.sheets.count == 4)
        #expect(workbook.sheets.contains { $0.kind == .chartsheet })
        #expect(workbook.sheets.contains { $0.state != .visible })
    }
}
