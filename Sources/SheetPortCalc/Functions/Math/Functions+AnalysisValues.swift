
extension Functions {
    /// Argument k of a ToolPak function taking single numbers: omitted is #N/A, a boolean #VALUE!.
    static func analysisArgument(_ ev: Evaluator, _ a: [Operand], _ k: Int) throws -> Double {
        guard !ev.isMissing(a, k) else { throw EvalInterrupt.error(.notAvailable) }
        return try analysisNumber(ev, a[k])
    }

    /// Every value of the arguments of a function Excel took over from the Analysis ToolPak that
    /// takes many (GCD, LCM, MULTINOMIAL), as numbers in order: text that reads as a number is one,
    /// in a range or an array too (`LCM({4,"8",12})` is 24; `" 2024-01-10 "` is none); other text
    /// or a boolean is #VALUE!; empty cells are skipped, but arguments that are all empty cells
    /// named alone are #VALUE! (a range of empty cells gives no value: LCM 0); an omitted argument
    /// is #N/A; an error is thrown where it stands (Excel-computed in the calc suite's
    /// MATH_AND_TRIGONOMETRY__GCD_LCM and __LCM_GCD).
    static func analysisValues(_ ev: Evaluator, _ args: [Operand], _ body: (Double) throws -> Void) throws {
        var values = 0, ranges = 0
        func read(_ v: CalcValue, alone _: Bool) throws {
            if case .empty = v {} else { values += 1 }
            switch v {
            case .number(let x): try body(x)
            case .text(let t):
                guard let x = Coercion.number(fromText: t, system: ev.dateSystem) else { throw EvalInterrupt.error(.value) }
                try body(x)
            case .boolean: throw EvalInterrupt.error(.value)
            case .error(let e): throw EvalInterrupt.error(e)
            case .empty: break
            case .array(let a): for x in a.values { try read(x, alone: false) }
            }
        }
        for a in args {
            switch a {
            case .missing: throw EvalInterrupt.error(.notAvailable)
            case .lambda: throw EvalInterrupt.error(.value)
            case .value(let v):
                if case .array = v { ranges += 1 }
                try read(v, alone: true)
            case .ref(let r) where r.isSingleCell: try read(try ev.cellValue(r.sheet, r.r1, r.c1), alone: true)
            case .ref(let r): ranges += 1; try ev.forEachCellRowMajor(r) { _, _, v in try read(v, alone: false) }
            case .refs(let rs): ranges += 1; for r in rs { try ev.forEachCellRowMajor(r) { _, _, v in try read(v, alone: false) } }
            }
        }
        if values == 0 && ranges == 0 { throw EvalInterrupt.error(.value) }
    }

    /// `analysisValues` gathered: every value read (and every #VALUE! or error met) before the
    /// caller judges any of them.
    static func analysisList(_ ev: Evaluator, _ args: [Operand]) throws -> [Double] {
        var values: [Double] = []
        try analysisValues(ev, args) { values.append($0) }
        return values
    }
}
