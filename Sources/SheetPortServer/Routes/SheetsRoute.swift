import SheetPortCore
import SheetPortReader
/// `GET /api/sheets`, `GET/PATCH/DELETE /api/sheets/{id}`: the list, metadata, renaming
/// (editor and up, a new version) and deleting (owner).
enum SheetsRoute {
    static func json(_ sheet: SheetRecord) -> JSON {
        .object([("id", .string(sheet.id)), ("name", .string(sheet.name)), ("version", .int(sheet.version)),
                 ("role", .string(sheet.role.rawValue)), ("rows", .int(sheet.rows)), ("columns", .int(sheet.columns))])
    }

    static func list(_ request: Request, _ context: ServerContext) throws -> Reply {
        let sheets = try context.database { try $0.sheets(for: request.subject!) }
        return .json(.object([("sheets", .array(sheets.map(json)))]))
    }

    static func get(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        let sheet = try Router.sheet(id, request, context, needs: .viewer)
        let layout = try SheetLayout.load(sheet: id, context)
        var members: [(String, JSON)]
        if case .object(let base) = json(sheet) { members = base } else { members = [] }
        members.append(("owner", .string(sheet.owner)))
        members.append(("columnWidths", .array(layout.columns.map {
            .object([("first", .int($0.first)), ("last", .int($0.last)), ("width", $0.width.map(JSON.number) ?? .null)])
        })))
        members.append(("defaultRowHeight", layout.defaultRowHeight.map(JSON.number) ?? .null))
        members.append(("names", .array(layout.names.filter(\.isListed).map { name in
            .object([("name", .string(name.name)), name.ref.map { ("ref", .string($0)) } ?? ("formula", .string("=" + name.formula)),
                     ("scope", .string(name.isLocal ? "sheet" : "workbook"))])
        })))
        members.append(("tables", .array(layout.tables.map {
            .object([("name", .string($0.name)), ("ref", .string($0.range.description)),
                     ("columns", .array($0.columns.map { .string($0.name) })), ("totalsRow", .bool($0.hasTotalsRow))])
        })))
        return .json(.object(members))
    }

    static func rename(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        var sheet = try Router.sheet(id, request, context, needs: .editor)
        guard let name = JSON.parseObject(request.body)?["name"] as? String else {
            return .error(400, .badRequest, "send {\"name\": \"...\"}")
        }
        try BoundaryText.check(name, "name", log: context.log)
        // Only names the writer accepts, so the sheet can always be exported.
        if let violation = SheetName.violation(of: name) { return .error(400, .invalidSheetName, violation.description) }
        sheet.version = try context.database { database in
            try database.transaction {
                let version = try database.rename(sheet: id, to: name)
                try context.sheetChanges.publish(sheet: id, version: version, database)
                return version
            }
        }
        sheet.name = name
        context.changes.signal(SheetChange(sheet: id, version: sheet.version))
        return .json(json(sheet))
    }

    static func delete(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .owner)
        try context.database { try $0.deleteSheet(id) }
        context.relief.noteFreed()
        return Reply(status: 204)
    }
}
