import Foundation
import SheetPortCore

/// `GET/POST /api/sheets/{id}/links`, `DELETE /api/sheets/{id}/links/{lid}`: the owner's share
/// links (Docs/Reference/HTTP.md, "Share links"). A link's token is a bearer token of subject `link:<id>` holding
/// the link's role on this sheet alone; deleting the link revokes it as a token revocation does.
enum LinksRoute {
    /// The roles a link may carry.
    static let roles: [Role] = [.viewer, .commenter]

    static func list(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .owner)
        let links = try context.database { try $0.links(of: id) }
        return .json(.object([("links", .array(links.map(json)))]))
    }

    /// `{"role":"viewer|commenter"}` -> 201 `{"link":{"id","token","role","url"}}`: the only time the token exists in full
    /// (`url` is the page's address for it, `<base>/l/<token>`).
    static func create(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .owner)
        guard let role = (JSON.parseObject(request.body)?["role"] as? String).flatMap(Role.init(rawValue:)), roles.contains(role) else {
            return .error(400, .badRequest, "send {\"role\": \"viewer|commenter\"}")
        }
        let link = LinkRecord(id: Sodium.identifier(), sheet: id, role: role)
        let (token, tokenHash) = Tokens.make()
        let version = try context.database { database in
            try database.transaction {
                try database.lockSheet(id)
                try database.insertLink(link, tokenHash: tokenHash, createdBy: request.subject!, at: Int64(Date().timeIntervalSince1970))
                let version = try database.advance(sheet: id, for: .grant)
                try context.sheetChanges.publish(sheet: id, version: version, database)
                return version
            }
        }
        context.changes.signal(SheetChange(sheet: id, version: version))
        return .json(.object([("link", .object([("id", .string(link.id)), ("token", .string(token)), ("role", .string(role.rawValue)),
                                                 ("subject", .string(link.subject)),
                                                 ("url", .string(context.web.linkURL(token: token)))]))]), status: 201)
    }

    /// Deletes link `lid` of the sheet: its token answers 401 from the next request on, and its
    /// event streams and exports end at their next recheck.
    static func delete(_ id: String, _ lid: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .owner)
        let version: Int? = try context.database { database in
            try database.transaction {
                try database.lockSheet(id)
                guard let link = try database.link(lid, of: id) else { return nil }
                try database.deleteLink(link)
                let version = try database.advance(sheet: id, for: .grant)
                try context.sheetChanges.publish(sheet: id, version: version, database)
                return version
            }
        }
        guard let version else { return .error(404, .notFound, "no link \(lid) on this sheet") }
        context.changes.signal(SheetChange(sheet: id, version: version))
        return Reply(status: 204)
    }

    private static func json(_ link: LinkRecord) -> JSON {
        .object([("id", .string(link.id)), ("role", .string(link.role.rawValue)), ("subject", .string(link.subject))])
    }

    /// 403 for a share link's session outside its sheet: it may list the sheets it opens and use
    /// the routes of a sheet (the grant decides which), and nothing else (no imports, no new sheets).
    static func fence(_ request: Request) -> Reply? {
        guard let subject = request.subject, subject.hasPrefix(LinkRecord.subjectPrefix) else { return nil }
        let path = request.segments
        let allowed = path.count >= 3 && path[1] == "sheets" || (path == ["api", "sheets"] && request.method == "GET")
            || path == ["api", "me", "preferences"]
        return allowed ? nil : .error(403, .forbidden, "a share link opens its sheet only")
    }
}
