import Foundation
import SheetPortCore
import SheetPortReader

/// A sheet's layout (column widths, default row height, the defined names and tables the
/// import kept), stored sealed on the sheet.
package struct SheetLayout: Sendable, Equatable {
    /// Column ranges with their widths.
    package var columns: [ColumnInfo] = []
    /// The sheet's default row height in points, when it sets one.
    package var defaultRowHeight: Double?
    /// The imported workbook's defined names the sheet keeps (`ImportNames`).
    package var names: [SheetDefinedName] = []
    /// The imported sheet's tables.
    package var tables: [WorksheetTable] = []
    /// The imported sheet's name in its workbook, which the names' and formulas' references to
    /// it use (nil for a sheet made on the server).
    package var sheetName: String?

    /// The sealed form, bound to the sheet.
    func sealed(sheet: String, _ sealer: Sealer) -> [UInt8] {
        let object: [String: Any] = [
            "columns": columns.map { ["first": $0.first, "last": $0.last, "width": $0.width ?? -1, "hidden": $0.isHidden] },
            "defaultRowHeight": defaultRowHeight ?? -1,
            "names": names.map(Self.object),
            "tables": tables.map(Self.object),
            "sheetName": sheetName ?? NSNull(),
        ]
        let bytes = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return sealer.seal(Array(bytes), context: Sealer.context("layout", sheet))
    }

    /// The layout of a sheet (empty when it has none).
    static func load(sheet: String, _ context: ServerContext) throws -> SheetLayout {
        try context.database { try load(sheet: sheet, $0, context.sealer) }
    }

    /// The layout of a sheet read through `database` (a write's transaction).
    static func load(sheet: String, _ database: Database, _ sealer: Sealer) throws -> SheetLayout {
        guard let sealed = try database.sheetLayout(sheet), !sealed.isEmpty else { return SheetLayout() }
        let bytes = try sealer.open(sealed, context: Sealer.context("layout", sheet), what: "sheet layout")
        guard let object = JSON.parseObject(bytes) else { return SheetLayout() }
        var layout = SheetLayout()
        let height = (object["defaultRowHeight"] as? NSNumber)?.doubleValue ?? -1
        layout.defaultRowHeight = height >= 0 ? height : nil
        for column in object["columns"] as? [[String: Any]] ?? [] {
            let width = (column["width"] as? NSNumber)?.doubleValue ?? -1
            layout.columns.append(ColumnInfo(first: (column["first"] as? NSNumber)?.intValue ?? 1, last: (column["last"] as? NSNumber)?.intValue ?? 1,
                                             width: width >= 0 ? width : nil, isHidden: column["hidden"] as? Bool ?? false))
        }
        layout.names = (object["names"] as? [[String: Any]] ?? []).compactMap(Self.name)
        layout.tables = (object["tables"] as? [[String: Any]] ?? []).compactMap(Self.table)
        layout.sheetName = object["sheetName"] as? String
        return layout
    }
}

/// A cell comment, stored sealed one per record. Comments form threads: a reply names its
/// thread's first comment (`replyTo`), and the first comment carries the thread's resolution.
package struct CommentRecord: Sendable, Equatable {
    /// The cell, `B2`.
    package var reference: String
    /// Who wrote it (the workbook's author, or the subject who added it).
    package var author: String
    /// The comment.
    package var text: String
    /// Its id: its sequence number in the sheet (0 until stored).
    package var id = 0
    /// The id of its thread's first comment, for a reply.
    package var replyTo: Int?
    /// Whether its thread is resolved (kept on a thread's first comment).
    package var isResolved = false
    /// Who resolved it.
    package var resolvedBy: String?

    func sealed(sheet: String, seq: Int, _ sealer: Sealer) -> [UInt8] {
        var object: [String: Any] = ["ref": reference, "author": author, "text": text]
        if let replyTo { object["replyTo"] = replyTo }
        if isResolved { object["resolved"] = true }
        if let resolvedBy { object["resolvedBy"] = resolvedBy }
        let bytes = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return sealer.seal(Array(bytes), context: Sealer.context("comment", sheet, seq))
    }

    static func open(_ sealed: [UInt8], sheet: String, seq: Int, _ sealer: Sealer) throws -> CommentRecord {
        let bytes = try sealer.open(sealed, context: Sealer.context("comment", sheet, seq), what: "comment")
        let object = JSON.parseObject(bytes) ?? [:]
        return CommentRecord(reference: object["ref"] as? String ?? "", author: object["author"] as? String ?? "",
                             text: object["text"] as? String ?? "", id: seq, replyTo: (object["replyTo"] as? NSNumber)?.intValue,
                             isResolved: object["resolved"] as? Bool ?? false, resolvedBy: object["resolvedBy"] as? String)
    }

    /// All comments of a sheet, in order.
    static func all(sheet: String, _ context: ServerContext) throws -> [CommentRecord] {
        try context.database { try $0.comments(of: sheet) }.map { try open($0.data, sheet: sheet, seq: $0.seq, context.sealer) }
    }

    /// The comments with each reply's `resolved` and `resolvedBy` its thread's (resolving marks
    /// the thread's first comment; a reply stored before carries its own stale state).
    static func threaded(_ comments: [CommentRecord]) -> [CommentRecord] {
        var first: [Int: CommentRecord] = [:]
        for comment in comments where comment.replyTo == nil { first[comment.id] = comment }
        return comments.map { comment in
            guard let thread = comment.replyTo.flatMap({ first[$0] }) else { return comment }
            var reply = comment
            reply.isResolved = thread.isResolved
            reply.resolvedBy = thread.resolvedBy
            return reply
        }
    }

    /// `{"id","ref","author","text","replyTo"?,"resolved","resolvedBy"?}`; a reply's
    /// `resolved` is its thread's, which `threaded` fills in.
    var json: JSON {
        var members: [(String, JSON)] = [("id", .int(id)), ("ref", .string(reference)), ("author", .string(author)), ("text", .string(text))]
        if let replyTo { members.append(("replyTo", .int(replyTo))) }
        members.append(("resolved", .bool(isResolved)))
        if let resolvedBy { members.append(("resolvedBy", .string(resolvedBy))) }
        return .object(members)
    }
}
