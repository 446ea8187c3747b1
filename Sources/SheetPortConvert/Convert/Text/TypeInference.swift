import SheetPortCore
/// How CSV and TSV fields become cell values, as spreadsheet users expect: numbers,
/// booleans and ISO 8601 dates and times are typed; everything else stays text. Which kind a
/// column holds is decided over the whole column (`ColumnTypes`); these are the rules for one field.
///
/// Kept as text on purpose: numbers with leading zeros (`007`, zip codes), integers of
/// more than 15 digits (IDs a double would round), thousands separators (unless they are the
/// dots of `Rules.decimalComma`), percentages and anything starting with `=` (a formula in a CSV
/// is data, not code to run).
public enum TypeInference {
    /// How numbers are written.
    public struct Rules: Sendable, Equatable {
        /// Numbers are written `1.234,5` or `1234,5`: a decimal comma, with dots between
        /// groups of three digits.
        public var decimalComma = false
        /// How dates are written besides ISO 8601 (`--input-date-format`).
        public var dateFormat: DateFormat?

        /// The rules; numbers with a decimal point unless `decimalComma`.
        public init(decimalComma: Bool = false, dateFormat: DateFormat? = nil) {
            self.decimalComma = decimalComma
            self.dateFormat = dateFormat
        }
    }

    /// A kind of typed value that a column may hold.
    public enum Kind: Sendable, Equatable {
        /// Decimal numbers.
        case number
        /// `TRUE` and `FALSE`, in any case.
        case boolean
        /// ISO dates with an optional time of day.
        case date
        /// Times of day (`13:45`, `08:00:00`) or elapsed times (`36:00:00`).
        case time
    }

    /// The value of a field on its own and the number format it needs (dates and times), nil
    /// for an empty field.
    public static func value(of field: String, rules: Rules = Rules()) -> (value: CellValue, numberFormat: String?)? {
        guard !field.isEmpty else { return nil }
        return typed(field, rules: rules).map { ($0.value, $0.numberFormat) } ?? (.string(field), nil)
    }

    /// The kind of a non-empty field, nil for text.
    static func kind(of field: String, rules: Rules) -> Kind? {
        typed(field, rules: rules)?.kind
    }

    /// The value of `field` as `kind`, nil when it is not one.
    static func value(of field: String, as kind: Kind, rules: Rules) -> (value: CellValue, numberFormat: String?)? {
        switch kind {
        case .number: return number(field, rules: rules).map { (.number($0), nil) }
        case .boolean: return boolean(field).map { (.boolean($0), nil) }
        case .date: return date(field, rules: rules)
        case .time: return time(field)
        }
    }

    /// A field's kind and typed value, nil for text.
    private static func typed(_ field: String, rules: Rules) -> (kind: Kind, value: CellValue, numberFormat: String?)? {
        guard let first = field.utf8.first else { return nil }
        if first | 0x20 == UInt8(ascii: "t") || first | 0x20 == UInt8(ascii: "f") {
            return boolean(field).map { (.boolean, .boolean($0), nil) }
        }
        if let number = number(field, rules: rules) { return (.number, .number(number), nil) }
        if let (value, format) = date(field, rules: rules) { return (.date, value, format) }
        if let (value, format) = time(field) { return (.time, value, format) }
        return nil
    }

    /// `TRUE` or `FALSE`, in any case.
    static func boolean(_ field: String) -> Bool? {
        guard field.utf8.count == 4 || field.utf8.count == 5 else { return nil }
        switch field.uppercased() {
        case "TRUE": return true
        case "FALSE": return false
        default: return nil
        }
    }

