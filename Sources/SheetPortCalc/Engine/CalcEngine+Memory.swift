extension CalcEngine {
    /// The bytes the texts of the engine's cells hold (their UTF-8 and, past the 15 bytes a
    /// string keeps inline, a heap object's header): what a per-cell estimate leaves out, for a
    /// memory budget such as `serve --calc-memory`. One pass over the cell values.
    package func heldTextBytes() -> Int {
        var bytes = 0
        for case .text(let t) in cellValue {
            let n = t.utf8.count
            if n > 15 { bytes += n + 32 }
        }
        return bytes
    }
}
