import Foundation
import SheetPortCore
/// `GET/POST /api/sheets/{id}/comments`, `POST /api/sheets/{id}/comments/{cid}/resolve`:
/// comment threads (Docs/Reference/HTTP.md, "Comments"). Reading needs viewer, adding or replying needs
/// commenter; resolving needs the owner, an editor or the thread's author. The author of an
/// added comment is the session's subject (`link:<id>` for a link's holder).
enum CommentsRoute {
    static func list(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .viewer)
        return .json(.object([("comments", .array(CommentRecord.threaded(try CommentRecord.all(sheet: id, context)).map(\.json)))]))
    }

    /// `{"ref","text","replyTo"?}`: a new thread, or a reply naming its thread's first comment
    /// (its `ref`, when given, must be the thread's cell).
    static func add(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        try Router.sheet(id, request, context, needs: .commenter)
        let usage = "send {\"ref\": \"B2\", \"text\": \"...\", \"replyTo\": ID (optional)}"
        guard let body = JSON.parseObject(request.body), let text = body["text"] as? String, !text.isEmpty else {
            return .error(400, .badRequest, usage)
        }
        guard text.utf16.count <= ServerConfiguration.maxCellTextLength else {
            return .error(400, .badRequest, "a comment holds at most \(ServerConfiguration.maxCellTextLength) characters")
        }
        try BoundaryText.check(text, "text", log: context.log)
        let reference = body["ref"] as? String
        if body["ref"] != nil, reference.flatMap(CellReference.init) == nil {
            return .error(400, .badRef, "ref must be a cell inside the grid, as B2")
        }
        var replyTo: Int?
        if let value = body["replyTo"], !(value is NSNull) {
            guard let thread = commentID(value) else { return .error(400, .badRequest, "replyTo is the id of a thread's first comment") }
            replyTo = thread
        } else if reference == nil {
            return .error(400, .badRequest, usage)
        }
        let (comment, version): (CommentRecord, Int) = try context.database { database in
            try database.transaction {
                try database.lockSheet(id)
                var comment = CommentRecord(reference: reference.flatMap(CellReference.init)?.description ?? "", author: request.subject!, text: text)
                if let replyTo {
                    let first = try thread(replyTo, of: id, database, context)
                    guard first.replyTo == nil else {
                        throw RequestRefusal(status: 400, code: .badRequest, message: "a reply names its thread's first comment (\(first.replyTo!)), not another reply")
                    }
                    guard reference == nil || comment.reference == first.reference else {
                        throw RequestRefusal(status: 400, code: .badRequest, message: "a reply is on its thread's cell, \(first.reference)")
                    }
                    comment.reference = first.reference
                    comment.replyTo = replyTo
                }
                comment.id = try database.nextCommentSequence(of: id)
                try database.insertComment(sheet: id, seq: comment.id, data: comment.sealed(sheet: id, seq: comment.id, context.sealer))
                return (comment, try publish(id, database, context))
            }
        }
        context.changes.signal(SheetChange(sheet: id, version: version))
        return .json(comment.json, status: 201)
    }

    /// Resolves (or, with `{"resolved":false}`, reopens) the thread of comment `cid`.
    static func resolve(_ id: String, _ cid: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        let sheet = try Router.sheet(id, request, context, needs: .viewer)
        guard let seq = commentID(cid) else { return .error(404, .notFound, "no comment \(cid) on this sheet") }
        let body = request.body.isEmpty ? [:] : JSON.parseObject(request.body)
        guard let body, body["resolved"] == nil || body["resolved"] is Bool else {
            return .error(400, .badRequest, "send nothing, or {\"resolved\": true|false}")
        }
        let resolved = body["resolved"] as? Bool ?? true
        let (first, version): (CommentRecord, Int) = try context.database { database in
            try database.transaction {
                try database.lockSheet(id)
                var first = try thread(seq, of: id, database, context)
                if let parent = first.replyTo { first = try thread(parent, of: id, database, context) }
                guard sheet.role >= .editor || (sheet.role >= .commenter && first.author == request.subject) else {
                    throw RequestRefusal(status: 403, code: .forbidden, message: "a thread is resolved by the owner, an editor or its author")
                }
                first.isResolved = resolved
                first.resolvedBy = resolved ? request.subject : nil
                try database.updateComment(sheet: id, seq: first.id, data: first.sealed(sheet: id, seq: first.id, context.sealer))
                return (first, try publish(id, database, context))
            }
        }
        context.changes.signal(SheetChange(sheet: id, version: version))
        return .json(first.json)
    }

    /// A comment id: a whole number from 1, as a JSON number or text.
    private static func commentID(_ value: Any) -> Int? {
        if let number = value as? NSNumber {
            let double = number.doubleValue
            return double >= 1 && double <= 1e15 && double == double.rounded() ? Int(double) : nil
        }
        guard let text = value as? String, !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text).flatMap { $0 >= 1 ? $0 : nil }
    }

    /// Comment `seq` of the sheet, or a 404 refusal.
    private static func thread(_ seq: Int, of id: String, _ database: Database, _ context: ServerContext) throws -> CommentRecord {
        guard let data = try database.comment(of: id, seq: seq) else {
            throw RequestRefusal(status: 404, code: .notFound, message: "no comment \(seq) on this sheet")
        }
        return try CommentRecord.open(data, sheet: id, seq: seq, context.sealer)
    }

    /// The comment's new version, its event and the notice to other instances, in its
    /// transaction; returns the version (signalled to this instance's streams once committed).
    private static func publish(_ id: String, _ database: Database, _ context: ServerContext) throws -> Int {
        let version = try database.advance(sheet: id, for: .comment)
        try context.sheetChanges.publish(sheet: id, version: version, database)
        return version
    }
}
