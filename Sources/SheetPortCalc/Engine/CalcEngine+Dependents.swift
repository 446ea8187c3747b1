extension CalcEngine {
    /// `cells` and every formula cell depending on them, transitively (volatile formulas and theirs
    /// included): the corpus oracle leaves out the cells that depend on user-defined functions this way.
    package func formulaCells(dependingOn cells: [CellLocation]) -> Set<CellLocation> {
        if dependencyIndex == nil { dependencyIndex = DependencyIndex(engine: self) }
        return Set(cells).union(dependents(of: cells).map { location(of: Int($0)) })
    }

    /// The formula cells depending (transitively) on the cells changed since the last
    /// recalculation, with the edges between them, as the dependency index finds them: each
    /// dirty cell is a local number, in the order it was reached.
    struct DirtyGraph {
        /// Local number -> cell id.
        var cells: [Int32] = []
        /// Whether the cell must be recomputed whatever its precedents do (it reads a changed
        /// input, is volatile, was just set, may spill differently, or was circular or uncomputed).
        var needed: [Bool] = []
        /// How many dirty precedents (edges into it) the cell still waits for.
        var waits: [Int32] = []
        /// The cell's dependents among the dirty cells: `edges[edgeStart[l]..<edgeEnd[l]]`.
        var edgeStart: [Int32] = []
        var edgeEnd: [Int32] = []
        var edges: [Int32] = []
    }

    /// The dynamic arrays that may spill differently after `changed`: those blocked (#SPILL!)
    /// and those spilling over a changed cell. Only a formula holding a spill range is checked
    /// against `changed`: every typed formula is a dynamic one, and a paste of 100,000 of them
    /// compared each with all 100,000 changed cells (28 % of a large write's time).
    func respilling(after changed: [CellLocation]) -> [Int32] {
        var found: [Int32] = []
        for id in dynamicFormulas {
            if cellValue[Int(id)] == .error(.spill) {
                found.append(id)
            } else if let array = arrays[id] {
                let sheet = Int(cellSheet[Int(id)])
                if changed.contains(where: { $0.sheet == sheet && array.range.contains($0.index) }) { found.append(id) }
            }
        }
        return found
    }

    /// The dirty graph of `changed` (the dependency index must be current). A cell's queued
    /// positions are contiguous, so the edges out of it come out contiguous: no sorting.
    /// `pending`: formula cells a suspended pass left, recomputed (their dependents are among them).
    func dirtyGraph(of changed: [CellLocation], pending: [CellLocation] = [], _ index: DependencyIndex) -> (DirtyGraph, localOf: [Int32]) {
        var builder = DirtyGraphBuilder(engine: self)
        builder.queue = changed.map { (Int32($0.sheet), $0.index.row, $0.index.column, -1) }
        for id in index.volatile { _ = builder.reach(id, needed: true) }
        for id in respilling(after: changed) { _ = builder.reach(id, needed: true) }
        // Formulas set in this batch are dirty themselves.
        for l in changed {
            if let id = cellID(sheet: l.sheet, address: l.index), cellKind[Int(id)] == .formula { _ = builder.reach(id, needed: true) }
        }
        for l in pending {
            if let id = cellID(sheet: l.sheet, address: l.index), cellKind[Int(id)] == .formula { _ = builder.reach(id, needed: true) }
        }
        builder.follow(index)
        return (builder.graph, builder.localOf)
    }
    /// A recalculation in dependency order, possibly stopped part way (`suspendedPass`): its
    /// graph, each dirty cell's value before the pass, and the queue of cells ready to compute.
    struct OrderedPass {
        var graph: DirtyGraph
        /// Cell id -> local number in `graph`, -1 for a cell outside it.
        var localOf: [Int32]
        var before: [CalcValue]
        /// Formulas set in the batch (answered as inputs, not as recalculated cells).
        var inputIDs: Set<Int32>
        var ready: [Int32] = []
        var head = 0
        var spilled = false

        /// Whether cell `id` is one of the pass's.
        func contains(_ id: Int32) -> Bool { Int(id) < localOf.count && localOf[Int(id)] >= 0 }
    }

    /// Recomputes the formulas depending on the cells changed since the last recalculation (and
    /// the cells a suspended pass had not reached yet, `pending`) in dependency order (Kahn's: a
    /// cell once every dirty precedent is settled), recomputing one only when it must
    /// (`DirtyGraph.needed`) or a precedent's value changed: a dependent whose precedents came
    /// out unchanged keeps its value. A formula reading a dirty cell the static references do not
    /// show, and cells on or after a cycle, go through `evaluate`'s depth-first search. Appends
    /// the cells whose value changed but for `inputs`; stops once more than `limit` changed,
    /// the rest kept in `suspendedPass`. Answers false, having changed nothing, when an array
    /// formula is among them (the caller recomputes the general way).
    ///
    /// A suspended pass set aside (`kept`) stays suspended when none of the new dirty cells is
    /// one of its cells (the new pass then runs to its end: a write of a cell nothing depends on
    /// does not take up a chain's 200,000 cells); else its cells join `pending` and the new pass.
    func recalculateInOrder(_ index: DependencyIndex, skipping inputs: Set<CellLocation>, pending: inout [CellLocation],
                            kept: inout OrderedPass?, limit: Int = .max, into changes: inout [CellChange]) -> Bool {
        var (graph, localOf) = dirtyGraph(of: changedSinceRecalc, pending: pending, index)
        if let pass = kept, graph.cells.contains(where: pass.contains) {
            pending += unsettled(of: pass)
            kept = nil
            (graph, localOf) = dirtyGraph(of: changedSinceRecalc, pending: pending, index)
        }
        if !arrays.isEmpty, graph.cells.contains(where: { arrays[$0] != nil }) { return false }
        var before: [CalcValue] = []
        before.reserveCapacity(graph.cells.count)
        for id in graph.cells {
            before.append(cellValue[Int(id)])
            cellState[Int(id)] = .dirty
            if !circular.isEmpty { circular.remove(id) }
        }
        // The only dirty cells that are inputs are formulas set in this batch: the check is by id,
        // hashing nothing on a write of constants.
        var inputIDs = Set<Int32>()
        for l in inputs { if let id = cellID(sheet: l.sheet, address: l.index), cellKind[Int(id)] == .formula { inputIDs.insert(id) } }
        var pass = OrderedPass(graph: graph, localOf: localOf, before: before, inputIDs: inputIDs)
        for local in 0..<Int32(graph.cells.count) where graph.waits[Int(local)] == 0 { pass.ready.append(local) }
        graph = DirtyGraph()
        localOf = []
        spilledInPass = false
        if !run(&pass, changesAbove: kept == nil ? limit : .max, cells: .max, into: &changes) { suspendedPass = pass }
        // A full recalculation follows a spill: it takes up the kept pass's cells too.
        if let pass = kept, !spilledInPass { suspendedPass = pass }
        kept = nil
        return true
    }

    /// Runs `pass` until every dirty cell is settled (true), or until more than `changesAbove`
    /// cells changed or `cells` cells were taken from the queue (false: call again to go on).
    func run(_ pass: inout OrderedPass, changesAbove limit: Int, cells: Int, into changes: inout [CellChange]) -> Bool {
        let evaluator = Evaluator(engine: self)
        var taken = 0
        while pass.head < pass.ready.count {
            if changes.count > limit || taken >= cells { return false }
            taken += 1
            let local = pass.ready[pass.head]
            pass.head += 1
            let id = pass.graph.cells[Int(local)]
            if cellState[Int(id)] == .dirty, pass.graph.needed[Int(local)] {
                evaluationCount += 1
                do {
                    finish(id, value: try evaluateCell(id, evaluator))
                } catch EvalInterrupt.needs {
                    // A precedent outside the static references, still dirty: the general search
                    // settles it (its own pass: `spilledInPass` kept across it).
                    cellState[Int(id)] = .dirty
                    evaluate([id])
                    pass.spilled = pass.spilled || spilledInPass
                    spilledInPass = false
                } catch {
                    finish(id, value: .error(.value))
                }
            }
            // Not needed: it keeps its value (an uncomputed one was needed: `reach`).
            if cellState[Int(id)] == .dirty { cellState[Int(id)] = .done }
            let changed = note(id, before: pass.before[Int(local)], skipping: pass.inputIDs, into: &changes)
            for e in pass.graph.edgeStart[Int(local)]..<pass.graph.edgeEnd[Int(local)] {
                let dependent = pass.graph.edges[Int(e)]
                if changed { pass.graph.needed[Int(dependent)] = true }
                pass.graph.waits[Int(dependent)] -= 1
                if pass.graph.waits[Int(dependent)] == 0 { pass.ready.append(dependent) }
            }
        }
        pass.spilled = pass.spilled || spilledInPass
        if pass.ready.count < pass.graph.cells.count {
            // Cycles and what depends on them: every one of them recomputed by the general search.
            var rest: [Int32] = []
            for local in 0..<Int32(pass.graph.cells.count) where pass.graph.waits[Int(local)] > 0 { rest.append(local) }
            evaluate(rest.map { pass.graph.cells[Int($0)] })
            pass.spilled = pass.spilled || spilledInPass
            for local in rest { _ = note(pass.graph.cells[Int(local)], before: pass.before[Int(local)], skipping: pass.inputIDs, into: &changes) }
        }
        spilledInPass = pass.spilled
        return true
    }

    /// A suspended pass's unsettled cells into `carried` before a cell changes outside `setInputs`.
    func takeUpSuspendedPass() {
        guard let pass = suspendedPass else { return }
        suspendedPass = nil
        carried += unsettled(of: pass)
    }

    /// The cells carried from a suspended pass, emptied.
    func takeCarried() -> [CellLocation] {
        defer { carried = [] }
        return carried
    }

    /// The cells `pass` (a suspended one, dropped by the caller) has not settled yet, as
    /// locations (ids may be reused once cells change): the next recalculation takes them up as
    /// dirty.
    func unsettled(of pass: OrderedPass) -> [CellLocation] {
        var settled = [Bool](repeating: false, count: pass.graph.cells.count)
        for local in pass.ready[..<pass.head] { settled[Int(local)] = true }
        var locations: [CellLocation] = []
        for (local, id) in pass.graph.cells.enumerated() where !settled[local] {
            let i = Int(id)
            // One the general search computed ahead of its turn holds its value before the pass
            // again: its change is found, and answered, when the next pass computes it.
            cellValue[i] = pass.before[local]
            locations.append(location(of: i))
        }
        return locations
    }

    /// Appends cell `id` to `changes` when its value differs from `before` (but for the `inputs` ids); answers whether it does.
    private func note(_ id: Int32, before: CalcValue, skipping inputs: Set<Int32>, into changes: inout [CellChange]) -> Bool {
        let i = Int(id)
        guard cellValue[i] != before else { return false }
        if inputs.isEmpty || !inputs.contains(id) {
            changes.append(CellChange(location: location(of: i), value: cellValue[i]))
        }
        return true
    }
}

