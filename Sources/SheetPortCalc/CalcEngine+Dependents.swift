import SheetPortCore
extension CalcEngine {
    /// `cells` and every formula cell depending on them, transitively (volatile formulas and theirs
    /// included): the corpus oracle leaves out the cells that depend on user-defined functions this way.
    package func formulaCells(dependingOn cells: [CellLocation]) -> Set<CellLocation> {
        if dependencyIndex == nil { dependencyIndex = DependencyIndex(engine: self) }
        return Set(cells).union(dependents(of: cells).map { id in
            let i = Int(id)
            return CellLocation(sheet: Int(cellSheet[i]), address: CellAddress(row: cellRow[i], column: cellColumn[i]))
        })
    }
}
