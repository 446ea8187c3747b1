import SheetPortCore
import SheetPortConvert

extension ConvertCommand {
    /// Says on standard error how many formulas the engine computed (without `--recalc`: those
    /// that had no cached value, or all of a workbook that `recalculatesOnLoad`) and names each
    /// function it lacks with its count and first cell; returns the exit status: 1 when
    /// `strict` and a function was lacking, else 0.
    static func reportFormulas(_ summaries: [ConversionSummary], recalc: Bool, recalculatesOnLoad: Bool = false, strict: Bool) -> Int32 {
        let computed = summaries.reduce(0) { $0 + $1.computedFormulas }
        let formulas = "\(computed) formula\(computed == 1 ? "" : "s")"
        if computed > 0, !recalc, recalculatesOnLoad {
            StandardError.write("sheetport: computed \(formulas): the workbook asks to be recalculated when opened"
                                + " (--no-recalc writes the values it stores)")
        } else if computed > 0, !recalc {
            StandardError.write("sheetport: computed \(formulas) that had no cached value (--no-recalc leaves them empty)")
        }
        // One line per function over all the sheets, in order of first appearance.
        var lacking: [UnsupportedFunctionUse] = []
        for use in summaries.flatMap(\.unsupportedFunctions) {
            if let k = lacking.firstIndex(where: { $0.name == use.name }) { lacking[k].count += use.count } else { lacking.append(use) }
        }
        for use in lacking {
            StandardError.write("sheetport: unsupported function \(use.name.visibleControlCharacters) in \(use.count) "
                                + "cell\(use.count == 1 ? "" : "s"), first \(use.firstCell.visibleControlCharacters): "
                                + "written as #NAME? (or the cached value)")
        }
        return strict && !lacking.isEmpty ? 1 : 0
    }
}
