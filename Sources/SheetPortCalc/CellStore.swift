import SheetPortCore
/// The cells of one column of a sheet: rows in ascending order with the cell ids stored there.
/// Filling row by row appends; only an out-of-order insertion shifts.
struct ColumnIndex {
    var rows: [Int32] = []
    var ids: [Int32] = []

    /// The position of the first row >= `row`.
    @inline(__always) func lowerBound(_ row: Int32) -> Int {
        if let last = rows.last, last < row { return rows.count }
        var lo = 0, hi = rows.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if rows[mid] < row { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    func find(_ row: Int32) -> Int32? {
        let k = lowerBound(row)
        return k < rows.count && rows[k] == row ? ids[k] : nil
    }

    mutating func insert(_ row: Int32, _ id: Int32) {
        let k = lowerBound(row)
        if k < rows.count && rows[k] == row { ids[k] = id; return }
        rows.insert(row, at: k)
        ids.insert(id, at: k)
    }

    mutating func remove(_ row: Int32) {
        let k = lowerBound(row)
        guard k < rows.count && rows[k] == row else { return }
        rows.remove(at: k)
        ids.remove(at: k)
    }

    /// The index positions of rows in `r1...r2`.
    func positions(_ r1: Int32, _ r2: Int32) -> Range<Int> {
        let a = lowerBound(r1)
        let b = r2 == Int32.max ? rows.count : lowerBound(r2 &+ 1)
        return a..<max(a, b)
    }
}

/// One worksheet's sparse storage: column indexes of every stored cell and of formula cells alone.
struct SheetStore {
    var name: String
    var columns: [Int32: ColumnIndex] = [:]
    /// Formula cells and cells of array-formula ranges: what a recalculation orders.
    var formulaColumns: [Int32: ColumnIndex] = [:]
    var maxRow: Int32 = -1
    var maxColumn: Int32 = -1

    init(name: String) { self.name = name }

    func find(row: Int32, column: Int32) -> Int32? {
        columns[column]?.find(row)
    }

    /// The columns of `c1...c2` that hold cells, ascending.
    func storedColumns(_ c1: Int32, _ c2: Int32, formulasOnly: Bool = false) -> [Int32] {
        let dict = formulasOnly ? formulaColumns : columns
        if Int(c2) - Int(c1) + 1 <= dict.count {
            var out: [Int32] = []
            var c = c1
            while c <= c2 { if dict[c] != nil { out.append(c) }; c += 1 }
            return out
        }
        return dict.keys.filter { $0 >= c1 && $0 <= c2 }.sorted()
    }
}

/// What a stored cell holds.
enum CellKind: UInt8 {
    case constant
    case formula
    /// A cell of an array formula's range other than its anchor.
    case arrayMember
    /// A formula the engine cannot parse (or an external reference): its cached value stays.
    case unparsed
}

/// An array formula's range (legacy CSE or a dynamic array's spill), held by its anchor cell.
struct ArrayFormula {
    var range: RangeAddress
    var isDynamic: Bool
}
