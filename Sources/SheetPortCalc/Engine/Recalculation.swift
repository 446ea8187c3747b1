import SheetPortCore
extension CalcEngine {
    /// Recomputes every formula of the workbook and answers the findings.
    @discardableResult
    public func recalculate() -> CalcReport {
        suspendedPass = nil
        carried = []
        lookupCache = LookupCache()
        circular = []
        var roots: [Int32] = []
        for id in 0..<cellKind.count where cellKind[id] == .formula || cellKind[id] == .arrayMember {
            if cellKind[id] == .arrayMember, arrayAnchorOf[Int32(id)] == nil { continue }
            cellState[id] = .dirty
            if cellKind[id] == .formula { roots.append(Int32(id)) }
        }
        evaluate(roots)
        // A dynamic array that spilled into new cells may have been read before it spilled:
        // a further pass orders those readers after it (bounded; spills settle in a few passes).
        var passes = 0
        while spilledInPass, passes < 3 {
            passes += 1
            var again: [Int32] = []
            for id in 0..<cellKind.count where cellKind[id] == .formula || cellKind[id] == .arrayMember {
                if cellKind[id] == .arrayMember, arrayAnchorOf[Int32(id)] == nil { continue }
                cellState[id] = .dirty
                if cellKind[id] == .formula { again.append(Int32(id)) }
            }
            circular = []
            lookupCache = LookupCache()
            evaluate(again)
        }
        if let iterativeCalculation, !circular.isEmpty { iterate(iterativeCalculation) }
        changedSinceRecalc = []
        needsFullRecalc = false
        report = buildReport()
        return report
    }

    /// Applies inputs (values, formulas, clears) and recomputes only the formulas that depend on
    /// them, transitively, plus the volatile ones; answers every cell whose value changed (the inputs included).
    /// Formulas entered here are dynamic-array formulas, as typed in current Excel: an array result spills.
    /// - Returns: the changed cells, sorted by sheet and position; the parse errors are in `report`... see `setFormula`.
    ///
    /// With `limit`, the recalculation in dependency order stops once more than `limit` cells
    /// changed (the answer then lists those and the inputs): `hasPendingRecalculation` is true
    /// and the cells it has not reached hold their previous values until
    /// `continueRecalculation` settles them, or the next `setInputs` takes them up.
    @discardableResult
    public func setInputs(_ inputs: [CellInput], stoppingAfter limit: Int = .max) -> [CellChange] {
        // A suspended pass is set aside while the inputs go in; writing one of its cells takes
        // it up at once (the cell's id may be reused), else `recalculateInOrder` decides.
        var kept = suspendedPass
        suspendedPass = nil
        takenBackSpillCells = []
        var pending = takeCarried()
        if let pass = kept, inputs.contains(where: { l in cellID(sheet: l.location.sheet, address: l.location.index).map { pass.contains($0) } ?? false }) {
            pending += unsettled(of: pass)
            kept = nil
        }
        for input in Self.placementOrder(inputs) {
            let l = input.location
            switch input.content {
            case .value(let v): setValue(v, at: l.cell, sheet: l.sheet)
            case .formula(let f): setFormula(f, at: l.cell, sheet: l.sheet, isDynamicArray: true)
            case .empty: clearCell(at: l.cell, sheet: l.sheet)
            }
        }
        return recalculateChanged(pending: pending, kept: kept, limit: limit)
    }

    /// True while a recalculation `setInputs` stopped part way has cells left to compute.
    public var hasPendingRecalculation: Bool { suspendedPass != nil || !carried.isEmpty }

    /// Goes on with the recalculation `setInputs` stopped, taking at most `cells` cells from its
    /// queue; answers the cells whose value changed (not sorted).
    public func continueRecalculation(cells: Int = .max) -> [CellChange] {
        if !carried.isEmpty { return recalculateChanged() }
        guard var pass = suspendedPass else { return [] }
        suspendedPass = nil
        var changes: [CellChange] = []
        spilledInPass = false
        guard run(&pass, changesAbove: .max, cells: cells, into: &changes) else {
            suspendedPass = pass
            return changes
        }
        if spilledInPass {
            // New spill cells may have readers outside the pass: everything recomputed once.
            changes += recalculateAll()
        }
        report = buildReport()
        return changes
    }

