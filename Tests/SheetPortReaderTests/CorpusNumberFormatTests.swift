import Foundation
import Testing
import SheetPortCore
import SheetPortReader
import SheetPortTestSupport

/// Every number format of ../shared/corpus and ../shared/calc-suite (each `numFmt` of each
/// styles part, read by the reader, and each cell format's code) is one `NumberFormat.validate`
/// takes, and renders the hostile doubles of issue 35 in bounded output: the validator refuses
/// nothing Excel wrote, and the renderer is total on everything Excel wrote.
@Suite struct CorpusNumberFormatTests {
    static let hostile: [Double] = [0, -0.0, 5e-324, 1e-300, 0.5, 1e15, 1e19, -1e19, 1e21, 1e300, 1e308,
                                    -1.7976931348623157e308, 2958466, -1, 45322.5625, 1.0 / 3]

    /// The distinct codes with one file that holds each, read through the reader.
    static func codes() -> [String: String] {
        var codes: [String: String] = [:]
        let files = Project.corpusFiles().map { Project.corpus.appendingPathComponent($0).path }
            + Project.calcSuiteFiles().map { Project.calcSuite.appendingPathComponent($0).path }
        for path in files {
            // Files the reader refuses (the corpus's corrupt and encrypted ones) have no styles to check.
            guard let workbook = try? Workbook(path: path), let styles = try? workbook.styles() else { continue }
            for code in Array(styles.numberFormatCodes.values) + styles.cellFormats.map(\.numberFormat) where codes[code] == nil {
                codes[code] = (path as NSString).lastPathComponent
            }
        }
        return codes
    }

    @Test func everyFormatIsValidAndRendersBounded() throws {
        let codes = Self.codes()
        // The corpus holds hundreds of distinct codes: fewer means the files were not found.
        #expect(codes.count >= 100, "only \(codes.count) number formats found under \(Project.corpus.path) and \(Project.calcSuite.path)")
        for (code, file) in codes.sorted(by: { $0.key < $1.key }) {
            do {
                try NumberFormat.validate(code)
            } catch {
                Issue.record("\(file): \(code.debugDescription) refused: \(error.reason)")
            }
            for value in Self.hostile {
                let shown = NumberFormatRenderer.text(number: value, code: code)
                #expect(shown.utf16.count <= 4096, "\(file): \(value) in \(code.debugDescription) is \(shown.utf16.count) characters")
            }
        }
    }
}
