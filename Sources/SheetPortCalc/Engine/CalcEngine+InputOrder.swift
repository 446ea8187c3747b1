extension CalcEngine {
    /// The inputs in the order the engine places them fastest, each cell once (its last input
    /// wins, as if they were applied one by one): clears bottom-up, so each column's sorted
    /// index shrinks from its end, then the rest top-down, so it grows by appends. In the order
    /// given (a server's dictionary order), a 100,000-cell paste or clear was 100,000 inserts or
    /// removals in the middle of a column's arrays.
    static func placementOrder(_ inputs: [CellInput]) -> [CellInput] {
        guard inputs.count > 1 else { return inputs }
        let sorted = inputs.enumerated().sorted { ($0.element.location, $0.offset) < ($1.element.location, $1.offset) }
        // The last input of each cell: equal locations are adjacent, in the order given.
        var last: [CellInput] = []
        last.reserveCapacity(sorted.count)
        for k in sorted.indices where k == sorted.count - 1 || sorted[k + 1].element.location != sorted[k].element.location {
            last.append(sorted[k].element)
        }
        var clears: [CellInput] = [], rest: [CellInput] = []
        for input in last {
            if case .empty = input.content { clears.append(input) } else { rest.append(input) }
        }
        return clears.reversed() + rest
    }
}
