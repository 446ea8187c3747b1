import SheetPortCore

/// The cells of one column of a sheet: rows in ascending order with the cell ids stored there.
/// Filling row by row appends; only an out-of-order insertion shifts.
struct ColumnIndex {
    var rows: [Int32] = []
    var ids: [Int32] = []

    /// The position of the first row >= `row`.
    @inline(__always) func lowerBound(_ row: Int32) -> Int {
        if let last = rows.last, last < row { return rows.count }
        return rows.partitionPoint { $0 >= row }
    }

    func find(_ row: Int32) -> Int32? {
        let k = lowerBound(row)
        return k < rows.count && rows[k] == row ? ids[k] : nil
    }

    mutating func insert(_ row: Int32, _ id: Int32) {
        // Filling down appends (Array.insert(at: count) goes the slower replaceSubrange way).
        if rows.last.map({ $0 < row }) ?? true {
            rows.append(row)
            ids.append(id)
            return
        }
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

/// A sheet's column indexes by column number: a dense array of optional slots up to the last
/// stored column, so that finding a column (several times for every cell loaded and evaluated)
/// is an index, not a hash (a dictionary hashed each look-up: 1.9 M of them on 20,000 rows).
struct ColumnMap {
    private var slots: [ColumnIndex?] = []

    /// The column's index, or nil when the column holds nothing; setting nil empties the slot.
    subscript(column: Int32) -> ColumnIndex? {
        get { column >= 0 && Int(column) < slots.count ? slots[Int(column)] : nil }
        _modify {
            if column >= 0 && Int(column) < slots.count {
                yield &slots[Int(column)]
            } else {
                // A column past the last slot: grown only when something is stored there.
                var fresh: ColumnIndex? = nil
                yield &fresh
                if let fresh { grow(to: column); slots[Int(column)] = fresh }
            }
        }
        set {
            if column >= 0 && Int(column) < slots.count { slots[Int(column)] = newValue }
            else if let newValue { grow(to: column); slots[Int(column)] = newValue }
        }
    }

    /// The column's index, created empty when missing (for in-place insertion).
    subscript(column: Int32, default empty: @autoclosure () -> ColumnIndex) -> ColumnIndex {
        get { self[column] ?? empty() }
        _modify {
            grow(to: column)
            if slots[Int(column)] == nil { slots[Int(column)] = empty() }
            yield &slots[Int(column)]!
        }
    }

    private mutating func grow(to column: Int32) {
        precondition(column >= 0, "a negative column")
        if Int(column) >= slots.count { slots.append(contentsOf: repeatElement(nil, count: Int(column) + 1 - slots.count)) }
    }

    /// The columns of `c1...c2` that have an index, ascending.
    func columns(_ c1: Int32, _ c2: Int32) -> [Int32] {
        var out: [Int32] = []
        var c = max(c1, 0)
        let last = min(c2, Int32(slots.count - 1))
        while c <= last { if slots[Int(c)] != nil { out.append(c) }; c += 1 }
        return out
    }
}

/// One worksheet's sparse storage: column indexes of every stored cell and of formula cells alone.
struct SheetStore {
    var name: String
    var columns = ColumnMap()
    /// Formula cells and cells of array-formula ranges: what a recalculation orders.
    var formulaColumns = ColumnMap()
    var maxRow: Int32 = -1
    var maxColumn: Int32 = -1

    init(name: String) { self.name = name }

    func find(row: Int32, column: Int32) -> Int32? {
        columns[column]?.find(row)
    }

    /// The columns of `c1...c2` that hold cells, ascending.
    func storedColumns(_ c1: Int32, _ c2: Int32, formulasOnly: Bool = false) -> [Int32] {
        (formulasOnly ? formulaColumns : columns).columns(c1, c2)
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
    var range: CellIndexRange
    var isDynamic: Bool
}
