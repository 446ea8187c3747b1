import Foundation
import SheetPortCore
import SheetPortConvert
import SheetPortReader

/// The server's caps (`GET /api/limits`, Docs/Reference/HTTP.md).
public struct ServerLimits: Sendable, Equatable {
    /// The largest upload accepted, in bytes.
    public var maxUploadBytes: Int64
    /// The most cells an imported sheet's used range may span.
    public var maxCells: Int
    /// The most rows and columns.
    public var maxRows: Int
    public var maxColumns: Int
    /// The most characters in a cell.
    public var maxCellTextLength: Int

    public init(maxUploadBytes: Int64, maxCells: Int, maxRows: Int = CellReference.maxRow,
                maxColumns: Int = CellReference.maxColumn, maxCellTextLength: Int = PreflightOptions.maxCellTextLength) {
        self.maxUploadBytes = maxUploadBytes
        self.maxCells = maxCells
        self.maxRows = maxRows
        self.maxColumns = maxColumns
        self.maxCellTextLength = maxCellTextLength
    }

    init(json: JSONObject) throws(JSONShapeError) {
        self.init(maxUploadBytes: try json.int64("maxUploadBytes"), maxCells: Int(try json.int64("maxCells")),
                  maxRows: Int(json.optionalInt64("maxRows") ?? Int64(CellReference.maxRow)),
                  maxColumns: Int(json.optionalInt64("maxColumns") ?? Int64(CellReference.maxColumn)),
                  maxCellTextLength: Int(json.optionalInt64("maxCellTextLength") ?? Int64(PreflightOptions.maxCellTextLength)))
    }

    /// Pre-flight options that apply these caps (with the default archive limits).
    public var preflightOptions: PreflightOptions {
        var options = PreflightOptions()
        options.apply(self)
        return options
    }
}

extension PreflightOptions {
    /// Narrows these options to a server's caps.
    public mutating func apply(_ limits: ServerLimits) {
        maxUploadBytes = limits.maxUploadBytes
        maxCells = min(maxCells, limits.maxCells)
        maxRows = min(maxRows, limits.maxRows)
        maxColumns = min(maxColumns, limits.maxColumns)
        maxCellTextLength = min(maxCellTextLength, limits.maxCellTextLength)
    }
}

/// A sheet the session's subject may read (`GET /api/sheets`).
public struct RemoteSheet: Sendable, Equatable {
    public var id: String
    public var name: String
    public var version: Int
    public var role: String
    public var rows: Int
    public var columns: Int

    public init(id: String, name: String, version: Int = 0, role: String = "", rows: Int = 0, columns: Int = 0) {
        self.id = id; self.name = name; self.version = version; self.role = role; self.rows = rows; self.columns = columns
    }

    init(json: JSONObject) throws(JSONShapeError) {
        self.init(id: try json.identifier("id"), name: json.optionalString("name") ?? "",
                  version: Int(json.optionalInt64("version") ?? 0), role: json.optionalString("role") ?? "",
                  rows: Int(json.optionalInt64("rows") ?? 0), columns: Int(json.optionalInt64("columns") ?? 0))
    }
}

/// An import job (`GET /api/imports/{id}`).
public struct ImportJob: Sendable, Equatable {
    /// A warning the import reported (a pre-flight finding).
    public struct Warning: Sendable, Equatable {
        public var code: String
        public var message: String
    }

    public var id: String
    /// Where it is; a status the contract does not name is a decoding error.
    public var status: ImportJobStatus
    /// Progress so far.
    public var bytes: Int64 = 0, rows: Int64 = 0, cells: Int64 = 0
    /// The sheet created, once succeeded.
    public var sheet: RemoteSheet?
    public var warnings: [Warning] = []
    /// Why it failed: the code, nil while it has not, and the message.
    public var errorCode: ServerErrorCode?, errorMessage = ""

    init(json: JSONObject) throws(JSONShapeError) {
        let job = try json.object("job")
        id = try job.identifier("id")
        let status = try job.string("status")
        guard let known = ImportJobStatus(rawValue: status) else {
            throw JSONShapeError(description: "unknown job status \"\(status)\"")
        }
        self.status = known
        if let progress = job.optionalObject("progress") {
            bytes = progress.optionalInt64("bytes") ?? 0
            rows = progress.optionalInt64("rows") ?? 0
            cells = progress.optionalInt64("cells") ?? 0
        }
        if let result = job.optionalObject("result") {
            if let sheet = result.optionalObject("sheet") { self.sheet = try RemoteSheet(json: sheet) }
            for item in result.values["warnings"] as? [Any] ?? [] {
                if let text = item as? String {
                    warnings.append(Warning(code: "", message: text))
                } else if let object = item as? [String: Any] {
                    warnings.append(Warning(code: object["code"] as? String ?? "", message: object["message"] as? String ?? ""))
                }
            }
        }
        if let error = job.optionalObject("error") {
            errorCode = error.errorCode
            errorMessage = error.optionalString("message") ?? ""
        }
    }
}

/// A JSON answer whose shape is not the contract's.
struct JSONShapeError: Error, CustomStringConvertible {
    let description: String
}

/// A decoded JSON object with typed, throwing accessors.
struct JSONObject {
    let values: [String: Any]

    init(_ values: [String: Any]) { self.values = values }

    /// Parses `bytes` as a JSON object.
    init(parsing bytes: [UInt8]) throws(JSONShapeError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw JSONShapeError(description: "not a JSON object: \(String(decoding: bytes.prefix(200), as: UTF8.self))")
        }
        values = object
    }

    func object(_ key: String) throws(JSONShapeError) -> JSONObject {
        guard let value = optionalObject(key) else { throw JSONShapeError(description: "no \"\(key)\" object") }
        return value
    }

    func optionalObject(_ key: String) -> JSONObject? { (values[key] as? [String: Any]).map(JSONObject.init) }

    func objects(_ key: String) throws(JSONShapeError) -> [JSONObject] {
        guard let array = values[key] as? [Any] else { throw JSONShapeError(description: "no \"\(key)\" array") }
        return array.compactMap { ($0 as? [String: Any]).map(JSONObject.init) }
    }

    func string(_ key: String) throws(JSONShapeError) -> String {
        guard let value = optionalString(key) else { throw JSONShapeError(description: "no \"\(key)\" string") }
        return value
    }

    func optionalString(_ key: String) -> String? { values[key] as? String }

    /// The `code` of an `error` object; nil when it has none.
    var errorCode: ServerErrorCode? { optionalString("code").flatMap { $0.isEmpty ? nil : ServerErrorCode(rawValue: $0) } }

    func int64(_ key: String) throws(JSONShapeError) -> Int64 {
        guard let value = optionalInt64(key) else { throw JSONShapeError(description: "no \"\(key)\" number") }
        return value
    }

    func optionalInt64(_ key: String) -> Int64? {
        // A JSON boolean is an NSNumber of type "c"; `is Bool` would also take the numbers 0 and 1.
        guard let number = values[key] as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return number.int64Value
    }

    /// An id, sent as a string or a number.
    func identifier(_ key: String) throws(JSONShapeError) -> String {
        if let text = values[key] as? String { return text }
        if let number = optionalInt64(key) { return String(number) }
        throw JSONShapeError(description: "no \"\(key)\"")
    }
}
