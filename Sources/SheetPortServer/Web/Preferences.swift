import SheetPortCore

/// A person's page preferences (`GET/PUT /api/me/preferences`): kept sealed at rest for the
/// subject; a share link's browser session keeps its own in the session, so the people who
/// follow one link do not share them.
struct Preferences: Equatable, Sendable {
    /// The page's colours.
    enum Theme: String, Sendable, CaseIterable {
        case light, dark, system
    }

    var theme = Theme.system

    var json: JSON { .object([("theme", .string(theme.rawValue))]) }

    /// Reads `{"theme":"light|dark|system"}`; nil for anything else (another member, another value).
    init?(json bytes: [UInt8]) {
        guard let object = JSON.parseObject(bytes), Set(object.keys).isSubset(of: ["theme"]) else { return nil }
        if let value = object["theme"] {
            guard let text = value as? String, let theme = Theme(rawValue: text) else { return nil }
            self.theme = theme
        }
    }

    init() {}

    /// The preferences of a request's subject, or of its browser session when that is a share link's.
    static func load(subject: String, sessionHash: [UInt8]?, _ context: ServerContext) throws -> Preferences {
        let sealed: [UInt8]?
        let sealContext: [UInt8]
        if let sessionHash, subject.hasPrefix(LinkRecord.subjectPrefix) {
            sealed = try context.database { try $0.webSessionPreferences(idHash: sessionHash) }
            sealContext = Self.sealContext(sessionHash: sessionHash)
        } else {
            sealed = try context.database { try $0.preferences(of: subject) }
            sealContext = Self.sealContext(subject: subject)
        }
        guard let sealed else { return Preferences() }
        let plain = try context.sealer.open(sealed, context: sealContext, what: "preferences")
        return Preferences(json: plain) ?? Preferences()
    }

    /// Stores these preferences for the subject, or in the share link's browser session.
    func save(subject: String, sessionHash: [UInt8]?, _ context: ServerContext) throws {
        let plain = Array(json.text.utf8)
        if let sessionHash, subject.hasPrefix(LinkRecord.subjectPrefix) {
            let sealed = context.sealer.seal(plain, context: Self.sealContext(sessionHash: sessionHash))
            try context.database { try $0.setWebSessionPreferences(sealed, idHash: sessionHash) }
        } else {
            let sealed = context.sealer.seal(plain, context: Self.sealContext(subject: subject))
            try context.database { try $0.setPreferences(sealed, of: subject) }
        }
    }

    private static func sealContext(subject: String) -> [UInt8] { Sealer.context("preferences", subject) }
    private static func sealContext(sessionHash: [UInt8]) -> [UInt8] { Sealer.context("session-preferences", Sodium.hex(sessionHash)) }
}
