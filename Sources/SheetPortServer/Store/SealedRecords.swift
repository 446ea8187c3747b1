import Foundation
import SheetPortCore
import SheetPortReader
import SheetPortWriter
import SheetPortConvert

/// A sheet's layout (column widths, default row height), stored sealed on the sheet.
package struct SheetLayout: Sendable, Equatable {
    /// Column ranges with their widths.
    package var columns: [ColumnInfo] = []
    /// The sheet's default row height in points, when it sets one.
    package var defaultRowHeight: Double?

    /// The sealed form, bound to the sheet.
    func sealed(sheet: String, _ sealer: Sealer) -> [UInt8] {
        let object: [String: Any] = [
            "columns": columns.map { ["first": $0.first, "last": $0.last, "width": $0.width ?? -1, "hidden": $0.isHidden] },
            "defaultRowHeight": defaultRowHeight ?? -1,
        ]
        let bytes = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return sealer.seal(Array(bytes), context: Sealer.context("layout", sheet))
    }

    /// The layout of a sheet (empty when it has none).
    static func load(sheet: String, _ context: ServerContext) throws -> SheetLayout {
        guard let sealed = try context.database({ try $0.sheetLayout(sheet) }), !sealed.isEmpty else { return SheetLayout() }
        let bytes = try context.sealer.open(sealed, context: Sealer.context("layout", sheet), what: "sheet layout")
        guard let object = JSON.parseObject(bytes) else { return SheetLayout() }
        var layout = SheetLayout()
        let height = (object["defaultRowHeight"] as? NSNumber)?.doubleValue ?? -1
        layout.defaultRowHeight = height >= 0 ? height : nil
        for column in object["columns"] as? [[String: Any]] ?? [] {
            let width = (column["width"] as? NSNumber)?.doubleValue ?? -1
            layout.columns.append(ColumnInfo(first: (column["first"] as? NSNumber)?.intValue ?? 1, last: (column["last"] as? NSNumber)?.intValue ?? 1,
                                             width: width >= 0 ? width : nil, isHidden: column["hidden"] as? Bool ?? false))
        }
        return layout
    }
}

/// A cell comment, stored sealed one per record.
package struct CommentRecord: Sendable, Equatable {
    /// The cell, `B2`.
    package var reference: String
    /// Who wrote it (the workbook's author, or the subject who added it).
    package var author: String
    /// The comment.
    package var text: String

    func sealed(sheet: String, seq: Int, _ sealer: Sealer) -> [UInt8] {
        let object = ["ref": reference, "author": author, "text": text]
        let bytes = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return sealer.seal(Array(bytes), context: Sealer.context("comment", sheet, seq))
    }

    static func open(_ sealed: [UInt8], sheet: String, seq: Int, _ sealer: Sealer) throws -> CommentRecord {
        let bytes = try sealer.open(sealed, context: Sealer.context("comment", sheet, seq), what: "comment")
        let object = JSON.parseObject(bytes) ?? [:]
        return CommentRecord(reference: object["ref"] as? String ?? "", author: object["author"] as? String ?? "",
                             text: object["text"] as? String ?? "")
    }

    /// All comments of a sheet, in order.
    static func all(sheet: String, _ context: ServerContext) throws -> [CommentRecord] {
        try context.database { try $0.comments(of: sheet) }.map { try open($0.data, sheet: sheet, seq: $0.seq, context.sealer) }
    }

    var json: JSON { .object([("ref", .string(reference)), ("author", .string(author)), ("text", .string(text))]) }
}
