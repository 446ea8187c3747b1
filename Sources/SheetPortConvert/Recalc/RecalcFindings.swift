import SheetPortCore
import SheetPortCalc
import SheetPortReader

/// The findings of `check --recalc` (Docs/Reference/Formats.md, "Findings").
package enum RecalcFindings {
    /// How many cells a finding names before it only counts.
    package static let namedCells = 20

    /// The stale cached values, unsupported functions, circular references and unsupported
    /// formulas of a recalculated workbook.
    package static func findings(for calculation: WorkbookCalculation) -> [Finding] {
        var findings: [Finding] = []
        let report = calculation.report
        let engine = calculation.engine
        func named(_ cells: [CellLocation]) -> String {
            let refs = cells.prefix(namedCells).map(calculation.reference).joined(separator: ", ")
            return cells.count > namedCells ? refs + ", ... (\(cells.count) in all)" : refs
        }
        // Stale: a cached value the recalculation disagrees with; volatile cells change by design,
        // cells whose cached value the engine kept (unsupported) are not recomputed at all.
        let volatile = engine.volatileFormulaCells()
        var kept = Set(report.unsupportedFormulas.map(\.location))
        for function in report.unsupportedFunctions { kept.formUnion(function.cells) }
        var stale: [CellLocation] = []
        for cell in calculation.formulaCells where cell.cached != .empty {
            guard !volatile.contains(cell.location), !kept.contains(cell.location) else { continue }
            let computed = engine.value(at: cell.location.cell, sheet: cell.location.sheet)
            if !WorkbookCalculation.agrees(cached: cell.cached, computed: computed, dateSystem: engine.dateSystem) {
                stale.append(cell.location)
            }
        }
        if !stale.isEmpty {
            findings.append(Finding(.staleCachedValue, .warning,
                                    "\(stale.count) formula cell\(stale.count == 1 ? "" : "s") whose cached value differs from the recomputed one: \(named(stale))",
                                    count: stale.count))
        }
        if !report.circularReferences.isEmpty {
            let cells = report.circularReferences
            findings.append(Finding(.circularReference, .warning,
                                    "\(cells.count) cell\(cells.count == 1 ? "" : "s") in a circular reference, evaluated to 0: \(named(cells))",
                                    count: cells.count))
        }
        for function in report.unsupportedFunctions {
            findings.append(Finding(.unsupportedFunction, .info,
                                    "\(function.name) is not supported by the calculation engine: its cached value is kept (#NAME? without one) in \(named(function.cells))",
                                    count: function.cells.count))
        }
        if !report.unsupportedFormulas.isEmpty {
            let cells = report.unsupportedFormulas.map(\.location)
            let first = report.unsupportedFormulas[0]
            findings.append(Finding(.unsupportedFormula, .info,
                                    "\(cells.count) formula\(cells.count == 1 ? "" : "s") the engine cannot parse or that refer to another workbook keep their cached value: \(named(cells)) (\(calculation.reference(first.location)): \(first.reason))",
                                    count: cells.count))
        }
        return findings
    }
}