    /// Goes on with the recalculation `setInputs` stopped until no formula cell of `range` on
    /// `sheet` is left to compute (with the cells its dependency order reaches first); answers
    /// the cells whose value changed (not sorted). A reader of a window of cells needs no more:
    /// the cells past it wait for `continueRecalculation(cells:)`.
    public func continueRecalculation(until range: CellRange, sheet: Int) -> [CellChange] {
        if !carried.isEmpty { return recalculateChanged() }
        var changes: [CellChange] = []
        var waiting = unsettledFormulas(in: CellIndexRange(range), sheet: sheet)
        while suspendedPass != nil {
            // Those computed drop off the end; one still to compute there keeps the pass going.
            while let last = waiting.last, cellState[Int(last)] != .dirty { waiting.removeLast() }
            if waiting.isEmpty { break }
            changes += continueRecalculation(cells: 2_048)
        }
        return changes
    }

    /// The formula cells of `range` on `sheet` that the suspended pass has not computed yet.
    private func unsettledFormulas(in range: CellIndexRange, sheet: Int) -> [Int32] {
        guard let pass = suspendedPass, sheets.indices.contains(sheet) else { return [] }
        let store = sheets[sheet]
        var ids: [Int32] = []
        for column in store.storedColumns(range.start.column, range.end.column, formulasOnly: true) {
            guard let index = store.formulaColumns[column] else { continue }
            for k in index.positions(range.start.row, range.end.row) {
                let id = index.ids[k]
                if pass.contains(id), cellState[Int(id)] == .dirty { ids.append(id) }
            }
        }
        return ids
    }

    /// Recomputes everything; answers the formula cells whose value changed, but for `inputs`.
    private func recalculateAll(skipping inputs: Set<CellLocation> = []) -> [CellChange] {
        let before = formulaValues()
        recalculate()
        var changes: [CellChange] = []
        collect(before, skipping: inputs, into: &changes)
        return changes
    }

    /// Every formula cell (array members too) with its value now, for `collect` to compare with.
    private func formulaValues() -> [(Int32, CalcValue)] {
        (0..<cellKind.count).compactMap { id -> (Int32, CalcValue)? in
            cellKind[id] == .formula || cellKind[id] == .arrayMember ? (Int32(id), cellValue[id]) : nil
        }
    }

    /// Recomputes what depends on the cells changed since the last recalculation (a full
    /// recalculation when names or tables changed); answers the cells whose value changed.
    @discardableResult
    public func recalculateChanged() -> [CellChange] {
        takenBackSpillCells = []
        var pending = takeCarried()
        if let pass = suspendedPass { pending += unsettled(of: pass) }
        suspendedPass = nil
        return recalculateChanged(pending: pending, kept: nil, limit: .max)
    }

    /// `recalculateChanged`, with the cells a suspended pass left (`pending`, recomputed as
    /// dirty and answered when they change), a suspended pass set aside (`kept`: it stays
    /// suspended when the changes do not reach its cells, else it is taken up) and the in-order
    /// pass's `limit` (see `setInputs`).
    private func recalculateChanged(pending: [CellLocation], kept: OrderedPass?, limit: Int) -> [CellChange] {
        var pending = pending
        var kept = kept
        if needsFullRecalc, let pass = kept {
            pending += unsettled(of: pass)
            kept = nil
        }
        var changes: [CellChange] = []
        // The inputs are answered last, once each; `collect` leaves them out (a set of the few
        // inputs, not of every changed cell: a write can change 200,000 dependents).
        // A full recalculation clears `changedSinceRecalc`: the inputs are kept for the answer.
        let changed = changedSinceRecalc
        let inputs = Set(changed)
        if needsFullRecalc {
            changes = recalculateAll(skipping: inputs)
        } else {
            lookupCache = LookupCache()
            if dependencyIndex == nil { dependencyIndex = DependencyIndex(engine: self) }
            if let index = dependencyIndex, recalculateInOrder(index, skipping: inputs, pending: &pending, kept: &kept, limit: limit, into: &changes) {
                if spilledInPass {
                    // New spill cells may have readers outside the dirty set: recompute everything
                    // once; a cell changed again is answered once, with its final value.
                    let again = recalculateAll(skipping: inputs)
                    let settled = Set(again.map(\.location))
                    changes = changes.filter { !settled.contains($0.location) } + again
                }
                report = buildReport()
                return finishChanges(changes, inputs: changed)
            }
            if let pass = kept { pending += unsettled(of: pass) }
            let dirty = dependents(of: changedSinceRecalc + pending)
            var before: [(Int32, CalcValue)] = []
            var roots: [Int32] = []
            for id in dirty {
                before.append((id, cellValue[Int(id)]))
                cellState[Int(id)] = .dirty
                circular.remove(id)
                if cellKind[Int(id)] == .formula { roots.append(id) }
                if let array = arrays[id] { markMembers(id, array, .dirty, snapshot: &before) }
            }
            evaluate(roots)
            if spilledInPass {
                // New spill cells may have readers outside the dirty set: recompute everything once.
                before += formulaValues()
                recalculate()
            }
            report = buildReport()
            collect(before, skipping: inputs, into: &changes)
        }
        return finishChanges(changes, inputs: changed)
    }

