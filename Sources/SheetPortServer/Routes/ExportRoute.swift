import Foundation
import SheetPortCore

/// `GET /api/sheets/{id}/export.xlsx[?minVersion=N]`: the sheet written by the project's
/// `WorkbookWriter` and sent as it is written (`LiveExport`, chunked): the answer leaves once
/// the first rows are deflated, and nothing is put on disk. `minVersion` waits briefly for
/// the sheet to reach that version, its connection parked rather than a thread held, else 409
/// `version-not-reached`.
///
/// The same version and comments give the same bytes (the writer's output is deterministic),
/// so the answer carries `ETag: "SHEET.VERSION.COMMENTS"` and `Range: bytes=N-` answers 206
/// from byte N while `If-Range` (when sent) is that tag (adding a comment keeps the version,
/// so the tag counts the comments written). A 206 states the whole length, so a resumed
/// export is built first (`ResumedExport`), then sent from byte N. Exports at once are capped
/// (`ExportSlots`).
enum ExportRoute {
    /// How long `minVersion` waits.
    static let versionWait: Double = 2

    static func get(_ id: String, _ request: Request, _ context: ServerContext) throws -> Reply {
        let sheet = try Router.sheet(id, request, context, needs: .viewer)
        guard let text = request.query["minVersion"] else { return try export(sheet, request, context) }
        guard let wanted = Int(text) else { return .error(400, .badRequest, "minVersion is an integer") }
        guard sheet.version >= wanted else {
            return .later(VersionWait(sheet: id, wanted: wanted, request: request, context: context))
        }
        return try export(sheet, request, context)
    }

    /// The answer of a parked `minVersion` wait: access and version looked up again.
    fileprivate static func afterWait(_ id: String, wanted: Int, _ request: Request, _ context: ServerContext) throws -> Reply {
        let sheet = try Router.sheet(id, request, context, needs: .viewer)
        guard sheet.version >= wanted else {
            return .error(409, .versionNotReached, "the sheet is at version \(sheet.version), not yet \(wanted)")
        }
        return try export(sheet, request, context)
    }

    /// Seconds a client is asked to wait when every export slot is taken.
    static let retryAfter = 1

    /// Sends the sheet's workbook as it is written, or from the requested byte once built.
    private static func export(_ sheet: SheetRecord, _ request: Request, _ context: ServerContext) throws -> Reply {
        try SheetSettle.ensure(sheet.id, context)
        let slot: ExportSlots.Slot
        guard let credential = request.credential, let subject = request.subject else { throw RequestRefusal.notFound }
        switch context.exports.take(for: ExportSlots.Access(credential: credential, subject: subject, sheet: sheet.id)) {
        case .success(let taken): slot = taken
        case .failure(let refusal):
            let message = switch refusal {
            case .full: "the server is exporting \(context.exports.limit) sheets already; try again shortly"
            case .overShare: "this session's subject has \(context.exports.share) exports running already, its share of the server's \(context.exports.limit); try again when one ends"
            }
            var reply = Reply.error(503, .busy, message)
            reply.headers.append(("Retry-After", String(retryAfter)))
            return reply
        }
        let build = try ExportBuild(sheet: sheet, context)
        // A quoted-string holds printable ASCII only; FileNames.safe has removed quotes, backslashes and controls.
        let name = FileNames.safe(sheet.name).unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }
        let headers: [(name: String, value: String)] = [
            ("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            ("Content-Disposition", "attachment; filename=\"\(String(String.UnicodeScalarView(name))).xlsx\""),
            ("X-Sheet-Version", String(sheet.version)),
            ("ETag", build.entityTag),
            ("Accept-Ranges", "bytes"),
        ]
        guard let start = resumeOffset(request, entityTag: build.entityTag) else {
            return .later(ExportStart(LiveExport(build, slot: slot, context), headers: headers, request: request))
        }
        return .later(ResumedExport(build, from: start, headers: headers, slot: slot, request: request, context))
    }

    /// The first byte asked for by `Range: bytes=N-`, when the request may resume: a single
    /// open-ended range of plain digits, and `If-Range`, when sent, equal to `entityTag`.
    /// Anything else (other range forms, several ranges, a date or another tag in `If-Range`)
    /// gets the whole workbook, as HTTP allows.
    static func resumeOffset(_ request: Request, entityTag: String) -> Int64? {
        guard let range = request.header("Range") else { return nil }
        if let condition = request.header("If-Range"), condition != entityTag { return nil }
        let text = range.trimmingCharacters(in: .whitespaces)
        guard text.hasPrefix("bytes="), text.hasSuffix("-") else { return nil }
        let digits = text.dropFirst(6).dropLast()
        guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(digits)
    }
}

/// A `minVersion` export waiting for its version: its connection is parked on the sheet's
/// changes (no thread waits) until one reaches the version, the wait's deadline passes or the
/// server stops; then it answers with the export or 409 `version-not-reached`.
private final class VersionWait: PendingReply, @unchecked Sendable {
    private let sheet: String
    private let wanted: Int
    private let request: Request
    private let context: ServerContext
    private let lock = NSLock()
    private var watch: SheetChanges.Watch?

    init(sheet: String, wanted: Int, request: Request, context: ServerContext) {
        self.sheet = sheet
        self.wanted = wanted
        self.request = request
        self.context = context
    }

    func start(wake: @escaping @Sendable () -> Void) {
        let wanted = self.wanted
        let watch = context.changes.watch(sheet, until: .now() + ExportRoute.versionWait) { change in
            if let change, change.version < wanted { return }
            wake()
        }
        lock.withLock { self.watch = watch }
        // A change between the route's read and the watch went unseen: look once more.
        let version = (try? context.database { try $0.version(of: sheet) }) ?? 0
        if version >= wanted { wake() }
    }

    func answer() -> Reply {
        if let watch = lock.withLock({ self.watch }) { context.changes.cancel(watch) }
        // The export may settle the sheet first: on a calculation worker, the connection parked again.
        let (sheet, wanted, parked, context) = (sheet, wanted, ParkedRequest(request), context)
        return .later(CalcReply(context.readers, sheet: nil) {
            SheetServer.answer(for: parked.request, context) { try ExportRoute.afterWait(sheet, wanted: wanted, parked.request, context) }
        })
    }
}
