import Foundation
import Testing
@testable import SheetPortConvert
import SheetPortTestSupport

/// The structural pre-flight (`Preflight.structural`) that `sheetport import` runs before an
/// upload (through the command: SheetPortCLITests' `StructuralPreflightTests`).
@Suite struct StructuralPreflightTests {
    /// A declared `<dimension>` over a cap is confirmed from the cells before the file is
    /// refused: a dimension that overstates the sheet is no reason to refuse it.
    @Test func aDimensionOverTheCapsIsConfirmedFromTheCells() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let book = try makeLargeWorkbook(rows: 100, in: folder) // declares and holds A1:J100 or so
        var options = PreflightOptions()
        options.maxCells = 500
        let over = try Preflight.structural(path: book, options: options)
        #expect(!over.importable)
        #expect(over.findings.contains { $0.code == "exceeds-limit" })
        options.maxCells = 10_000_000
        #expect(try Preflight.structural(path: book, options: options).importable)
        #expect(try Preflight.structural(path: book, options: options).worksheets.first?.rows == nil)
    }
}