    /// The changes with the inputs added (once each), sorted.
    private func finishChanges(_ recalculated: [CellChange], inputs: [CellLocation]) -> [CellChange] {
        var changes = recalculated
        var answered = Set<CellLocation>()
        if !takenBackSpillCells.isEmpty {
            // A spill that moved or shrank freed its members' cells and took new ones (maybe
            // the same ids) for the cells it spills into now: a change noted by id may name the
            // wrong cell or an emptied value. Each changed cell, the taken-back ones among them,
            // is answered once, by location, with its value now. (Without a freed cell no id
            // changed hands: a write's dependents are answered as noted, with no lookup each.)
            let taken = takenBackSpillCells.map { CellChange(location: $0, value: .empty) }
            changes = (changes + taken).compactMap { change in
                guard answered.insert(change.location).inserted else { return nil }
                return CellChange(location: change.location, value: value(at: change.location.cell, sheet: change.location.sheet))
            }
            takenBackSpillCells = []
            answered = []
        }
        for l in inputs where answered.insert(l).inserted {
            changes.append(CellChange(location: l, value: value(at: l.cell, sheet: l.sheet)))
        }
        changedSinceRecalc = []
        // Dependents come in dependency order, which for a column of running totals is row order.
        var sorted = true
        for k in changes.indices.dropFirst() where !(changes[k - 1].location < changes[k].location) { sorted = false; break }
        return sorted ? changes : changes.sorted { $0.location < $1.location }
    }

    /// Appends the cells whose value differs from the snapshot, each once, but for `inputs`.
    private func collect(_ before: [(Int32, CalcValue)], skipping inputs: Set<CellLocation>, into changes: inout [CellChange]) {
        var seen = [Bool](repeating: false, count: cellKind.count)
        for (id, old) in before where !seen[Int(id)] && cellValue[Int(id)] != old {
            seen[Int(id)] = true
            let l = location(of: Int(id))
            if inputs.isEmpty || !inputs.contains(l) { changes.append(CellChange(location: l, value: cellValue[Int(id)])) }
        }
    }

    /// The formula cells depending (transitively) on the given cells, plus volatile formulas and theirs.
    func dependents(of changed: [CellLocation]) -> [Int32] {
        guard let index = dependencyIndex else { return [] }
        var dirty = Set<Int32>()
        var queue: [(Int32, Int32, Int32)] = changed.map { (Int32($0.sheet), $0.index.row, $0.index.column) }
        for id in index.volatile where dirty.insert(id).inserted {
            enqueuePositions(of: id, into: &queue)
        }
        // Dynamic arrays blocked (#SPILL!) or spilling over a changed cell may spill differently now.
        for id in respilling(after: changed) where dirty.insert(id).inserted { enqueuePositions(of: id, into: &queue) }
        // Formulas set in this batch are dirty themselves.
        for l in changed {
            if let id = cellID(sheet: l.sheet, address: l.index), cellKind[Int(id)] == .formula, dirty.insert(id).inserted {
                enqueuePositions(of: id, into: &queue)
            }
        }
        var head = 0
        while head < queue.count {
            let (s, r, c) = queue[head]
            head += 1
            index.forEachDependent(sheet: s, row: r, column: c) { dep in
                if dirty.insert(dep).inserted { enqueuePositions(of: dep, into: &queue) }
            }
        }
        return Array(dirty)
    }

    func enqueuePositions(of id: Int32, into queue: inout [(Int32, Int32, Int32)]) {
        let i = Int(id)
        if let array = arrays[id] {
            for r in array.range.start.row...array.range.end.row {
                for c in array.range.start.column...array.range.end.column { queue.append((cellSheet[i], r, c)) }
            }
        } else {
            queue.append((cellSheet[i], cellRow[i], cellColumn[i]))
        }
    }

    func markMembers(_ anchor: Int32, _ array: ArrayFormula, _ state: CellState, snapshot: inout [(Int32, CalcValue)]) {
        let s = Int(cellSheet[Int(anchor)])
        for r in array.range.start.row...array.range.end.row {
            for c in array.range.start.column...array.range.end.column {
                if let m = sheets[s].find(row: r, column: c), arrayAnchorOf[m] == anchor {
                    cellState[Int(m)] = state
                    snapshot.append((m, cellValue[Int(m)]))
                }
            }
        }
    }

    // MARK: the evaluation driver

