import SheetPortCore
import Foundation
import SheetPortReader
import SheetPortConvert

/// The embedded import/export server (Docs/Reference/HTTP.md): the HTTP daemon, the routes, and
/// the import workers, over a sealed SQLite store in the data directory.
public final class SheetServer: RequestHandler, @unchecked Sendable {
    /// Shared state.
    package let context: ServerContext
    private let workers: [ImportWorker]
    private var daemon: HTTPDaemon?
    private let migration: RowBlockMigration

    /// Opens the data directory, recovers jobs a previous run left unfinished, starts the
    /// import workers and listens.
    public init(configuration: ServerConfiguration) throws {
        let context = try ServerContext(configuration: configuration)
        self.context = context
        try Recovery.run(context)
        workers = (0..<max(1, configuration.workers)).map { _ in ImportWorker(context: context) }
        context.relief.start()
        // Row blocks of the previous format are compressed in the background (issue 26).
        migration = RowBlockMigration(store: context.store, sealer: context.sealer, log: configuration.log)
        migration.start()
        if context.store.isShared { context.leases.start() }
        context.sheetChanges.start()
        context.settler.start(context)
        workers.forEach { $0.start() }
        daemon = try HTTPDaemon(address: configuration.address, limits: configuration.http, log: configuration.log, handler: self)
        try context.database { try context.web.bound(host: configuration.address.host, port: port, $0) }
    }

    /// SIGHUP: reads the key file again and checks that it opens the store (the store's key, or
    /// one being rotated to or from); logs its fingerprint, or why it was not taken. The data key
    /// that seals records does not change with a rotation, so nothing is re-sealed.
    public func reloadKey() {
        let configuration = context.configuration
        let keyFile = configuration.keyFile ?? context.directory.keyFile
        do {
            try KeyCheck.establish(keyFile: keyFile, store: context.store,
                                   staging: configuration.databaseURL == nil ? context.directory.staging : nil, create: false)
            let key = try KeyFile.load(at: keyFile)
            context.log.write("sealing key reloaded: fingerprint \(key.map(KeyCheck.fingerprint(of:)) ?? "none"), which opens the store")
        } catch {
            context.log.write("sealing key not reloaded (the running one is kept): \(error)")
        }
    }

    /// The bound port.
    public var port: UInt16 { daemon?.port ?? 0 }

    /// Stops listening, then stops the workers (a running import stops at its next batch and
    /// is resumed by the next start).
    public func stop() {
        // Parked requests and event streams answer (end) first: libmicrohttpd cannot stop with
        // a connection suspended.
        context.events.close()
        context.changes.close()
        context.exports.close()
        // Queued calculations are refused and running ones finish, so their connections resume.
        context.writers.close()
        context.readers.close()
        daemon?.stop()
        daemon = nil
        context.settler.stop()
        context.imports.shutDown()
        workers.forEach { $0.join() }
        context.leases.stop()
        context.sheetChanges.stop()
        context.relief.stop()
        migration.stop()
    }

    // MARK: RequestHandler

    /// Answers the pages (`WebRoutes`); for the API, resolves the bearer token or the browser
    /// session (401 without a live one; a browser's change must pass `CSRFCheck`) and starts an
    /// upload's staging.
    package func begin(_ request: inout Request) -> Reply? {
        if request.segments.first != "api" {
            switch WebRoutes.begin(&request, context) {
            case .reply(let reply): return reply
            case .readBody: return nil
            case .api: break
            }
        }
        return begin(api: &request).map { $0.negotiated(request) }
    }

    private func begin(api request: inout Request) -> Reply? {
        if request.segments == ["api", "limits"] { return nil }
        do {
            let credential: Credential
            let subject: String
            if let token = Tokens.bearer(request.header("Authorization")),
               let resolved = try context.database({ try Tokens.subject(of: token, in: $0) }) {
                (credential, subject) = (.bearer(token), resolved)
            } else if request.header("Authorization") == nil, let (session, resolved) = try WebRoutes.browserSession(request, context) {
                if let refusal = CSRFCheck.check(request, session, context.web) { return refusal }
                (credential, subject) = (session.credential, resolved)
            } else {
                return .error(401, .unauthorized, "a valid session token is required (Authorization: Bearer TOKEN, or the page's sign-in)")
            }
            request.subject = subject
            request.credential = credential
            try BoundaryText.check(request, log: context.log)
            if let refusal = LinksRoute.fence(request) { return refusal }
            if request.method == "POST" && request.segments == ["api", "imports"] {
                return ImportsRoute.begin(&request, context)
            }
            return nil
        } catch let refusal as RequestRefusal {
            return refusal.reply
        } catch {
            return Self.internalError(error, request, context)
        }
    }

    /// Stages an upload chunk, or collects a small JSON body; 413 as soon as either passes its
    /// cap (a chunked body announces no length, so this is where it is caught).
    package func receive(_ request: inout Request, _ chunk: UnsafeRawBufferPointer) -> Reply? {
        if let upload = request.upload {
            upload.append(chunk)
            guard upload.isTooLarge else { return nil }
            request.upload = nil
            return ImportsRoute.tooLarge(upload.limit)
        } else if request.body.count + chunk.count <= bodyLimit(request) {
            request.body.append(contentsOf: chunk)
            return nil
        } else {
            request.bodyTooLarge = true
            return tooLarge(request)
        }
    }

