/// An error met while reading a workbook, with the file and the part it concerns.
///
/// `code` uses the pre-flight finding codes of Docs/Reference/Formats.md, so `check`
/// can report a reader failure without translating it.
public struct ReaderError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What went wrong, as a stable finding code.
    public enum Code: String, Sendable, CaseIterable {
        case notAZip = "not-a-zip"
        case legacyXLS = "legacy-xls"
        /// An Excel Binary Workbook (`.xlsb`): a zip, but its parts are BIFF12 records, not XML.
        case xlsbWorkbook = "xlsb-workbook"
        /// An OpenDocument spreadsheet (`.ods`): a zip of ODF parts, not OOXML.
        case odsWorkbook = "ods-workbook"
        case encryptedWorkbook = "encrypted-workbook"
        case corruptZip = "corrupt-zip"
        case unsafeZipEntry = "unsafe-zip-entry"
        case zipBomb = "zip-bomb"
        case forbiddenDTD = "forbidden-dtd"
        case malformedXML = "malformed-xml"
        case missingPart = "missing-part"
        case exceedsLimit = "exceeds-limit"
        case io = "io-error"
        case usage = "usage"
    }

    /// The finding code.
    public var code: Code
    /// The file being read, as the user named it.
    public var file: String
    /// The package part (zip entry), when the error concerns one.
    public var part: String?
    /// A sentence for a person.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, file: String, part: String? = nil, _ message: String) {
        self.code = code
        self.file = file
        self.part = part
        self.message = message
    }

    /// `file: part: message (code)`.
    public var description: String {
        var text = file
        if let part { text += ": " + part }
        return text + ": " + message + " (" + code.rawValue + ")"
    }
}
