import Foundation
import SheetPortCore
import SheetPortConvert

/// `POST /api/sheets/{id}/format` and `POST /api/sheets/{id}/sizes` (Docs/Reference/HTTP.md, "Writing"):
/// editor and owner only, each a write through `SheetWrite` (atomic, serialized per sheet, a new
/// version with a `format` or `sizes` event). Formats are kept in each cell's `style` members,
/// row heights in the row blocks' row headers and column widths in the sealed layout, which is
/// where exports read them.
enum FormatRoutes {
    /// The horizontal alignments a format sets.
    static let alignments = ["left", "center", "right"]
    /// Excel's largest row height (points) and column width (characters).
    static let maxRowHeight = 409.0
    static let maxColumnWidth = 255.0

    /// `{"range","set":{...}}` merges the members into every cell of the range (a member set to
    /// null, or a flag to false, is removed); `{"range","clear":true}` removes every stored cell's
    /// format in the range. Setting covers at most `maxBatchCells` cells (413 past it, nothing
    /// stored); clearing touches only the cells stored there.
    static func format(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .editor)
        let object = try EditRoutes.body(request)
        let usage = "send {\"range\": \"A1:B2\", \"set\": {\"bold\", \"italic\", \"align\", \"numberFormat\", \"fill\", \"color\"}} or {\"range\": \"A1:B2\", \"clear\": true}"
        guard let text = object["range"] as? String else { return .error(400, .badRequest, usage) }
        let range = try EditRoutes.range(text)
        if object["clear"] != nil {
            guard object["clear"] as? Bool == true, object["set"] == nil else { return .error(400, .badRequest, usage) }
            let outcome = try SheetWrite.run(id, subject: request.subject!, change: .format, context) { edit in
                for stored in try EditRoutes.storedCells(edit, range, context) where !stored.style.isEmpty {
                    edit.set(CellReference(row: stored.row, column: stored.column), CellUpdate(style: .clear))
                }
            }
            return EditRoutes.reply(outcome)
        }
        guard let set = object["set"] as? [String: Any], !set.isEmpty else { return .error(400, .badRequest, usage) }
        let members = try styleMembers(set, log: context.log)
        try EditRoutes.checkBatch(range.cellCount, context)
        let outcome = try SheetWrite.run(id, subject: request.subject!, change: .format, context) { edit in
            for row in range.rows {
                for column in range.columns { edit.set(CellReference(row: row, column: column), CellUpdate(style: .merge(members))) }
            }
        }
        return EditRoutes.reply(outcome)
    }

    /// The stored style members (`StoredCell.style`, as `JSONLWriter.styleMember` names them) of
    /// a format's `set`; 400 naming the first member that is unknown or not of its kind (one
    /// holding a control character logged in `log`).
    static func styleMembers(_ set: [String: Any], log: ServerLog) throws -> [String: Any?] {
        // `updateValue` keeps a nil member (a removal), which `members[key] = nil` would drop.
        var members: [String: Any?] = [:]
        for (key, value) in set {
            let isNull = value is NSNull
            func refuse(_ expected: String) -> RequestRefusal {
                RequestRefusal(status: 400, code: .badFormat, message: "\(key.prefix(40).visibleControlCharacters) must be \(expected)")
            }
            switch key {
            case "bold", "italic":
                guard isNull || isBoolean(value) else { throw refuse("true, false or null") }
                members.updateValue((value as? Bool) == true ? true : nil, forKey: key)
            case "align":
                guard isNull || (value as? String).map(alignments.contains) == true else { throw refuse("left, center, right or null") }
                members.updateValue(isNull ? nil : value as? String, forKey: "horizontal")
            case "numberFormat":
                // Excel's grammar, at most 255 characters (Docs/Reference/HTTP.md, "Writing"): a code Excel
                // would not take is never stored, so no reader ever renders it.
                guard isNull || value is String else { throw refuse("a number format code, or null") }
                if let code = value as? String {
                    try BoundaryText.check(code, "numberFormat", log: log)
                    do {
                        try NumberFormat.validate(code)
                    } catch {
                        throw RequestRefusal(status: 400, code: .badNumberFormat,
                                             message: "\"\(code.prefix(40).visibleControlCharacters)\" is not a number format Excel takes: \(error.reason)")
                    }
                }
                members.updateValue(isNull || value as? String == "General" ? nil : value as? String, forKey: "numFmt")
            case "fill", "color":
                guard isNull || (value as? String).flatMap(rgb) != nil else { throw refuse("a colour #RRGGBB, or null") }
                members.updateValue(isNull ? nil : (value as? String).flatMap(rgb), forKey: key)
            default:
                throw RequestRefusal(status: 400, code: .badFormat,
                                     message: "\(key.prefix(40).visibleControlCharacters) is not a format; set bold, italic, align, numberFormat, fill or color")
            }
        }
        return members
    }

    /// Whether a parsed JSON value is `true` or `false`: Foundation reads 1 and 0 as numbers that
    /// also cast to Bool, so the boolean's own class is what tells them apart.
    static func isBoolean(_ value: Any) -> Bool {
        type(of: value) == Bool.self || String(describing: type(of: value)).contains("Boolean")
    }

    /// `#RRGGBB` in upper case, or nil.
    private static func rgb(_ text: String) -> String? {
        let digits = text.utf8.dropFirst()
        guard text.utf8.first == UInt8(ascii: "#"), digits.count == 6, digits.allSatisfy({ $0 < 0x80 && Character(UnicodeScalar($0)).isHexDigit }) else { return nil }
        return text.uppercased()
    }

    /// `{"rows":{"3":24.5},"columns":{"B":18.0}}`: row heights in points (0 to 409) and column
    /// widths in characters (0 to 255), as xlsx keeps them; null returns one to the default.
    static func sizes(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .editor)
        let object = try EditRoutes.body(request)
        let usage = "send {\"rows\": {\"3\": 24.5}, \"columns\": {\"B\": 18.0}}"
        let rowSizes = object["rows"] ?? [String: Any](), columnSizes = object["columns"] ?? [String: Any]()
        guard let rows = rowSizes as? [String: Any], let columns = columnSizes as? [String: Any], !(rows.isEmpty && columns.isEmpty),
              Set(object.keys).isSubset(of: ["rows", "columns"]) else {
            return .error(400, .badRequest, usage)
        }
        var heights: [Int: Double?] = [:]
        for (key, value) in rows {
            guard key.utf8.count <= 7, key.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let row = Int(key), (1...CellReference.maxRow).contains(row) else {
                throw RequestRefusal(status: 400, code: .badRef, message: "\"\(key.prefix(40).visibleControlCharacters)\" is not a row of the grid (1 to \(CellReference.maxRow))")
            }
            heights[row] = try size(value, max: maxRowHeight, what: "the height of row \(row)")
        }
        var widths: [Int: Double?] = [:]
        for (key, value) in columns {
            guard key.utf8.count <= 3, key.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }),
                  let column = CellReference(key + "1")?.column else {
                throw RequestRefusal(status: 400, code: .badRef, message: "\"\(key.prefix(40).visibleControlCharacters)\" is not a column of the grid (A to XFD)")
            }
            widths[column] = try size(value, max: maxColumnWidth, what: "the width of column \(key.uppercased())")
        }
        let outcome = try SheetWrite.run(id, subject: request.subject!, change: .sizes, context) { edit in
            SheetSizes.setHeights(heights, edit)
            SheetSizes.setWidths(widths, edit)
        }
        return EditRoutes.reply(outcome)
    }

    /// A size: a number from 0 to `max`, or nil for null (the default).
    private static func size(_ value: Any, max: Double, what: String) throws -> Double? {
        if value is NSNull { return nil }
        guard !isBoolean(value), let number = (value as? NSNumber)?.doubleValue, number.isFinite, (0...max).contains(number) else {
            throw RequestRefusal(status: 400, code: .badSize, message: "\(what) must be a number from 0 to \(ValueText.number(max)), or null")
        }
        return number
    }
}