    /// The most a request's body may hold: a write's is `maxBatchBytes`, any other JSON body's `Request.maxBodyBytes`.
    private func bodyLimit(_ request: Request) -> Int {
        Router.isWrite(request) ? max(context.configuration.maxBatchBytes, Request.maxBodyBytes) : Request.maxBodyBytes
    }

    /// 413 for a body past its limit: `batch-too-large` naming the cap for a write.
    private func tooLarge(_ request: Request) -> Reply {
        guard Router.isWrite(request) else { return .error(413, .tooLarge, "a request body holds at most \(Request.maxBodyBytes) bytes") }
        return .error(413, .batchTooLarge, "a write's body holds at most \(bodyLimit(request)) bytes (maxBatchBytes)")
    }

    /// Routes the complete request.
    package func finish(_ request: inout Request) -> Reply {
        if request.bodyTooLarge { return tooLarge(request) }
        if request.segments.first != "api" {
            var form = request
            return Self.answer(for: request, context) { try WebRoutes.finish(&form, context) }
        }
        let described = request
        if let calculation = Router.calculation(request) {
            // Answered by a calculation worker while the connection is parked.
            let parked = ParkedRequest(request)
            return .later(CalcReply(calculation.writes ? context.writers : context.readers, sheet: calculation.writes ? calculation.sheet : nil) { [context] in
                let described = parked.request
                return Self.answer(for: described, context) { try Router.route(&parked.request, context) }
            })
        }
        return Self.answer(for: described, context) { try Router.route(&request, context) }
    }

    /// The reply of `route` for `request`, or of what it threw: a refusal's answer, else a 500
    /// whose line in `context`'s log names the request.
    static func answer(for request: Request, _ context: ServerContext, _ route: () throws -> Reply) -> Reply {
        do {
            return try route().negotiated(request)
        } catch let refusal as RequestRefusal {
            return refusal.reply.negotiated(request)
        } catch let refusal as SheetEditError {
            return refusal.refusal.reply.negotiated(request)
        } catch {
            return Self.internalError(error, request, context)
        }
    }

    /// Drops the staging of an upload whose connection broke.
    package func abandon(_ request: inout Request) {
        request.upload?.discard()
        request.upload = nil
    }

    /// 500 `internal`: the detail (paths, SQLite's text) goes to `context`'s log under an
    /// incident id; the answer says what failed in user terms and carries only the id.
    static func internalError(_ error: any Error, _ request: Request?, _ context: ServerContext) -> Reply {
        let what = request.map { "\($0.method) \($0.path)" } ?? "a request"
        let incident = context.log.incident(error, during: what)
        if error.isStorageFull {
            context.relief.noteFull()
            // Nothing of the request was kept; it succeeds again once space is freed.
            return .json(.object([("error", .object([
                ("code", .string(ServerErrorCode.storageFull.rawValue)),
                ("message", .string("the server's storage is full, so nothing of this request was kept; try again once its operator has freed space (incident \(incident))")),
                ("incident", .string(incident)),
            ]))]), status: 507)
        }
        return .json(.object([("error", .object([
            ("code", .string(ServerErrorCode.internal.rawValue)),
            ("message", .string("the server could not complete this request; report incident \(incident) to its operator")),
            ("incident", .string(incident)),
        ]))]), status: 500)
    }
}