    /// A decimal number: optional sign, digits with an optional fraction, optional exponent;
    /// with `rules.decimalComma`, a comma before the fraction and optional dots between groups
    /// of three digits.
    static func number(_ field: String, rules: Rules = Rules()) -> Double? {
        var bytes = Array(field.utf8)[...]
        guard bytes.count <= 40 else { return nil }
        var sign: [UInt8] = []
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { sign = [bytes.first!]; bytes = bytes.dropFirst() }
        let point = rules.decimalComma ? UInt8(ascii: ",") : UInt8(ascii: ".")
        var integer = bytes.prefix { ASCII.isDigit($0) || (rules.decimalComma && $0 == UInt8(ascii: ".")) }
        var rest = bytes.dropFirst(integer.count)
        if integer.contains(UInt8(ascii: ".")) {
            // 1.234.567: a first group of 1 to 3 digits, then groups of exactly 3.
            let groups = integer.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            guard (1...3).contains(groups[0].count), groups.dropFirst().allSatisfy({ $0.count == 3 }) else { return nil }
            integer = ArraySlice(groups.joined())
        }
        var fraction: ArraySlice<UInt8> = []
        if rest.first == point {
            fraction = rest.dropFirst().prefix { ASCII.isDigit($0) }
            rest = rest.dropFirst(1 + fraction.count)
        }
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        var exponent: ArraySlice<UInt8> = []
        if let marker = rest.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            exponent = rest.dropFirst()
            let digits = exponent.first == UInt8(ascii: "-") || exponent.first == UInt8(ascii: "+") ? exponent.dropFirst() : exponent
            guard !digits.isEmpty, digits.allSatisfy(ASCII.isDigit) else { return nil }
            rest = []
        }
        guard rest.isEmpty else { return nil }
        if integer.count > 1 && integer.first == UInt8(ascii: "0") { return nil } // 007: an identifier
        if fraction.isEmpty && integer.count > 15 { return nil }                  // would lose digits
        var canonical = sign + integer
        if !fraction.isEmpty { canonical += [UInt8(ascii: ".")] + fraction }
        if !exponent.isEmpty { canonical += [UInt8(ascii: "e")] + exponent }
        guard let value = Double(String(decoding: canonical, as: UTF8.self)), value.isFinite else { return nil }
        return value
    }

    /// A date in `rules.dateFormat`, or ISO.
    static func date(_ field: String, rules: Rules) -> (CellValue, String?)? {
        if let format = rules.dateFormat, let dateTime = format.parse(field) {
            return (.date(serial: dateTime.serial(in: .excel1900)), format.hasTime ? "yyyy-mm-dd hh:mm:ss" : "yyyy-mm-dd")
        }
        return date(field)
    }

    /// `YYYY-MM-DD` or `YYYY-MM-DD[T ]HH:MM[:SS[.fff]]`, from 1900 on.
    static func date(_ field: String) -> (CellValue, String?)? {
        let bytes = Array(field.utf8)
        guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes.count == 10 || bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
              bytes.count != 11, !field.hasSuffix("Z"), let dateTime = ExcelDateTime(iso: field),
              dateTime.year >= 1900, dateTime.isValidDay else { return nil }
        let format = bytes.count == 10 ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm:ss"
        return (.date(serial: dateTime.serial(in: .excel1900)), format)
    }

    /// A time of day `HH:MM` or `HH:MM:SS[.fff]`, or elapsed time when the hours pass 23.
    static func time(_ field: String) -> (CellValue, String?)? {
        let parts = Array(field.utf8).split(separator: UInt8(ascii: ":"), maxSplits: 3, omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, (1...6).contains(parts[0].count), parts[0].allSatisfy(ASCII.isDigit),
              parts[1].count == 2, parts[1].allSatisfy(ASCII.isDigit),
              let hours = Int(String(decoding: parts[0], as: UTF8.self)),
              let minutes = Int(String(decoding: parts[1], as: UTF8.self)), minutes < 60 else { return nil }
        var seconds = 0.0
        if parts.count == 3 {
            let text = parts[2]
            let whole = text.prefix { ASCII.isDigit($0) }
            guard whole.count == 2, text.count == 2 || (text.count > 3 && text[text.startIndex + 2] == UInt8(ascii: ".")
                                                          && text.dropFirst(3).allSatisfy(ASCII.isDigit)),
                  let value = Double(String(decoding: text, as: UTF8.self)), value < 60 else { return nil }
            seconds = value
        }
        let days = (Double(hours) * 3600 + Double(minutes) * 60 + seconds) / 86_400
        let clock = parts.count == 2 ? "mm" : "mm:ss"
        return hours < 24 ? (.date(serial: days), "hh:" + clock) : (.duration(days: days), "[h]:" + clock)
    }
}
