import Foundation
import Testing
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortConvert

/// Values converted as displayed (`convert --values displayed`) against LibreOffice's "save cell contents as shown" CSV export
/// of the same workbook (Excel's General aside, which LibreOffice shows with more digits).
/// Needs `soffice`; runs with `SHEETPORT_REAL_CLIENTS=1` (Scripts/test.sh sets it).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["SHEETPORT_REAL_CLIENTS"] == "1"))
struct DisplayedAgainstLibreOfficeTests {
    static let cases: [(String, String)] = [
        ("1234.59", "####.#"), ("8.9", "#.000"), ("0.631", "0.#"), ("12", "#.0#"), ("12000", "#,###"), ("12000", "#,"),
        ("12200000", "0.0,,"), ("1234.5", "#,##0.00"), ("0.9876", "0.00%"), ("12345678", "0.00E+00"), ("0.000123", "0.00E+00"),
        ("123456789", "000-00-0000"), ("-1234.5", "#,##0.00;(#,##0.00)"), ("0", "0;(0);\"zero\""), ("5.25", "# ?/?"), ("0.5", "?/?"),
        ("45322", "dd/mm/yyyy"), ("45322", "mmmm d, yyyy"), ("45322", "dddd, mmm d"), ("45322.5625", "h:mm AM/PM"), ("1.5", "[h]:mm:ss"),
        ("2.5", "0"), ("1.005", "0.00"), ("12", "0\\ \\k\\g"), ("0.25", "#.##"), ("-5", "0"), ("50", "[<=100]0.0;[>100]#,##0"),
        ("1500", "[<=100]0.0;[>100]#,##0"),
    ]

    @Test func agreesWithLibreOfficeAsShown() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("shown.xlsx").path
        let rows = Self.cases.enumerated().map { RawWorkbook.row($0.offset + 1, RawWorkbook.number("A\($0.offset + 1)", $0.element.0, style: $0.offset + 1)) }
        try RawWorkbook(sheets: [RawWorkbook.Sheet(name: "S", sheetData: rows.joined())],
                        numberFormats: Self.cases.enumerated().map { (164 + $0.offset, $0.element.1) }).write(to: path)
        let office = Process()
        office.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        office.arguments = ["soffice", "--headless", "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,true",
                            "--outdir", folder.path, path]
        office.standardOutput = FileHandle.nullDevice
        office.standardError = FileHandle.nullDevice
        try office.run()
        office.waitUntilExit()
        let expected = try String(contentsOfFile: folder.appendingPathComponent("shown.csv").path, encoding: .utf8)
        var displayed = TextOutputOptions()
        (displayed.values, displayed.lineEnding) = (.displayed, .lf)
        let ours = try convert(path, to: .csv, options: displayed)
        let left = expected.split(separator: "\n"), right = ours.split(separator: "\n")
        #expect(left.count == Self.cases.count)
        for (index, (theirs, mine)) in zip(left, right).enumerated() {
            #expect(theirs == mine, "\(Self.cases[index].0) in \(Self.cases[index].1)")
        }
    }
}
