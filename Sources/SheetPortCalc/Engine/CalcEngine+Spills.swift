import SheetPortCore

extension CalcEngine {
    /// The dynamic arrays of `sheet` that spill now: each anchor cell with the range its result
    /// covers (anchor included). A blocked spill (`#SPILL!`) or a one-value result has none.
    /// Stores that keep spilled values as cells compare two of these to find the cells a write
    /// spilled into or took back.
    public func spillRanges(sheet: Int) -> [CellReference: CellRange] {
        var ranges: [CellReference: CellRange] = [:]
        for (id, array) in arrays where array.isDynamic && Int(cellSheet[Int(id)]) == sheet {
            let range = CellRange(start: array.range.start.reference, end: array.range.end.reference)
            ranges[range.start] = range
        }
        return ranges
    }
}
