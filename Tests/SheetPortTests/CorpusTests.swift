import Foundation
import Testing
@testable import SheetPort

/// Every workbook of ../shared/corpus is read without a crash or a hang, in bounded memory;
/// what cannot be read fails with a `ReaderError` that names the file and the reason.
@Suite struct CorpusTests {
    static let files = Project.corpusFiles()

    /// Known-bad files and the code their error must carry.
    static let expectedErrors: [String: ReaderError.Code] = [
        "calamine__pass_protected.xlsx": .encryptedWorkbook,
        "excelize__encryptAES.xlsx": .encryptedWorkbook,
        "excelize__encryptSHA1.xlsx": .encryptedWorkbook,
        "excelize__encryptSHA512.xlsx": .encryptedWorkbook,
        "poi__protect.xlsx": .encryptedWorkbook,
        "poi__protected_passtika.xlsx": .encryptedWorkbook,
        "poi__protected_sha512.xlsx": .encryptedWorkbook,
        "xlsx-populate__encrypted_input.xlsx": .encryptedWorkbook,
        "xlsx-populate__encryption_out.xlsx": .encryptedWorkbook,
        "roo__type_excel.xlsx": .legacyXLS,
        "roo__type_openoffice.xlsx": .odsWorkbook,
        "poi__poc-xmlbomb.xlsx": .forbiddenDTD,
        "poi__poc-xmlbomb-empty.xlsx": .forbiddenDTD,
        "poi__clusterfuzz-testcase-minimized-POIFuzzer-5040805309710336.xlsx": .corruptZip, // truncated: no central directory
        "poi__clusterfuzz-testcase-minimized-POIXSSFFuzzer-5265527465181184.xlsx": .corruptZip,
        "poi__crash-274d6342e4842d61be0fb48eaadad6208ae767ae.xlsx": .corruptZip,
        "exceljs__invalid-xml.xlsx": .malformedXML,
    ]

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
        if let code = Self.expectedErrors[name] {
            #expect(error?.code == code, "\(name): \(error.map(String.init(describing:)) ?? "no error")")
        }
    }

    @Test func peakMemoryStaysBounded() throws {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        // ru_maxrss is in KiB: the whole test process, corpus included, stays under 1 GiB.
        #expect(usage.ru_maxrss < 1 << 20)
    }

    @Test func multiSheetFilesListTheirSheets() throws {
        let workbook = try Workbook(path: Project.corpus.appendingPathComponent("calamine__any_sheets.xlsx").path)
        #expect(workbook.sheets.count == 4)
        #expect(workbook.sheets.contains { $0.kind == .chartsheet })
        #expect(workbook.sheets.contains { $0.state != .visible })
    }
}
