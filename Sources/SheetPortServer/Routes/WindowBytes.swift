/// The byte budget of one rows window or view answer (`maxWindowBytes`, Docs/Reference/HTTP.md,
/// "Rows windows"): rows are counted as they are built, and the answer stops before the first
/// row that would take it past the cap. The window's first row is always taken (alone it may
/// pass the cap: a row is bounded by the grid's columns and the cell text limit), so paging on
/// `next` always moves on.
struct WindowBytes {
    /// The most bytes an answer holds (but for its first row).
    let cap: Int
    /// Bytes taken so far (the answer's opening included).
    var used: Int
    /// Rows taken so far.
    private(set) var rows = 0
    /// The row the answer stopped before, nil while it goes on.
    private(set) var stoppedAt: Int?

    init(cap: Int, used: Int) {
        self.cap = cap
        self.used = used
    }

    /// Takes `json` (row `row`'s, with its separator) when it fits, or is the first; else
    /// notes `row` as where the next window starts and answers false.
    mutating func admits(_ json: [UInt8], row: Int) -> Bool {
        guard stoppedAt == nil else { return false }
        if rows > 0, used + json.count + 1 > cap {
            stoppedAt = row
            return false
        }
        used += json.count + 1
        rows += 1
        return true
    }
}
