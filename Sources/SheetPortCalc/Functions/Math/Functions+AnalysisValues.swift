import SheetPortCore

extension Functions {
    /// Every value of the arguments of a function Excel took over from the Analysis ToolPak that
    /// takes many (GCD, LCM, MULTINOMIAL), as numbers in order: text that reads as a number is one,
    /// in a range or an array too (`LCM({4,"8",12})` is 24); other text, a boolean or an empty
    /// argument (an empty cell named alone) is #VALUE!; empty cells of a range are skipped; an
    /// error is thrown where it stands (Excel-computed in ../shared/calc-suite
    /// MATH_AND_TRIGONOMETRY__GCD_LCM and __LCM_GCD).
    static func analysisValues(_ ev: Evaluator, _ args: [Operand], _ body: (Double) throws -> Void) throws {
        func read(_ v: CalcValue, alone: Bool) throws {
            switch v {
            case .number(let x): try body(x)
            case .text(let t):
                guard let x = Coercion.number(fromText: t, system: ev.dateSystem) else { throw EvalInterrupt.error(.value) }
                try body(x)
            case .boolean: throw EvalInterrupt.error(.value)
            case .error(let e): throw EvalInterrupt.error(e)
            case .empty: if alone { throw EvalInterrupt.error(.value) }
            case .array(let a): for x in a.values { try read(x, alone: false) }
            }
        }
        for a in args {
            switch a {
            case .missing: throw EvalInterrupt.error(.value)
            case .value(let v): try read(v, alone: true)
            case .ref(let r) where r.isSingleCell: try read(try ev.cellValue(r.sheet, r.r1, r.c1), alone: true)
            case .ref(let r): try ev.forEachCellRowMajor(r) { _, _, v in try read(v, alone: false) }
            case .refs(let rs): for r in rs { try ev.forEachCellRowMajor(r) { _, _, v in try read(v, alone: false) } }
            }
        }
    }
}
