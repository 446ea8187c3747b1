import SheetPortCore
/// `GET /api/sheets/{id}/events` and `GET /api/imports/{id}/events`: `text/event-stream`
/// answers (Docs/Reference/HTTP.md, "Event streams"), resumed after a `Last-Event-ID`. The access check here is
/// the one every other route makes; each delivery then makes it again (`EventStream`).
enum EventsRoute {
    /// A sheet's `version` events after `Last-Event-ID`, or without one after the version it
    /// is at now; 404 when the subject may not read it.
    static func sheet(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        let sheet = try Router.sheet(id, request, context, needs: .viewer)
        return try open(.sheet(id), request, context, from: sheet.version)
    }

    /// A job's `progress` events and its `done`; 404 for a job of another subject, exactly as
    /// for one that does not exist.
    static func job(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        guard try context.database({ try $0.job(id, for: request.subject!) }) != nil else { return .notFound }
        return try open(.job(id), request, context)
    }

    private static func open(_ source: EventStream.Source, _ request: Request, _ context: ServerContext, from current: Int? = nil) throws -> Reply {
        guard let credential = request.credential, let subject = request.subject else { throw RequestRefusal.notFound }
        let lastID = try lastEventID(request.header("Last-Event-ID")) ?? current
        // A link's streams are its maker's: an owner's links share the owner's stream share.
        let quotaSubject = try context.database { try $0.linkCreator(of: subject) } ?? subject
        let stream = EventStream(source, subject: subject, quotaSubject: quotaSubject, credential: credential, after: lastID, context)
        if let refusal = context.events.admit(stream) { return refusal }
        return Reply(status: 200, headers: [("Content-Type", "text/event-stream"), ("X-Accel-Buffering", "no")], body: .live(stream))
    }

    /// The id a client resumes after: a whole number from 0 (an id this server sent), else 400.
    static func lastEventID(_ value: String?) throws -> Int? {
        guard let value else { return nil }
        guard !value.isEmpty, value.utf8.count <= 18, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let id = Int(value) else {
            throw RequestRefusal(status: 400, code: .badRequest, message: "Last-Event-ID must be an id this server sent: a whole number from 0")
        }
        return id
    }
}
