import SheetPortCore
import SheetPortReader
import SheetPortWriter
import SheetPortConvert
/// `GET/POST /api/sheets/{id}/comments`: comment threads; reading needs viewer, adding needs
/// commenter. The author of an added comment is the session's subject.
enum CommentsRoute {
    static func list(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .viewer)
        return .json(.object([("comments", .array(try CommentRecord.all(sheet: id, context).map(\.json)))]))
    }

    static func add(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .commenter)
        let body = JSON.parseObject(request.body)
        guard let reference = body?["ref"] as? String, CellReference(reference) != nil,
              let text = body?["text"] as? String, !text.isEmpty, text.utf16.count <= ServerConfiguration.maxCellTextLength else {
            return .error(400, "bad-request", "send {\"ref\": \"B2\", \"text\": \"...\"}")
        }
        try BoundaryText.check(text, "text")
        let comment = CommentRecord(reference: reference, author: request.subject!, text: text)
        let version = try context.database { database in
            try database.transaction {
                try database.lockSheet(id)
                let seq = try database.nextCommentSequence(of: id)
                try database.insertComment(sheet: id, seq: seq, data: comment.sealed(sheet: id, seq: seq, context.sealer))
                let version = try database.advance(sheet: id, for: .comment)
                try context.sheetChanges.publish(sheet: id, version: version, database)
                return version
            }
        }
        context.changes.signal(SheetChange(sheet: id, version: version))
        return .json(comment.json, status: 201)
    }
}
