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
}