    /// One cell on the evaluation path and the precedents it still waits for.
    private struct Frame {
        var id: Int32
        var pending: [Int32]?
        /// Pushed because the cell below read it (`EvalInterrupt.needs`), not because it is among
        /// the static references the cell below computes first, which it may never read.
        var isRead: Bool
        /// The cell the one below read (an array formula's cell, for the anchor pushed), or -1.
        var via: Int32 = -1
    }

    /// Excel's iterative calculation: the cells on circular references, first computed as 0, are
    /// computed again in sheet order from each other's last values until a repetition changes no
    /// number by more than `maxChange`, or `maxIterations` times; then the cells that read them.
    /// The work is bounded whatever the settings: at most `CalcLimits.maxIterativeEvaluations`
    /// cell evaluations in all.
    func iterate(_ settings: IterativeCalculation) {
        let cycle = circular.sorted { (cellSheet[Int($0)], cellRow[Int($0)], cellColumn[Int($0)]) < (cellSheet[Int($1)], cellRow[Int($1)], cellColumn[Int($1)]) }
        circular = []
        let evaluator = Evaluator(engine: self)
        let repetitions = min(settings.maxIterations, max(1, CalcLimits.maxIterativeEvaluations / cycle.count))
        for _ in 0..<repetitions {
            var change = 0.0
            for id in cycle where cellKind[Int(id)] == .formula {
                let before = cellValue[Int(id)]
                evaluationCount += 1
                let value = (try? evaluateCell(id, evaluator)) ?? .error(.value)
                finish(id, value: value)
                if case .number(let a) = before, case .number(let b) = cellValue[Int(id)] {
                    change = max(change, abs(b - a))
                } else if before != cellValue[Int(id)] {
                    change = .infinity
                }
            }
            if change <= settings.maxChange { break }
        }
        // The cells that read the cycle were computed from its zeros.
        let onCycle = Set(cycle)
        var again: [Int32] = []
        for id in 0..<cellKind.count where cellKind[id] == .formula && !onCycle.contains(Int32(id)) {
            cellState[id] = .dirty
            again.append(Int32(id))
        }
        lookupCache = LookupCache()
        evaluate(again)
    }

    /// Evaluates the dirty cells reachable from `roots` in dependency order with an explicit stack
    /// (iterative depth-first search): no recursion, linear in cells and references.
    ///
    /// A circular reference is found as Excel finds it, when computing a cell reads one still
    /// being computed: a static reference back onto the path is not followed (`IF(FALSE,A1,1)`
    /// in A1 reads nothing), and only a cycle of reads makes its cells circular (0).
    func evaluate(_ roots: [Int32]) {
        let evaluator = Evaluator(engine: self)
        spilledInPass = false
        doneRanges = []
        defer { doneRanges = [] }
        var stack: [Frame] = []
        // Cells whose static references led back onto the path: computed reading what they need.
        var unprefetched = Set<Int32>()
        if !circularMembers.isEmpty { circularMembers = [:] }
        for root in roots where cellState[Int(root)] == .dirty {
            cellState[Int(root)] = .onPath
            stack.append(Frame(id: root, pending: nil, isRead: false))
            while !stack.isEmpty {
                let top = stack.count - 1
                let id = stack[top].id
                // Settled out of turn while cells above it were computed (`readBack`).
                if cellState[Int(id)] != .onPath {
                    stack.removeLast()
                    continue
                }
                if !circular.isEmpty, circular.contains(id) {
                    if !circularMembers.isEmpty, circularMembers[id] != nil {
                        if let next = finishCircularArray(id, evaluator) {
                            let target = arrayAnchorOf[next] ?? next
                            if cellState[Int(target)] == .dirty {
                                push(target, isRead: true, &stack)
                                stack[stack.count - 1].via = next
                            } else {
                                readBack(target, reading: next, &stack, unprefetched: &unprefetched, evaluator)
                            }
                            continue
                        }
                    } else {
                        finishUncomputed(id)
                    }
                    stack.removeLast()
                    continue
                }
                if stack[top].pending == nil {
                    stack[top].pending = unprefetched.isEmpty || !unprefetched.contains(id) ? dirtyPrecedents(of: id) : []
                }
                if let next = stack[top].pending?.popLast() {
                    if cellState[Int(next)] == .dirty { push(next, isRead: false, &stack) }
                    continue
                }
                evaluationCount += 1
                do {
                    let value = try evaluateCell(id, evaluator)
                    finish(id, value: value)
                    stack.removeLast()
                } catch EvalInterrupt.needs(let needed) {
                    let target = arrayAnchorOf[needed] ?? needed
                    if cellState[Int(needed)] == .uncomputed {
                        finishUncomputed(id)
                        stack.removeLast()
                        continue
                    }
                    switch cellState[Int(target)] {
                    case .dirty:
                        push(target, isRead: true, &stack)
                        stack[stack.count - 1].via = needed
                    case .onPath:
                        readBack(target, reading: needed, &stack, unprefetched: &unprefetched, evaluator)
                    case .uncomputed, .done:
                        // An array member not settled with its anchor: never expected, and
                        // computing again would read it again.
                        finish(id, value: .error(.value))
                        stack.removeLast()
                    }
                } catch {
                    finish(id, value: .error(.value))
                    stack.removeLast()
                }
            }
        }
    }

