/// How CSV and TSV fields become cell values, as spreadsheet users expect: numbers,
/// booleans and ISO 8601 dates and times are typed; everything else stays text.
///
/// Kept as text on purpose: numbers with leading zeros (`007`, zip codes), integers of
/// more than 15 digits (IDs a double would round), thousands separators, percentages and
/// anything starting with `=` (a formula in a CSV is data, not code to run).
public enum TypeInference {
    /// The value of a field and the number format it needs (dates and times), nil for an
    /// empty field.
    public static func value(of field: String) -> (value: CellValue, numberFormat: String?)? {
        guard let first = field.utf8.first else { return nil }
        if first == UInt8(ascii: "T") || first == UInt8(ascii: "t") || first == UInt8(ascii: "F") || first == UInt8(ascii: "f") {
            switch field.uppercased() {
            case "TRUE": return (.boolean(true), nil)
            case "FALSE": return (.boolean(false), nil)
            default: return (.string(field), nil)
            }
        }
        if let number = number(field) { return (.number(number), nil) }
        if let date = date(field) { return date }
        return (.string(field), nil)
    }

    /// A decimal number: optional sign, digits with an optional fraction, optional exponent.
    static func number(_ field: String) -> Double? {
        var bytes = Array(field.utf8)[...]
        guard bytes.count <= 40 else { return nil }
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let integer = bytes.prefix { ASCII.isDigit($0) }
        var rest = bytes.dropFirst(integer.count)
        var fraction: ArraySlice<UInt8> = []
        if rest.first == UInt8(ascii: ".") {
            fraction = rest.dropFirst().prefix { ASCII.isDigit($0) }
            rest = rest.dropFirst(1 + fraction.count)
        }
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        if let marker = rest.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            var exponent = rest.dropFirst()
            if exponent.first == UInt8(ascii: "-") || exponent.first == UInt8(ascii: "+") { exponent = exponent.dropFirst() }
            guard !exponent.isEmpty, exponent.allSatisfy(ASCII.isDigit) else { return nil }
            rest = []
        }
        guard rest.isEmpty else { return nil }
        if integer.count > 1 && integer.first == UInt8(ascii: "0") { return nil } // 007: an identifier
        if fraction.isEmpty && integer.count > 15 { return nil }                  // would lose digits
        guard let value = Double(field), value.isFinite else { return nil }
        return value
    }

    /// `YYYY-MM-DD`, `YYYY-MM-DD[T ]HH:MM[:SS[.fff]]`, or a time `HH:MM:SS[.fff]`
    /// (hours past 23 make an elapsed time).
    static func date(_ field: String) -> (CellValue, String?)? {
        let bytes = Array(field.utf8)
        if bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") {
            guard bytes.count == 10 || bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: " "),
                  bytes.count != 11, !field.hasSuffix("Z"), let dateTime = ExcelDateTime(iso: field),
                  dateTime.year >= 1900, dateTime.isValidDay else { return nil }
            let format = bytes.count == 10 ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm:ss"
            return (.date(serial: dateTime.serial(in: .excel1900)), format)
        }
        // A time of day, or elapsed time.
        let parts = field.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hours = Int(parts[0]), hours >= 0, parts[0].count <= 6,
              parts[1].count == 2, let minutes = Int(parts[1]), minutes < 60,
              parts[2].count >= 2, let seconds = Double(parts[2]), seconds < 60,
              parts[2].allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }) else { return nil }
        let days = (Double(hours) * 3600 + Double(minutes) * 60 + seconds) / 86_400
        return hours < 24 ? (.date(serial: days), "hh:mm:ss") : (.duration(days: days), "[h]:mm:ss")
    }
}