/// Routes a request with a resolved subject to its resource.
enum Router {
    static func route(_ request: inout Request, _ context: ServerContext) throws -> Reply {
        let path = Array(request.segments.dropFirst()) // "api"
        let method = request.method
        let resource = path.first ?? ""
        let id = path.count > 1 ? path[1] : ""
        let sub = path.count > 2 ? path[2] : nil
        switch (method, resource, path.count, sub) {
        case ("GET", "limits", 1, _): return LimitsRoute.get(context)
        case ("GET", "me", 2, _) where id == "preferences": return try PreferencesRoute.get(request, context)
        case ("PUT", "me", 2, _) where id == "preferences": return try PreferencesRoute.put(request, context)
        case ("GET", "sheets", 1, _): return try SheetsRoute.list(request, context)
        case ("GET", "sheets", 2, _): return try SheetsRoute.get(id, request, context)
        case ("PATCH", "sheets", 2, _): return try SheetsRoute.rename(id, request, context)
        case ("DELETE", "sheets", 2, _): return try SheetsRoute.delete(id, request, context)
        case ("GET", "sheets", 3, "rows"): return try RowsRoute.get(id, request, context)
        case ("GET", "sheets", 3, "view"): return try ViewRoute.get(id, request, context)
        case ("POST", "sheets", 1, _): return try EditRoutes.create(request, context)
        case ("POST", "sheets", 3, "cells"): return try EditRoutes.cells(id, request, context)
        case ("POST", "sheets", 3, "clear"): return try EditRoutes.clear(id, request, context)
        case ("POST", "sheets", 3, "copy"): return try EditRoutes.copy(id, request, context)
        case ("POST", "sheets", 3, "undo"): return try EditRoutes.undo(id, request, context)
        case ("GET", "sheets", 5, "cells") where path[4] == "history": return try EditRoutes.history(id, path[3], request, context)
        case ("POST", "sheets", 5, "cells") where path[4] == "restore": return try EditRoutes.restore(id, path[3], request, context)
        case ("POST", "sheets", 3, "format"): return try FormatRoutes.format(id, request, context)
        case ("POST", "sheets", 3, "sizes"): return try FormatRoutes.sizes(id, request, context)
        case ("GET", "sheets", 3, "grants"): return try GrantsRoute.list(id, request, context)
        case ("POST", "sheets", 3, "grants"): return try GrantsRoute.grant(id, request, context)
        case ("DELETE", "sheets", 4, "grants"): return try GrantsRoute.revoke(id, path[3], request, context)
        case ("GET", "sheets", 3, "comments"): return try CommentsRoute.list(id, request, context)
        case ("POST", "sheets", 3, "comments"): return try CommentsRoute.add(id, request, context)
        case ("POST", "sheets", 5, "comments") where path[4] == "resolve": return try CommentsRoute.resolve(id, path[3], request, context)
        case ("GET", "sheets", 3, "links"): return try LinksRoute.list(id, request, context)
        case ("POST", "sheets", 3, "links"): return try LinksRoute.create(id, request, context)
        case ("DELETE", "sheets", 4, "links"): return try LinksRoute.delete(id, path[3], request, context)
        case ("GET", "sheets", 3, "export.xlsx"): return try ExportRoute.get(id, request, context)
        case ("GET", "sheets", 3, "events"): return try EventsRoute.sheet(id, request, context)
        case ("GET", "imports", 3, "events"): return try EventsRoute.job(id, request, context)
        case ("POST", "imports", 1, _): return try ImportsRoute.finish(&request, context)
        case ("GET", "imports", 1, _): return try ImportsRoute.list(request, context)
        case ("GET", "imports", 2, _): return try ImportsRoute.get(id, request, context)
        case ("DELETE", "imports", 2, _): return try ImportsRoute.cancel(id, request, context)
        default:
            let known = ["limits", "sheets", "imports", "me"].contains(resource) && path.count <= 5
            return known ? .error(405, .methodNotAllowed, "\(method) is not allowed on \(request.path)") : .notFound
        }
    }

    /// The sheet a request calculates on, and whether it writes it: every write of a sheet (each
    /// may recalculate, and a sheet's writes keep their order), and the reads that may compute
    /// its pending values or settle it (rows windows, views, exports). Nil for the others.
    static func calculation(_ request: Request) -> (sheet: String, writes: Bool)? {
        let path = Array(request.segments.dropFirst()) // "api"
        guard path.count >= 3, path[0] == "sheets" else { return nil }
        switch (request.method, path.count, path[2]) {
        case ("POST", 3, "cells"), ("POST", 3, "clear"), ("POST", 3, "copy"), ("POST", 3, "undo"), ("POST", 3, "format"), ("POST", 3, "sizes"):
            return (path[1], true)
        case ("POST", 5, "cells") where path[4] == "restore": return (path[1], true)
        case ("GET", 3, "rows"), ("GET", 3, "view"), ("GET", 3, "export.xlsx"): return (path[1], false)
        default: return nil
        }
    }

    /// Whether the request is a write of cells (its body may be a batch up to `maxBatchBytes`).
    static func isWrite(_ request: Request) -> Bool {
        let path = request.segments
        return request.method == "POST" && path.count >= 4 && path[1] == "sheets" && ["cells", "clear", "copy"].contains(path[3])
    }

    /// The sheet `id` if the request's subject holds at least `role` on it: 404 when it may not
    /// read it at all (as if it did not exist), 403 when it may read but not do this.
    /// Throws the `RequestRefusal`, which the router answers.
    @discardableResult
    static func sheet(_ id: String, _ request: Request, _ context: ServerContext, needs role: Role) throws -> SheetRecord {
        guard let subject = request.subject, let sheet = try context.database({ try $0.sheet(id, for: subject) }) else {
            throw RequestRefusal.notFound
        }
        guard sheet.role >= role else {
            throw RequestRefusal(status: 403, code: .forbidden, message: "this needs the \(role.rawValue) role; you are \(sheet.role.rawValue)")
        }
        return sheet
    }
}

/// A complete request handed to a calculation worker (the polling thread that made it is done with it).
final class ParkedRequest: @unchecked Sendable {
    var request: Request
    init(_ request: Request) { self.request = request }
}

/// A refused request: its status and error code, answered by the router.
struct RequestRefusal: Error {
    let status: Int
    let code: ServerErrorCode
    let message: String

    /// 404, as for what does not exist.
    static let notFound = RequestRefusal(status: 404, code: .notFound, message: "no such resource")

    var reply: Reply { .error(status, code, message) }
}
