import SheetPortCore
/// `ColumnTypes` on the records `DelimitedReader.read(into:)` fills: the same decisions, made
/// on the fields' bytes.
extension ColumnTypes {
    /// Whether `record` is the header, given whether it is still to come: the first record
    /// with a non-empty field.
    static func isHeader(_ record: DelimitedRecord, pending: inout Bool) -> Bool {
        guard pending, record.hasValue else { return false }
        pending = false
        return true
    }

    /// The value of non-empty field `column` of `record` and its number format; nil when the
    /// column stays text.
    func value(of record: DelimitedRecord, column: Int) -> (value: CellValue, numberFormat: String?)? {
        guard let kind = kind(of: column) else { return nil }
        return record.withField(column) { TypeInference.value(of: $0, as: kind, rules: rules) }
    }
}
