/// The budget of one formula's evaluation (`CalcLimits`): every array is measured before it is
/// allocated, and arrays and texts made are charged against the formula's bytes and steps.
extension Evaluator {
    /// Starts a formula's budget afresh (each cell's evaluation has its own).
    @inline(__always)
    func startBudget() {
        stepsLeft = deadline == nil ? limits.maxEvalSteps : min(limits.maxEvalSteps, Self.stepsPerClockRead)
        stepsBanked = limits.maxEvalSteps - stepsLeft
        bytesLeft = limits.maxEvalBytes
    }

    /// Steps a formula runs between two reads of the clock when a deadline is set (a few milliseconds).
    static let stepsPerClockRead = 1 << 20
    /// Formula cells evaluated between two reads of the clock when a deadline is set.
    static let cellsPerClockRead = 64

    /// Called when `stepsLeft` went below 0: the next slice of the budget, unless the budget is
    /// spent or the deadline passed (the formula is then `#NUM!`).
    func moreSteps() throws {
        while stepsLeft < 0 {
            guard stepsBanked > 0, !pastDeadline(readingClock: true) else { throw EvalInterrupt.exhausted }
            let slice = min(stepsBanked, Self.stepsPerClockRead)
            stepsBanked -= slice
            stepsLeft &+= slice
        }
    }

    /// True once the pass's deadline has passed (never without one); the clock is read every
    /// `cellsPerClockRead` calls, or now when `readingClock`.
    @inline(__always)
    func pastDeadline(readingClock: Bool = false) -> Bool {
        guard let deadline, !isPastDeadline else { return isPastDeadline }
        cellsUntilClock -= 1
        guard readingClock || cellsUntilClock <= 0 else { return false }
        cellsUntilClock = Self.cellsPerClockRead
        isPastDeadline = deadline.hasPassed
        return isPastDeadline
    }

    /// The cell count of an array of `rows` × `columns`, checked before it is made: more than
    /// `maxArrayCells` (or a product that overflows) is `#NUM!`; its bytes and cells are charged.
    @discardableResult
    func arrayCells(_ rows: Int, _ columns: Int) throws -> Int {
        let cells = try measuredCells(rows, columns)
        let (bytes, tooMany) = cells.multipliedReportingOverflow(by: MemoryLayout<CalcValue>.stride)
        if tooMany { throw EvalInterrupt.exhausted }
        try charge(bytes: bytes, steps: cells)
        return cells
    }

    /// The cell count of an array of `rows` × `columns`: more than `maxArrayCells`, or a product
    /// that overflows, is `#NUM!`.
    @inline(__always)
    func measuredCells(_ rows: Int, _ columns: Int) throws -> Int {
        let (cells, overflow) = rows.multipliedReportingOverflow(by: columns)
        guard !overflow, rows >= 0, columns >= 0, cells <= limits.maxArrayCells else { throw EvalInterrupt.error(.number) }
        return cells
    }

    /// Charges memory and work to the running formula; past either budget the formula is `#NUM!`.
    @inline(__always)
    func charge(bytes: Int, steps: Int = 0) throws {
        bytesLeft &-= bytes
        stepsLeft &-= steps
        if bytesLeft < 0 { throw EvalInterrupt.exhausted }
        if stepsLeft < 0 { try moreSteps() }
    }

    /// A text result kept: over 32,767 characters it is `#VALUE!`; else its bytes are charged.
    @inline(__always)
    func limitedText(_ t: String) throws -> CalcValue {
        guard CalcLimits.fits(t) else { return .error(.value) }
        try charge(bytes: t.utf8.count)
        return .text(t)
    }

    /// A function's result, held to the limits: a long text is `#VALUE!`, an array past
    /// `maxArrayCells` `#NUM!` (the arrays that can outgrow their arguments are measured and
    /// charged before they are made; the others are bounded by their arguments, already charged).
    @inline(__always)
    func limited(_ result: Operand) throws -> Operand {
        guard case .value(let v) = result else { return result }
        switch v {
        case .text(let t): return .value(try limitedText(t))
        case .array(let a):
            do { _ = try measuredCells(a.rows, a.columns) } catch EvalInterrupt.error(let e) { return .value(.error(e)) }
            return result
        default: return result
        }
    }
}
