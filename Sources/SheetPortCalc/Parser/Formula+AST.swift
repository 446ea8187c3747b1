/// One coordinate of a reference: an offset from the formula's own cell, or an absolute index (`$`).
struct RefCoord: Hashable, Sendable {
    /// The offset (relative) or the zero-based index (absolute).
    var value: Int32
    /// True for `$`-absolute.
    var absolute: Bool

    /// The zero-based index at the formula's cell coordinate `origin`; may fall off the grid.
    @inline(__always) func resolve(_ origin: Int32) -> Int32 { absolute ? value : origin &+ value }
}

/// A cell reference relative to the formula's cell (R1C1-style), with absolute flags.
struct CellRef: Hashable, Sendable {
    var row: RefCoord
    var column: RefCoord
}

/// What kind of area an area reference names.
enum AreaKind: UInt8, Hashable, Sendable {
    /// `A1:B2`.
    case cells
    /// Whole columns `A:C` (rows ignored).
    case columns
    /// Whole rows `1:3` (columns ignored).
    case rows
}

/// A rectangle reference relative to the formula's cell.
struct AreaRef: Hashable, Sendable {
    var start: CellRef
    var end: CellRef
    var kind: AreaKind
}

/// The special item specifiers of a structured reference.
struct TableItems: OptionSet, Hashable, Sendable {
    let rawValue: UInt8
    static let all = TableItems(rawValue: 1)
    static let data = TableItems(rawValue: 2)
    static let headers = TableItems(rawValue: 4)
    static let totals = TableItems(rawValue: 8)
    static let thisRow = TableItems(rawValue: 16)
}

/// A structured reference: `Table1[Qty]`, `Table1[[#This Row],[Qty]]`, `[@Qty]`, `Table1[#All]`.
struct StructuredRef: Hashable, Sendable {
    /// The table's name; nil when the formula is inside the table (`[@Qty]`).
    var table: String?
    /// The special items (none means `#Data`).
    var items: TableItems
    /// The first column named, if any.
    var firstColumn: String?
    /// The last column of a column range (`[A]:[B]`), if any.
    var lastColumn: String?
}

/// Prefix and postfix operators.
enum UnaryOperator: UInt8, Hashable, Sendable {
    case negate, plus, percent
}

/// Binary operators, Excel's.
enum BinaryOperator: UInt8, Hashable, Sendable {
    case add, subtract, multiply, divide, power, concat
    case equal, notEqual, less, lessEqual, greater, greaterEqual
    case range, intersect

    var symbol: String {
        switch self {
        case .add: return "+"
        case .subtract: return "-"
        case .multiply: return "*"
        case .divide: return "/"
        case .power: return "^"
        case .concat: return "&"
        case .equal: return "="
        case .notEqual: return "<>"
        case .less: return "<"
        case .lessEqual: return "<="
        case .greater: return ">"
        case .greaterEqual: return ">="
        case .range: return ":"
        case .intersect: return " "
        }
    }
}

/// One step of a compiled formula, in postfix (reverse Polish) order: evaluating the steps with
/// a value stack needs no recursion, whatever the formula's shape.
enum Instruction: Hashable, Sendable {
    case number(Double)
    case text(String)
    case boolean(Bool)
    case error(ExcelError)
    case array(CalcArray)
    /// An omitted function argument (`IF(A1,,2)`).
    case missing
    case cell(CellRef, sheet: String?)
    case area(AreaRef, sheet: String?)
    /// A reference written as `#REF!`, optionally with a sheet (`Sheet1!#REF!`).
    case badReference(sheet: String?)
    case name(String, sheet: String?)
    case structured(StructuredRef)
    case unary(UnaryOperator)
    case binary(BinaryOperator)
    /// A call of the registry's function `function` (or -1 for an unknown one, named by `name`) with `count` arguments.
    case call(function: Int32, count: Int32, name: String)
    /// A union of `count` references: `(A1,B2:C3)`.
    case union(count: Int32)
    /// Parentheses written in the formula (no effect on the value; kept to render the text back).
    case parenthesis

    // LET and LAMBDA (see `Evaluator+Lambda.swift`). A LET is `value₁ bind(x) value₂ bind(y) body
    // letEnd(2)`; a LAMBDA is `jump(n) body… lambda(parameters, n)`, its body skipped where it is
    // written and run each time the lambda is called. The body stays in the one flat program, so
    // whatever walks the instructions for references (dependencies, templates, rendering) sees it.

    /// A LET or LAMBDA name in scope where it is used (`_xlpm.x`, or `x` as typed).
    case variable(LocalName)
    /// Binds the value on top of the stack to a LET name for the instructions up to its `letEnd`.
    case bind(LocalName)
    /// The end of a LET's calculation: its `count` bindings go out of scope, its value stays.
    case letEnd(count: Int32)
    /// Skips the next `count` instructions (the body of a LAMBDA where it is written).
    case jump(Int32)
    /// Makes a lambda of the `length` instructions before this one, with its parameters.
    case lambda(parameters: [LocalName], length: Int32)
    /// Calls the lambda `count + 1` operands down with the `count` operands above it (`LAMBDA(x,x+1)(2)`, `f(2)`).
    case invoke(count: Int32)
    /// A built-in function passed as a lambda, eta-reduced as Excel writes it (`_xleta.SUM`).
    case eta(function: Int32, name: String)

    // IF evaluates only the branch its condition picks (a recursive LAMBDA stops that way):
    // `condition ifTest(n) value_if_true ifElse(m) value_if_false call(IF)`. The branch not taken
    // is left as `.missing`, which IF never returns; a condition that is an array (or an error)
    // evaluates both branches, as IF then picks element by element.

    /// After IF's condition: when it is a false scalar, skips the `count` instructions of value_if_true.
    case ifTest(Int32)
    /// After IF's value_if_true, reached when the condition was a true scalar: skips the `count`
    /// instructions of value_if_false.
    case ifElse(Int32)
}

/// A LET or LAMBDA name: as written (for the formula text) and its key (upper-cased, for look-ups).
struct LocalName: Hashable, Sendable {
    var written: String
    var key: String
    /// An optional LAMBDA parameter (`_xlop.b`, `[b]` as typed): it may be left out of a call.
    var isOptional = false

    init(_ written: String, optional: Bool = false) {
        self.written = written
        key = written.uppercased()
        isOptional = optional
    }
}
