/// An Excel error value, as written in a cell or a formula (`#DIV/0!`, `#N/A`, ...).
public enum ExcelError: String, Sendable, Hashable, CaseIterable {
    /// `#NULL!`: an intersection of ranges that do not meet.
    case null = "#NULL!"
    /// `#DIV/0!`: a division by zero.
    case divisionByZero = "#DIV/0!"
    /// `#VALUE!`: an operand of the wrong type.
    case value = "#VALUE!"
    /// `#REF!`: a reference that is not valid.
    case reference = "#REF!"
    /// `#NAME?`: an unknown function or name.
    case name = "#NAME?"
    /// `#NUM!`: a number that is not valid for the operation (overflow, domain).
    case number = "#NUM!"
    /// `#N/A`: a value that is not available (lookup misses).
    case notAvailable = "#N/A"
    /// `#GETTING_DATA`: a value still being fetched.
    case gettingData = "#GETTING_DATA"
    /// `#SPILL!`: a dynamic array result that cannot spill into its neighbours.
    case spill = "#SPILL!"
    /// `#CALC!`: a calculation the engine cannot perform (for example an empty array).
    case calc = "#CALC!"

    /// The error for the literal text (case-insensitive), or nil.
    public init?(literal: String) {
        let upper = literal.uppercased()
        guard let match = ExcelError.allCases.first(where: { $0.rawValue == upper }) else { return nil }
        self = match
    }

    /// The number `ERROR.TYPE` returns for this error.
    public var typeNumber: Int {
        switch self {
        case .null: return 1
        case .divisionByZero: return 2
        case .value: return 3
        case .reference: return 4
        case .name: return 5
        case .number: return 6
        case .notAvailable: return 7
        case .gettingData: return 8
        case .spill: return 9
        case .calc: return 14
        }
    }
}
