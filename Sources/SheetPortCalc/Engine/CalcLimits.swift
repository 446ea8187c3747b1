/// The bounds one formula's evaluation keeps (Docs/Reference/HTTP.md, "Limits"): past them the formula
/// answers with Excel's errors, so no formula can exhaust the process's memory or hold its thread.
public struct CalcLimits: Sendable, Hashable {
    /// The most cells an array or a broadcast may have; a larger one is `#NUM!`, refused before it
    /// is allocated.
    public var maxArrayCells: Int
    /// The most bytes one formula's evaluation may allocate for arrays and texts; past it the
    /// formula is `#NUM!`.
    public var maxEvalBytes: Int
    /// The most steps (instructions run, array cells made) one formula's evaluation may take;
    /// past it the formula is `#NUM!`.
    public var maxEvalSteps: Int

    /// Excel's longest text, in UTF-16 code units: a longer text result is `#VALUE!`.
    public static let maxTextLength = 32_767

    /// The most cell evaluations an iterative calculation makes in all (its repetitions times the
    /// cells on circular references): 32,767 repetitions of a large cycle would otherwise hold a
    /// thread for hours.
    public static let maxIterativeEvaluations = 10_000_000

    /// The limits with the given caps (the defaults are the contract's).
    public init(maxArrayCells: Int = 10_000_000, maxEvalBytes: Int = 256 << 20, maxEvalSteps: Int = 100_000_000) {
        self.maxArrayCells = maxArrayCells
        self.maxEvalBytes = maxEvalBytes
        self.maxEvalSteps = maxEvalSteps
    }

    /// True when a text is at most `maxTextLength` UTF-16 code units. The UTF-8 count is O(1)
    /// and never below the UTF-16 count, so only a long text is counted again.
    @inline(__always)
    public static func fits(_ text: String) -> Bool {
        text.utf8.count <= maxTextLength || text.utf16.count <= maxTextLength
    }

    /// True when two texts joined are at most `maxTextLength` UTF-16 code units (checked before joining).
    @inline(__always)
    static func fits(_ a: String, _ b: String) -> Bool {
        a.utf8.count + b.utf8.count <= maxTextLength || a.utf16.count + b.utf16.count <= maxTextLength
    }
}

/// A text built piece by piece that stops at Excel's 32,767 characters: the piece that would
/// pass them throws `#VALUE!` before it is appended, so a join of a huge range allocates no more.
struct LimitedText {
    private(set) var text = ""
    private var length = 0

    mutating func append(_ piece: String) throws {
        length += piece.utf16.count
        guard length <= CalcLimits.maxTextLength else { throw EvalInterrupt.error(.value) }
        text += piece
    }
}
