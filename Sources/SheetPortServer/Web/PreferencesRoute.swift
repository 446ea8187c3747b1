import SheetPortCore

/// `GET/PUT /api/me/preferences` `{"theme":"light|dark|system"}`: the subject's page
/// preferences (a share link's browser session: that session's own), sealed at rest.
enum PreferencesRoute {
    static func get(_ request: Request, _ context: ServerContext) throws -> Reply {
        .json(try Preferences.load(subject: request.subject!, sessionHash: sessionHash(request), context).json)
    }

    static func put(_ request: Request, _ context: ServerContext) throws -> Reply {
        guard let preferences = Preferences(json: request.body) else {
            return .error(400, .badRequest, "send {\"theme\": \"light|dark|system\"}")
        }
        let subject = request.subject!
        let sessionHash = sessionHash(request)
        if subject.hasPrefix(LinkRecord.subjectPrefix) && sessionHash == nil {
            return .error(403, .forbidden, "a share link keeps its preferences in a browser session (open its /l/ address)")
        }
        try preferences.save(subject: subject, sessionHash: sessionHash, context)
        return .json(preferences.json)
    }

    private static func sessionHash(_ request: Request) -> [UInt8]? {
        if case .browser(let idHash) = request.credential { return idHash }
        return nil
    }
}