    private func push(_ id: Int32, isRead: Bool, _ stack: inout [Frame]) {
        cellState[Int(id)] = .onPath
        stack.append(Frame(id: id, pending: nil, isRead: isRead))
    }

    /// The cell on top read `target`, which is on the path below it. It is a circular reference
    /// when each cell from `target` up reads the one above it; a cell that pushed the one above
    /// only as a static reference is computed to see what it reads: the one above (the edge
    /// holds), nothing missing (it is settled out of turn: no cycle), or another cell (it is then
    /// computed in turn without its static references, the cells above it dirty again). Each
    /// call settles a cell, marks the cycle, or drops a cell's static references (once a pass):
    /// a 100,000-cell cycle of static references is checked in one walk.
    /// Answers whether it marked a circular reference.
    @discardableResult
    private func readBack(_ target: Int32, reading needed: Int32, _ stack: inout [Frame], unprefetched: inout Set<Int32>,
                          _ evaluator: Evaluator) -> Bool {
        guard let start = stack.lastIndex(where: { $0.id == target }) else { return false }
        var j = stack.count - 2
        while j >= start {
            let id = stack[j].id, child = stack[j + 1]
            if cellState[Int(id)] != .onPath || (child.isRead && cellState[Int(child.id)] == .onPath) {
                j -= 1
                continue
            }
            evaluationCount += 1
            do {
                finish(id, value: try evaluateCell(id, evaluator))
                return false
            } catch EvalInterrupt.needs(let cell) {
                let read = arrayAnchorOf[cell] ?? cell
                if read == child.id, cellState[Int(read)] == .onPath {
                    stack[j + 1].isRead = true
                    stack[j + 1].via = cell
                    j -= 1
                    continue
                }
                if read == id { circular.insert(id) }
                if read == id || cellState[Int(cell)] == .uncomputed {
                    finishUncomputed(id)
                    return read == id
                }
                unprefetched.insert(id)
                for frame in stack[(j + 1)...] where cellState[Int(frame.id)] == .onPath { cellState[Int(frame.id)] = .dirty }
                stack.removeSubrange((j + 1)...)
                stack[j].pending = []
                return false
            } catch {
                finish(id, value: .error(.value))
                return false
            }
        }
        for k in start..<stack.count { circular.insert(stack[k].id) }
        if iterativeCalculation == nil, !arrays.isEmpty {
            // The cells of an array formula's range the cycle reads (each read names one).
            for k in (start + 1)..<stack.count where stack[k].via >= 0 && arrays[stack[k].id] != nil { circularMembers[stack[k].id, default: []].insert(stack[k].via) }
            if arrays[target] != nil { circularMembers[target, default: []].insert(needed) }
        }
        return true
    }

    /// An array formula on a circular reference with iteration off: the cells of its range the
    /// cycle reads (`circularMembers`) are 0 and not computed, the others hold their elements,
    /// computed from the cycle's zeros (formulas__circular `{=IF(A10:A12,B10:B12,1)}`: the
    /// cycle runs through D11 alone, D10 and D12 are 1). Answers a cell to compute first (the
    /// formula reads it, not computed yet or on the path: it may close another cycle through
    /// the range, or settle out of turn), or nil once settled (all its cells 0 when it reads itself).
    private func finishCircularArray(_ id: Int32, _ evaluator: Evaluator) -> Int32? {
        guard let members = circularMembers[id], let array = arrays[id], !array.isDynamic else {
            circularMembers[id] = nil
            finishUncomputed(id)
            return nil
        }
        let value: CalcValue
        do {
            readsUncomputedAsZero = true
            defer { readsUncomputedAsZero = false }
            value = try evaluateCell(id, evaluator)
        } catch EvalInterrupt.needs(let needed) {
            let target = arrayAnchorOf[needed] ?? needed
            if cellState[Int(target)] == .dirty || (cellState[Int(target)] == .onPath && target != id) { return needed }
            circularMembers[id] = nil
            finishUncomputed(id)
            return nil
        } catch {
            value = .error(.value)
        }
        circularMembers[id] = nil
        circular.remove(id)
        finishArray(id, value)
        cellState[Int(id)] = .done
        for m in members {
            circular.insert(m)
            cellValue[Int(m)] = .number(0)
            cellState[Int(m)] = .uncomputed
        }
        return nil
    }

