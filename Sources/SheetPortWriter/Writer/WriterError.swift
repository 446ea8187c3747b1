/// An error met while writing a workbook. Nothing is published when one is thrown:
/// the staging directory is removed and the destination is left as it was.
public enum WriterError: Error, CustomStringConvertible, Sendable, Equatable {
    /// A sheet name Excel would refuse: empty, over 31 characters, with one of `[]:*?/\`,
    /// starting or ending with `'`, or the reserved `History`.
    case invalidSheetName(String, reason: String)
    /// Two sheets whose names differ only in case.
    case duplicateSheetName(String)
    /// A row or column outside Excel's grid (1,048,576 rows, 16,384 columns).
    case outsideGrid(sheet: String, row: Int, column: Int)
    /// Rows must be appended top to bottom and cells left to right, each once.
    case outOfOrder(sheet: String, reference: String, after: String)
    /// Cell text or a comment over Excel's 32,767 characters; it is never truncated.
    case textTooLong(sheet: String, reference: String, length: Int)
    /// A formula over Excel's 8,192 characters.
    case formulaTooLong(sheet: String, reference: String, length: Int)
    /// A number Excel cannot store (NaN or infinite).
    case invalidNumber(sheet: String, reference: String)
    /// A style, column width, row height or comment that Excel cannot store.
    case invalidArgument(String)
    /// A style index not returned by `WorkbookWriter.style(_:)`.
    case unknownStyle(Int)
    /// A call after `close()` or `discard()`, or on a sheet that is already finished.
    case finished
    /// A worksheet whose XML passes 4 GiB without `WriterOptions.zip64`.
    case needsZip64(sheet: String)
    /// The file system or libzip failed.
    case io(file: String, message: String)

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .invalidSheetName(let name, let reason): "invalid sheet name \"\(name)\": \(reason)"
        case .duplicateSheetName(let name): "a sheet named \"\(name)\" already exists (names are compared ignoring case)"
        case .outsideGrid(let sheet, let row, let column):
            "\(sheet): row \(row), column \(column) is outside Excel's grid of 1,048,576 rows and 16,384 columns"
        case .outOfOrder(let sheet, let reference, let after):
            "\(sheet): \(reference) comes after \(after); rows must be written top to bottom and cells left to right"
        case .textTooLong(let sheet, let reference, let length):
            "\(sheet)!\(reference): text of \(length) characters is over Excel's limit of 32,767"
        case .formulaTooLong(let sheet, let reference, let length):
            "\(sheet)!\(reference): formula of \(length) characters is over Excel's limit of 8,192"
        case .invalidNumber(let sheet, let reference): "\(sheet)!\(reference): NaN and infinity cannot be stored"
        case .invalidArgument(let message): message
        case .unknownStyle(let index): "style \(index) was not made by this writer"
        case .finished: "the workbook or sheet is already finished"
        case .needsZip64(let sheet): "\(sheet): the worksheet XML is over 4 GiB; write it with ZIP64 (--zip64)"
        case .io(let file, let message): "\(file): \(message)"
        }
    }
}
