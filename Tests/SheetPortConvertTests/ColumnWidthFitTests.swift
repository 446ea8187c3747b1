import Foundation
import Testing
import SheetPortCore
import SheetPortReader
@testable import SheetPortConvert
import SheetPortTestSupport

/// Column widths fitted to shown text (`ColumnWidthFit`) and the layout of a converted sheet
/// (`SheetLayout`) through the library: Excel's width units, the cap, what counts as a character,
/// and that only the first rows decide.
struct ColumnWidthFitTests {
    @Test func widthsAreExcelsUnitsWithinTheDefaultAndTheCap() {
        #expect(ColumnWidthFit.width(characters: 0) == 8.43)
        #expect(ColumnWidthFit.width(characters: 3) == 8.43)
        // ECMA-376 §18.3.1.13 for 11 characters (10 shown and one to spare), 7-pixel digits.
        #expect(ColumnWidthFit.width(characters: 10) == 11.7109375)
        #expect(ColumnWidthFit.width(characters: 254) == 255)
        #expect(ColumnWidthFit.width(characters: Int.max / 1_000) == 255)
        #expect(ColumnWidthFit.width(characters: -5) == 8.43)
    }

    @Test func charactersCountAsTheyAreShown() {
        #expect(ColumnWidthFit.characters(in: "2024-01-31") == 10)
        #expect(ColumnWidthFit.characters(in: "\u{1}\u{2}\t\n\u{7F}\u{9F}") == 0)
        #expect(ColumnWidthFit.characters(in: "e\u{301}\u{200B}") == 1) // a combining accent and a zero-width space
        #expect(ColumnWidthFit.characters(in: "東京都") == 6)
        #expect(ColumnWidthFit.characters(in: "👍") == 2)
        // Counting stops past the widest column: a 40,000-character field is not walked to its end.
        #expect(ColumnWidthFit.characters(in: String(repeating: "x", count: 40_000)) == ColumnWidthFit.maxCharacters + 1)

        var fit = ColumnWidthFit()
        fit.measure("wide", column: 0) // not a column
        fit.measure(String(repeating: "y", count: 300), column: 3)
        fit.measure("abc", column: 1, extra: 20)
        fit.measure("ab", column: 1)
        fit.measure(String(repeating: "z", count: 300), column: 4)
        #expect(fit.characters == [23, 0, 255, 255])
        #expect(fit.runs.map(\.columns) == [1...1, 3...4])
        #expect(fit.runs.map(\.width) == [ColumnWidthFit.width(characters: 23), 255])
    }

    /// The integers counted without rendering show as many characters as `General` renders.
    @Test func integersAreCountedAsGeneralShowsThem() {
        for number: Double in [0, -0.0, 7, -7, 10, 99, 100, -123_456, 99_999_999_999, -99_999_999_999, 12_345_678_901, 4_294_967_296] {
            #expect(SheetLayout.generalCharacters(number) == NumberFormatRenderer.general(number).count, "\(number)")
        }
        for number: Double in [0.5, -2.25, 1e11, -1e11, 1e300, .nan, .infinity, -.infinity, .ulpOfOne] {
            #expect(SheetLayout.generalCharacters(number) == nil, "\(number)")
        }
    }

    /// Rows past the first 1,000 data rows change no width, and every row is written in order.
    @Test func onlyTheFirstThousandDataRowsDecide() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var text = "k,v\n"
        for number in 1...2_500 { text += "\(number),\(number == 1_001 ? String(repeating: "v", count: 100) : "v")\n" }
        let input = folder.appendingPathComponent("in.csv")
        try Data(text.utf8).write(to: input)
        for writesLayout in [true, false] {
            let output = folder.appendingPathComponent("out\(writesLayout).xlsx").path
            var options = TextToWorkbook.Options()
            options.writesLayout = writesLayout
            let summary = try TextToWorkbook.convert(try TextSource(path: input.path), format: .csv, to: output, options: options)
            #expect(summary.rows == 2_501)
            let workbook = try Workbook(path: output)
            let reader = try workbook.rows(of: workbook.sheets[0])
            var indexes: [Int] = []
            while let row = try reader.nextRow() { indexes.append(row.index) }
            #expect(indexes == Array(1...2_501))
            // Column B: "v" and the header with its filter button fit the default; row 1,002 (data row 1,001) is past the fitted rows.
            #expect(reader.metadata.columns.isEmpty)
        }
        // Data row 1,000 still counts.
        text = "k,v\n" + (1...1_500).map { "\($0),\($0 == 1_000 ? String(repeating: "v", count: 100) : "v")" }.joined(separator: "\n")
        try Data(text.utf8).write(to: input)
        let output = folder.appendingPathComponent("last.xlsx").path
        try TextToWorkbook.convert(try TextSource(path: input.path), format: .csv, to: output)
        let workbook = try Workbook(path: output)
        let reader = try workbook.rows(of: workbook.sheets[0])
        while try reader.nextRow() != nil {}
        #expect(reader.metadata.columns.map(\.first) == [2] && reader.metadata.columns.first?.width == ColumnWidthFit.width(characters: 100))
    }
}