    /// Settles a cell Excel does not compute, on a circular reference or reading one: 0, and with
    /// iteration off `.uncomputed` (its array's cells too), so that its readers are not computed either.
    private func finishUncomputed(_ id: Int32) {
        finish(id, value: .number(0))
        guard iterativeCalculation == nil else { return }
        cellState[Int(id)] = .uncomputed
        guard !arrays.isEmpty, let array = arrays[id] else { return }
        let s = Int(cellSheet[Int(id)])
        for r in array.range.start.row...array.range.end.row {
            for c in array.range.start.column...array.range.end.column {
                if let m = sheets[s].find(row: r, column: c), arrayAnchorOf[m] == id { cellState[Int(m)] = .uncomputed }
            }
        }
    }

    /// Stores a computed value; an array formula hands each cell of its range its element.
    func finish(_ id: Int32, value: CalcValue) {
        let i = Int(id)
        cellState[i] = .done
        if !dynamicFormulas.isEmpty || !arrays.isEmpty, dynamicFormulas.contains(id) || arrays[id]?.isDynamic == true {
            if let spilled = spill(id, value) { finishArray(id, spilled); return }
            cellValue[i] = .error(.spill)
            return
        }
        finishArray(id, value)
    }

    /// Places a dynamic array's result: the spill range it needs (created or resized), or nil
    /// when a stored cell blocks it (`#SPILL!`). A single value needs no range.
    func spill(_ id: Int32, _ value: CalcValue) -> CalcValue? {
        let i = Int(id)
        let s = Int(cellSheet[i]), top = cellRow[i], left = cellColumn[i]
        guard case .array(let a) = value, a.values.count > 1 else {
            if let old = arrays[id], old.isDynamic { removeSpill(id, old) }
            return value
        }
        let bottom = Int(top) + a.rows - 1, right = Int(left) + a.columns - 1
        guard bottom <= Int(maxRowIndex), right <= Int(maxColumnIndex) else {
            if let old = arrays[id], old.isDynamic { removeSpill(id, old) }
            return nil
        }
        let range = CellIndexRange(CellIndex(row: top, column: left), CellIndex(row: Int32(bottom), column: Int32(right)))
        if let old = arrays[id], old.range == range, spillIntact(id, old) { return value }
        for r in top...Int32(bottom) {
            for c in left...Int32(right) where !(r == top && c == left) {
                guard let m = sheets[s].find(row: r, column: c) else { continue }
                if arrayAnchorOf[m] == id { continue }
                if cellKind[Int(m)] == .constant, cellValue[Int(m)] == .empty { continue }
                if let old = arrays[id], old.isDynamic { removeSpill(id, old) }
                return nil
            }
        }
        if let old = arrays[id], old.isDynamic { removeSpill(id, old) }
        arrays[id] = ArrayFormula(range: range, isDynamic: true)
        for r in top...Int32(bottom) {
            for c in left...Int32(right) where !(r == top && c == left) {
                let m = ensureCell(sheet: s, address: CellIndex(row: r, column: c))
                cellKind[Int(m)] = .arrayMember
                arrayAnchorOf[m] = id
                markFormulaCell(m)
            }
        }
        spilledInPass = true
        dependencyIndex = nil
        return value
    }

    /// True when every cell of the spill range still belongs to the anchor (nothing typed over it).
    func spillIntact(_ id: Int32, _ array: ArrayFormula) -> Bool {
        let s = Int(cellSheet[Int(id)])
        for r in array.range.start.row...array.range.end.row {
            for c in array.range.start.column...array.range.end.column {
                guard let m = sheets[s].find(row: r, column: c) else { return false }
                if m != id && arrayAnchorOf[m] != id { return false }
            }
        }
        return true
    }

    /// Takes back a dynamic array's spilled cells.
    func removeSpill(_ id: Int32, _ old: ArrayFormula) {
        let s = Int(cellSheet[Int(id)])
        for r in old.range.start.row...old.range.end.row {
            for c in old.range.start.column...old.range.end.column {
                guard let m = sheets[s].find(row: r, column: c), m != id, arrayAnchorOf[m] == id else { continue }
                takenBackSpillCells.append(location(of: Int(m)))
                arrayAnchorOf[m] = nil
                sheets[s].formulaColumns[c]?.remove(r)
                sheets[s].columns[c]?.remove(r)
                cellKind[Int(m)] = .constant
                cellValue[Int(m)] = .empty
                cellState[Int(m)] = .done
                freeIDs.append(m)
            }
        }
        arrays[id] = nil
        dependencyIndex = nil
    }