/// Builds a `DirtyGraph` breadth first. The engine's tables it reads are copied in (shared, not
/// duplicated), so the walk over 200,000 dependents reads locals, not a class's properties.
struct DirtyGraphBuilder {
    var graph = CalcEngine.DirtyGraph()
    /// Cell id -> local number, -1 when not reached.
    var localOf: [Int32]
    /// Positions to look up: (sheet, row, column, the local cell standing there or -1 for an input).
    var queue: [(Int32, Int32, Int32, Int32)] = []
    /// The engine whose cells are walked: its tables are read, never changed, while the graph is built.
    let engine: CalcEngine

    init(engine: CalcEngine) {
        localOf = [Int32](repeating: -1, count: engine.cellKind.count)
        self.engine = engine
    }

    /// The local number of cell `id`, numbering it and queueing its positions when first reached.
    mutating func reach(_ id: Int32, needed: Bool) -> Int32 {
        let known = localOf[Int(id)]
        if known >= 0 {
            if needed { graph.needed[Int(known)] = true }
            return known
        }
        let local = Int32(graph.cells.count)
        localOf[Int(id)] = local
        graph.cells.append(id)
        // A cell that was circular, or read one with iteration off, holds 0, not its formula's
        // value: it is recomputed (a cycle broken by an edit may leave its cells' values as they were).
        graph.needed.append(needed || engine.cellState[Int(id)] == .uncomputed || (!engine.circular.isEmpty && engine.circular.contains(id)))
        graph.waits.append(0)
        graph.edgeStart.append(0)
        graph.edgeEnd.append(0)
        let i = Int(id)
        if !engine.arrays.isEmpty, let array = engine.arrays[id] {
            for r in array.range.start.row...array.range.end.row {
                for c in array.range.start.column...array.range.end.column { queue.append((engine.cellSheet[i], r, c, local)) }
            }
        } else {
            queue.append((engine.cellSheet[i], engine.cellRow[i], engine.cellColumn[i], local))
        }
        return local
    }

    /// Walks the queue: each position's readers reached, an edge from the cell standing there.
    mutating func follow(_ index: DependencyIndex) {
        var head = 0
        var source: Int32 = -1
        var hint = 0
        while head < queue.count {
            let (s, r, c, from) = queue[head]
            head += 1
            if from >= 0, from != source {
                source = from
                graph.edgeStart[Int(from)] = Int32(graph.edges.count)
                graph.edgeEnd[Int(from)] = Int32(graph.edges.count)
            }
            index.forEachDependent(sheet: s, row: r, column: c, hint: &hint) { dep in
                let local = reach(dep, needed: from < 0)
                guard from >= 0 else { return }
                graph.edges.append(local)
                graph.waits[Int(local)] += 1
                graph.edgeEnd[Int(from)] = Int32(graph.edges.count)
            }
        }
    }
}
