import SheetPortCore
import SheetPortReader
import SheetPortCalc

/// A function the calculation engine lacks, as a conversion met it: how many of the cells it
/// wrote call it, and the first of them (`convert` names each on standard error).
public struct UnsupportedFunctionUse: Sendable, Equatable {
    /// The function's name, upper-cased without storage prefixes (`LET` for `_xlfn.LET`).
    public var name: String
    /// The written formula cells that call it.
    public var count: Int
    /// The first of them: `B2`, or `'Sheet 2'!B2` in a workbook of several worksheets.
    public var firstCell: String
}

/// The formula values a conversion writes: with `--recalc` every formula's computed value; by
/// default only the formulas that have no cached value (files written by openpyxl or pandas),
/// the workbook loaded into the engine the first time a row holds one, so that a workbook whose
/// formulas all carry values costs nothing more; every formula's, as Excel computes them on
/// opening, when the workbook asks for that (`Workbook.recalculatesOnLoad`: XlsxWriter stores 0
/// for each). One per conversion run, shared by its sheets.
package final class ConversionCalculation {
    /// Which formula cells take the engine's value.
    package enum Mode { case everyFormula, missingValues }

    package let mode: Mode
    private let workbook: Workbook
    private var calculation: WorkbookCalculation?

    /// `--recalc`: `calculation` holds the whole workbook, recalculated.
    package init(recalculated calculation: WorkbookCalculation, of workbook: Workbook) {
        mode = .everyFormula
        self.workbook = workbook
        self.calculation = calculation
    }

    /// Computing only the formulas without a cached value, when a row first holds one.
    package init(missingValuesOf workbook: Workbook) {
        mode = .missingValues
        self.workbook = workbook
    }

    /// What `options` ask for: every formula (`recalc`, or computing asked of a workbook that
    /// recalculates on load: the workbook loaded and recalculated now), the formulas without a
    /// cached value, or nothing (nil).
    package convenience init?(_ workbook: Workbook, options: TextOutputOptions) throws {
        if options.recalc || options.computeMissingValues && workbook.recalculatesOnLoad {
            self.init(recalculated: try WorkbookCalculation(workbook), of: workbook)
        } else if options.computeMissingValues {
            self.init(missingValuesOf: workbook)
        } else {
            return nil
        }
    }

    /// The used range of `sheet` when the calculation's load read it (no second pass needed).
    package func usedRange(of sheet: Sheet) -> UsedRange? { calculation?.usedRange(of: sheet) }

    /// Replaces the values the mode computes in `row` of `sheet`, adding the cells written from
    /// the engine to `written`.
    package func substitute(_ row: inout Row, of sheet: Sheet, written: inout Set<CellLocation>) throws {
        switch mode {
        case .everyFormula:
            guard let calculation, let s = calculation.sheetIndex[sheet.position] else { return }
            calculation.substitute(&row, of: sheet)
            for cell in row.cells where cell.formula != nil {
                written.insert(CellLocation(sheet: s, cell: CellReference(row: row.index, column: cell.column)))
            }
        case .missingValues:
            guard row.cells.contains(where: Self.lacksValue) else { return }
            if calculation == nil { calculation = try WorkbookCalculation(workbook) }
            guard let calculation, let s = calculation.sheetIndex[sheet.position] else { return }
            for k in row.cells.indices where Self.lacksValue(row.cells[k]) {
                guard let value = calculation.computed(sheet: s, row: row.index, column: row.cells[k].column) else { continue }
                row.cells[k].value = calculation.cellValue(value, like: row.cells[k])
                written.insert(CellLocation(sheet: s, cell: CellReference(row: row.index, column: row.cells[k].column)))
            }
        }
    }

    /// The functions the engine lacks among the `written` cells, in order of first appearance.
    package func unsupportedFunctions(among written: Set<CellLocation>) -> [UnsupportedFunctionUse] {
        guard let calculation, !written.isEmpty else { return [] }
        return calculation.report.unsupportedFunctions.compactMap { function in
            let cells = function.cells.filter(written.contains)
            guard let first = cells.min() else { return nil }
            return UnsupportedFunctionUse(name: function.name, count: cells.count, firstCell: calculation.reference(first))
        }
    }

    /// A formula cell the file stores no value for.
    private static func lacksValue(_ cell: Cell) -> Bool { cell.formula != nil && cell.value == .empty }
}