    func finishArray(_ id: Int32, _ value: CalcValue) {
        let i = Int(id)
        if !arrays.isEmpty, let array = arrays[id] {
            let s = Int(cellSheet[i])
            let grid: CalcArray
            if case .array(let a) = value { grid = a } else { grid = CalcArray(rows: 1, columns: 1, values: [value]) }
            for r in array.range.start.row...array.range.end.row {
                for c in array.range.start.column...array.range.end.column {
                    guard let m = sheets[s].find(row: r, column: c), m == id || arrayAnchorOf[m] == id else { continue }
                    var v = grid.broadcast(Int(r - array.range.start.row), Int(c - array.range.start.column))
                    if circular.contains(id) { v = .number(0) }
                    if case .empty = v { v = .number(0) }
                    cellValue[Int(m)] = v
                    cellState[Int(m)] = .done
                }
            }
            return
        }
        var v = value
        if case .array(let a) = v { v = a.values.first ?? .empty }
        if case .empty = v { v = .number(0) }
        cellValue[i] = v
    }

    /// Evaluates one formula cell (an unknown function keeps the cached value).
    func evaluateCell(_ id: Int32, _ ev: Evaluator) throws -> CalcValue {
        let i = Int(id)
        // Past the deadline the pass only runs out: its values are dropped with the engine.
        if ev.pastDeadline() { return .error(.number) }
        let formula = formulas[Int(cellFormula[i])]
        if !formula.unknownFunctions.isEmpty, let cached = cachedValues[id], callsUnknownFunction(formula, sheet: cellSheet[i]) {
            return arrays[id] == nil ? cached : cellValue[i]
        }
        ev.sheet = cellSheet[i]
        ev.row = cellRow[i]
        ev.column = cellColumn[i]
        ev.nameDepth = 0
        // The tables are hashed only when they hold something (most workbooks have no arrays).
        let isArray = !arrays.isEmpty && arrays[id] != nil
        let isDynamic = !dynamicFormulas.isEmpty && dynamicFormulas.contains(id)
        let isSingleCellArray = !singleCellArrays.isEmpty && singleCellArrays.contains(id)
        ev.arrayMode = isArray || formula.usesArrayArguments || isDynamic || isSingleCellArray
        ev.startBudget()
        do {
            switch try ev.run(formula) {
            case .value(let v): return v
            case .missing: return .empty
            case .refs: return .error(.value)
            // A formula whose value is a lambda, not called: Excel's #CALC!.
            case .lambda: return .error(.calc)
            case .ref(let r):
                if isArray || isDynamic {
                    guard !r.isSingleCell else { return try ev.cellValue(r.sheet, r.r1, r.c1) }
                    do { return .array(try ev.matrix(r)) } catch EvalInterrupt.error(let e) { return .error(e) }
                }
                if r.isSingleCell { return try ev.cellValue(r.sheet, r.r1, r.c1) }
                // A one-cell array formula shows its range's first cell, a blank one as 0
                // (calculation suite formulas__test LOOKUP!AG135 `{=TRIMRANGE(G135:H139,"3",2)}`).
                if isSingleCellArray {
                    let v = try ev.cellValue(r.sheet, r.r1, r.c1)
                    return v == .empty ? .number(0) : v
                }
                ev.arrayMode = false
                return try ev.implicitIntersection(r)
            }
        } catch EvalInterrupt.exhausted {
            return .error(.number)
        } catch EvalInterrupt.error(let e) {
            return .error(e)
        }
    }

    /// The dirty formula cells a formula reads through its static references (array cells map to their anchor).
    func dirtyPrecedents(of id: Int32) -> [Int32] {
        let i = Int(id)
        guard cellKind[i] == .formula else { return [] }
        var out: [Int32] = []
        var done = doneRanges
        doneRanges = []
        forEachStaticRange(of: id, valuesOnly: true) { r in
            guard Int(r.sheet) < sheets.count else { return }
            if r.isSingleCell {
                // One cell (most references): one look-up, no list of columns.
                guard let p = sheets[Int(r.sheet)].formulaColumns[r.c1]?.find(r.r1) else { return }
                let target = arrayAnchorOf.isEmpty ? p : (arrayAnchorOf[p] ?? p)
                if target != id, cellState[Int(target)] == .dirty { out.append(target) }
                return
            }
            // A range found computed once in this pass stays computed: it is not walked again.
            if !r.isSingleCell, done.contains(r) { return }
            let before = out.count
            var pending = false
            let store = sheets[Int(r.sheet)]
            for c in store.storedColumns(r.c1, r.c2, formulasOnly: true) {
                guard let col = store.formulaColumns[c] else { continue }
                for k in col.positions(r.r1, r.r2) {
                    let p = col.ids[k]
                    let target = arrayAnchorOf.isEmpty ? p : (arrayAnchorOf[p] ?? p)
                    if target == id { pending = true; continue }
                    if cellState[Int(target)] == .dirty { out.append(target) }
                }
            }
            if !r.isSingleCell, out.count == before, !pending { done.insert(r) }
        }
        doneRanges = done
        return out
    }

