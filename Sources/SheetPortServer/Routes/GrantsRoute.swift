import SheetPortCore
/// `GET/POST /api/sheets/{id}/grants`, `DELETE /api/sheets/{id}/grants/{subject}`: the owner
/// shares a sheet as viewer, commenter or editor, and takes it back.
enum GrantsRoute {
    static func list(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .owner)
        let grants = try context.database { try $0.grants(on: id) }
        return .json(.object([("grants", .array(grants.map { .object([("subject", .string($0.subject)), ("role", .string($0.role))]) }))]))
    }

    static func grant(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        let sheet = try Router.sheet(id, request, context, needs: .owner)
        let body = JSON.parseObject(request.body)
        guard let subject = body?["subject"] as? String,
              let role = (body?["role"] as? String).flatMap(Role.init(rawValue:)), Role.grantable.contains(role) else {
            return .error(400, .badRequest, "send {\"subject\": \"...\", \"role\": \"viewer|commenter|editor\"}")
        }
        try BoundaryText.check(subject, "subject", log: context.log)
        if let violation = Subject.violation(of: subject) ?? Tokens.reservedViolation(of: subject) { return .error(400, .badRequest, violation) }
        guard subject != sheet.owner else { return .error(400, .badRequest, "the owner's role cannot change") }
        let version = try context.database { database in
            try database.transaction {
                try database.grant(role, on: id, to: subject)
                let version = try database.advance(sheet: id, for: .grant)
                try context.sheetChanges.publish(sheet: id, version: version, database)
                return version
            }
        }
        context.changes.signal(SheetChange(sheet: id, version: version))
        return .json(.object([("subject", .string(subject)), ("role", .string(role.rawValue))]), status: 201)
    }

    static func revoke(_ id: String, _ subject: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .owner)
        let version: Int? = try context.database { database in
            try database.transaction {
                guard try database.revokeGrant(on: id, from: subject) else { return nil }
                let version = try database.advance(sheet: id, for: .grant)
                try context.sheetChanges.publish(sheet: id, version: version, database)
                return version
            }
        }
        if let version { context.changes.signal(SheetChange(sheet: id, version: version)) }
        return version != nil ? Reply(status: 204) : .error(404, .notFound, "\(subject) has no grant on this sheet")
    }
}