    /// Calls `body` with each rectangle a formula cell references statically (cells, areas, names, tables).
    /// `valuesOnly` (the evaluation order) leaves out a reference that is the whole argument of a
    /// function reading the cell's formula, not its value (FORMULATEXT, ISFORMULA): a formula
    /// showing the text of one that reads it back is no circular reference, as in Excel.
    func forEachStaticRange(of id: Int32, valuesOnly: Bool = false, _ body: (SheetRange) -> Void) {
        let i = Int(id)
        guard cellFormula[i] >= 0 else { return }
        var visitedNames = Set<Int32>()
        // Names' formulas are queued in `work`; the cell's own formula needs no queue (no allocation per cell).
        var work: [(Int32, Int32)] = []
        var next: (Int32, Int32)? = (cellFormula[i], cellSheet[i])
        let row = cellRow[i], column = cellColumn[i]
        while let (f, homeSheet) = next {
            defer { next = work.popLast() }
            let instructions = formulas[Int(f)].instructions
            for (k, step) in instructions.enumerated() {
                if valuesOnly, k + 1 < instructions.count, case .call(let g, 1, _) = instructions[k + 1],
                   FunctionRegistry.formulaReaders.contains(g) {
                    continue
                }
                switch step {
                case .cell(let r, let name):
                    let rr = r.row.resolve(row), cc = r.column.resolve(column)
                    if let span = sheetSpan(name, home: homeSheet), rr >= 0, cc >= 0, rr <= maxRowIndex, cc <= maxColumnIndex {
                        for s in span { body(SheetRange(sheet: s, r1: rr, c1: cc, r2: rr, c2: cc)) }
                    }
                case .area(let a, let name):
                    if let span = sheetSpan(name, home: homeSheet) {
                        for s in span { if let r = Evaluator.range(a, sheet: s, row: row, column: column) { body(r) } }
                    }
                case .structured(let st):
                    if let r = Evaluator.structuredRange(st, engine: self, sheet: homeSheet, row: row, column: column) { body(r) }
                case .name(let n, let sheetName):
                    let upper = n.uppercased()
                    let scope = sheetName.map { sheetByName[$0.uppercased()] ?? -1 } ?? homeSheet
                    if let def = names[NameKey(scope: scope, name: upper)] ?? names[NameKey(scope: -1, name: upper)], def.formula >= 0 {
                        if visitedNames.insert(def.formula).inserted { work.append((def.formula, homeSheet)) }
                    } else if let t = tables[upper] {
                        let range = CellIndexRange(t.range)
                        body(SheetRange(sheet: Int32(t.sheet), r1: range.start.row, c1: range.start.column, r2: range.end.row, c2: range.end.column))
                    }
                case .call(let g, _, let n) where g < 0:
                    // A defined name called as a function (a LAMBDA in a name): its cells count too.
                    if let def = definedName(n, sheet: homeSheet), def.formula >= 0, visitedNames.insert(def.formula).inserted {
                        work.append((def.formula, homeSheet))
                    }
                default: break
                }
            }
        }
    }

    /// True when the formula calls a function that is neither built in nor a defined name of its sheet (a LAMBDA).
    func callsUnknownFunction(_ formula: CompiledFormula, sheet: Int32) -> Bool {
        formula.unknownFunctions.contains { definedName($0, sheet: sheet) == nil }
    }

    func buildReport() -> CalcReport {
        var r = CalcReport()
        var functionCells: [String: [CellLocation]] = [:]
        var order: [String] = []
        for id in 0..<cellKind.count {
            if cellKind[id] == .formula {
                for name in formulas[Int(cellFormula[id])].unknownFunctions where definedName(name, sheet: cellSheet[id]) == nil {
                    if functionCells[name] == nil { order.append(name) }
                    functionCells[name, default: []].append(location(of: id))
                }
            } else if cellKind[id] == .unparsed, let u = unparsed[Int32(id)] {
                r.unsupportedFormulas.append(.init(location: location(of: id), formula: u.text, reason: u.error, keptCachedValue: cellValue[id] != .error(.name)))
            }
        }
        r.unsupportedFunctions = order.map { .init(name: $0, cells: functionCells[$0] ?? []) }
        r.circularReferences = circular.map { location(of: Int($0)) }.sorted()
        r.unsupportedFormulas.sort { $0.location < $1.location }
        return r
    }
}
