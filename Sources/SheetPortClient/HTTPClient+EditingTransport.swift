import Foundation
import SheetPortCore
import SheetPortEditing

/// The editing core's transport over the libcurl client (Docs/Reference/HTTP.md, "Writing"): JSON requests
/// through `ServerConnection` (its retries, deadlines and error answers), the sheet's event
/// stream on a client of its own (a stream holds its connection, and `HTTPClient` is one a thread).
public final class HTTPEditingTransport: EditingTransport {
    /// The server and the token.
    public let connection: ServerConnection
    private let client: HTTPClient

    /// A transport to `connection`; `timeout` bounds each request (and its retries).
    public init(connection: ServerConnection, timeout: Double = 30) {
        self.connection = connection
        client = HTTPClient(connectTimeout: 10, timeout: timeout)
    }

    /// The caps of `GET /api/limits`; a server without the batch caps answers with its cell cap.
    public func limits() throws -> EditingLimits {
        let object = try call("GET", "/api/limits", body: nil, what: "limits")
        let cells = object.optionalInt64("maxBatchCells").map(Int.init) ?? Int(object.optionalInt64("maxCells") ?? 10_000)
        let bytes = object.optionalInt64("maxBatchBytes").map(Int.init) ?? Int(object.optionalInt64("maxUploadBytes") ?? 1 << 20)
        return EditingLimits(maxBatchCells: cells, maxBatchBytes: bytes,
                             maxRows: Int(object.optionalInt64("maxRows") ?? Int64(CellReference.maxRow)),
                             maxColumns: Int(object.optionalInt64("maxColumns") ?? Int64(CellReference.maxColumn)))
    }

    /// The `names` of the sheet's metadata; a name whose range the address field cannot read
    /// (or a server without names) is left out.
    public func names(sheet: String) throws -> [String: CellRange] {
        let object = try call("GET", path(sheet), body: nil, what: "sheet \(sheet)")
        var names: [String: CellRange] = [:]
        for entry in (try? object.objects("names")) ?? [] {
            guard let name = entry.optionalString("name"), !name.isEmpty, !name.unicodeScalars.contains(where: \.isUnsafeControl),
                  let ref = entry.optionalString("ref"), let range = try? NameBox.parse(ref) else { continue }
            // A sheet's name hides the workbook's of the same name, as in Excel.
            if names[name] != nil, entry.optionalString("scope") != "sheet" { continue }
            names[name] = range
        }
        return names
    }

    /// The window through as many requests as it takes: a server answer stopped early (its
    /// `maxWindowBytes`) says with `next` where to go on, and the rest is fetched from there.
    public func rows(sheet: String, start: Int, count: Int) throws -> RowsWindow {
        let end = start + count // exclusive
        var window: RowsWindow?
        var from = start
        while from < end {
            let object = try call("GET", "\(path(sheet))/rows?start=\(from)&count=\(end - from)", body: nil, what: "sheet \(sheet)")
            let next: Int? = try decoded(connection.url("\(path(sheet))/rows")) {
                let rows = try object.objects("rows").map(Self.windowRow)
                // The window keeps the first answer's version; later parts only add rows.
                if window == nil {
                    window = RowsWindow(version: Int(try object.int64("version")), start: start, count: count, rows: rows)
                } else {
                    window!.rows += rows.filter { $0.row >= from && $0.row < end }
                }
                return object.optionalInt64("next").map(Int.init)
            }
            guard let next, next > from else { break }
            from = next
        }
        return window ?? RowsWindow(version: 0, start: start, count: count, rows: [])
    }

    public func writeCells(sheet: String, _ cells: [CellEdit]) throws -> WriteResult {
        let body: [String: Any] = ["cells": cells.map { ["ref": $0.ref.description, "input": $0.input] }]
        return try write(sheet, "cells", body)
    }

    public func copy(sheet: String, source: CellRange, target: CellRange) throws -> WriteResult {
        try write(sheet, "copy", ["source": source.description, "target": target.description])
    }

    public func clear(sheet: String, range: CellRange, what: String) throws -> WriteResult {
        try write(sheet, "clear", ["range": range.description, "what": what])
    }

    public func sizes(sheet: String) throws -> CellSizes {
        let object = try call("GET", path(sheet), body: nil, what: "sheet \(sheet)")
        var runs: [CellSizes.ColumnRun] = []
        for run in (try? object.objects("columnWidths")) ?? [] {
            guard let first = run.optionalInt64("first"), let last = run.optionalInt64("last"), first >= 1, last >= first,
                  last <= Int64(CellReference.maxColumn), let width = Self.size(run.values["width"], maximum: 255) else { continue }
            runs.append(CellSizes.ColumnRun(first: Int(first), last: Int(last), width: width))
        }
        return CellSizes(columnRuns: runs, defaultRowHeight: Self.size(object.values["defaultRowHeight"], maximum: 409))
    }

    /// A size from an answer: a finite number from 0 to `maximum`, else nil (the default).
    static func size(_ value: Any?, maximum: Double) -> Double? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        let size = number.doubleValue
        return size.isFinite && size >= 0 && size <= maximum ? size : nil
    }

    public func setSizes(sheet: String, rows: [Int: Double?], columns: [Int: Double?]) throws -> WriteResult {
        func members<Key>(_ sizes: [Key: Double?], _ name: (Key) -> String) -> [String: Any] {
            Dictionary(uniqueKeysWithValues: sizes.map { (name($0.key), $0.value.map { $0 as Any } ?? NSNull()) })
        }
        return try write(sheet, "sizes", ["rows": members(rows) { String($0) }, "columns": members(columns) { CellReference.columnName($0) }])
    }

    public func format(sheet: String, range: CellRange, _ change: FormatChange) throws -> WriteResult {
        switch change {
        case .clear: return try write(sheet, "format", ["range": range.description, "clear": true])
        case .set(let members): return try write(sheet, "format", ["range": range.description, "set": Self.formatBody(members)])
        }
    }

    /// A format's `set` object: a removed member is JSON null (`false` for a flag).
    static func formatBody(_ members: [FormatMember]) -> [String: Any] {
        var set: [String: Any] = [:]
        for member in members {
            switch member {
            case .bold(let on): set["bold"] = on
            case .italic(let on): set["italic"] = on
            case .align(let alignment): set["align"] = alignment?.rawValue ?? NSNull()
            case .numberFormat(let code): set["numberFormat"] = code ?? NSNull()
            case .fill(let colour): set["fill"] = colour ?? NSNull()
            case .color(let colour): set["color"] = colour ?? NSNull()
            }
        }
        return set
    }

    public func undo(sheet: String) throws -> WriteResult {
        try write(sheet, "undo", [:])
    }

    /// One request: a view answer stopped at `maxWindowBytes` is what the panel shows.
    public func view(sheet: String, _ query: TableViewQuery, start: Int, count: Int) throws -> ViewWindow {
        var arguments = ["start=\(start)", "count=\(count)"]
        if !query.sort.isEmpty { arguments.append("sort=" + ServerConnection.pathSegment(query.sort)) }
        arguments += query.filters.map { "filter=" + ServerConnection.pathSegment($0) }
        let route = "\(path(sheet))/view"
        let object = try call("GET", route + "?" + arguments.joined(separator: "&"), body: nil, what: "sheet \(sheet)")
        return try decoded(connection.url(route)) {
            let rows = try object.objects("rows").map(Self.windowRow)
            return ViewWindow(version: Int(try object.int64("version")), total: Int(object.optionalInt64("total") ?? Int64(rows.count)), rows: rows)
        }
    }

    public func history(sheet: String, ref: CellReference) throws -> [CellHistoryEntry] {
        let route = "\(path(sheet))/cells/\(ref)/history"
        let object = try call("GET", route, body: nil, what: "sheet \(sheet)")
        return try decoded(connection.url(route)) {
            try object.objects("history").map { entry in
                CellHistoryEntry(version: Int(try entry.int64("version")), subject: entry.optionalString("subject") ?? "",
                                 input: entry.optionalString("input") ?? "", at: entry.optionalString("at") ?? "",
                                 change: entry.optionalString("change") ?? "")
            }
        }
    }

    public func restore(sheet: String, ref: CellReference, version: Int) throws -> WriteResult {
        try write(sheet, "cells/\(ref)/restore", ["version": version])
    }

    /// The comments; one whose cell does not read as a reference is left out.
    public func comments(sheet: String) throws -> [CellComment] {
        let route = "\(path(sheet))/comments"
        let object = try call("GET", route, body: nil, what: "sheet \(sheet)")
        return try decoded(connection.url(route)) {
            try object.objects("comments").compactMap { comment in
                guard let ref = comment.optionalString("ref").flatMap({ CellReference($0) }) else { return nil }
                return CellComment(id: Int(try comment.int64("id")), ref: ref, author: comment.optionalString("author") ?? "",
                                   text: comment.optionalString("text") ?? "", replyTo: comment.optionalInt64("replyTo").map(Int.init),
                                   resolved: comment.values["resolved"] as? Bool ?? false)
            }
        }
    }

    /// A reply names only its thread: it takes the thread's cell (the server refuses another).
    public func addComment(sheet: String, ref: CellReference, text: String, replyTo: Int?) throws {
        var body: [String: Any] = ["text": text]
        if let replyTo { body["replyTo"] = replyTo } else { body["ref"] = ref.description }
        _ = try call("POST", "\(path(sheet))/comments", body: body, what: "sheet \(sheet)")
    }

    public func resolveComment(sheet: String, comment: Int, resolved: Bool) throws {
        _ = try call("POST", "\(path(sheet))/comments/\(comment)/resolve", body: ["resolved": resolved], what: "comment \(comment)")
    }

    /// The grants; one with a role this client does not know is left out.
    public func grants(sheet: String) throws -> [SheetGrant] {
        let route = "\(path(sheet))/grants"
        let object = try call("GET", route, body: nil, what: "sheet \(sheet)")
        return try decoded(connection.url(route)) {
            try object.objects("grants").compactMap { grant in
                guard let subject = grant.optionalString("subject"), let role = grant.optionalString("role").flatMap(SheetRole.init(rawValue:)) else { return nil }
                return SheetGrant(subject: subject, role: role)
            }
        }
    }

    public func grant(sheet: String, subject: String, role: SheetRole) throws {
        _ = try call("POST", "\(path(sheet))/grants", body: ["subject": subject, "role": role.rawValue], what: "sheet \(sheet)")
    }

    public func revokeGrant(sheet: String, subject: String) throws {
        _ = try call("DELETE", "\(path(sheet))/grants/\(ServerConnection.pathSegment(subject))", body: nil, what: "\(subject)'s grant")
    }

    public func links(sheet: String) throws -> [ShareLink] {
        let route = "\(path(sheet))/links"
        let object = try call("GET", route, body: nil, what: "sheet \(sheet)")
        return try decoded(connection.url(route)) { try object.objects("links").compactMap(Self.link) }
    }

    public func createLink(sheet: String, role: SheetRole) throws -> ShareLink {
        let route = "\(path(sheet))/links"
        let object = try call("POST", route, body: ["role": role.rawValue], what: "sheet \(sheet)")
        return try decoded(connection.url(route)) {
            guard let link = Self.link(try object.object("link")) else { throw JSONShapeError(description: "a link needs an id and a role") }
            return link
        }
    }

    public func deleteLink(sheet: String, id: String) throws {
        _ = try call("DELETE", "\(path(sheet))/links/\(ServerConnection.pathSegment(id))", body: nil, what: "link \(id)")
    }

    /// A link of `GET .../links` or `POST .../links`; nil without an id or a known role.
    static func link(_ object: JSONObject) -> ShareLink? {
        guard let id = object.optionalString("id") ?? object.optionalInt64("id").map(String.init),
              let role = object.optionalString("role").flatMap(SheetRole.init(rawValue:)) else { return nil }
        return ShareLink(id: id, role: role, url: object.optionalString("url"))
    }

    public func export(sheet: String, minVersion: Int) throws -> [UInt8] {
        let request = connection.request("GET", "\(path(sheet))/export.xlsx?minVersion=\(minVersion)")
        do {
            let response = try ServerConnection.send(request, client: client)
            guard response.status == 200 else { throw ServerConnection.error(response, url: request.url, what: "sheet \(sheet)") }
            return response.body
        } catch {
            throw Self.transportError(error)
        }
    }

    /// Follows `GET /api/sheets/{id}/events`, reconnecting after `Last-Event-ID` when the stream
    /// breaks (a second later), until `stop` answers true; a refusal (401, 403, 404) ends it.
    public func followEvents(sheet: String, after version: Int?, stop: @escaping () -> Bool, event: @escaping (SheetEvent) -> Void) throws {
        let streamClient = HTTPClient(connectTimeout: 10, timeout: 0)
        streamClient.lowSpeedLimit = 0
        streamClient.answerTimeout = 0
        struct Stopped: Error {}
        streamClient.cancellation = { if stop() { throw Stopped() } }
        var lastID = version.map(String.init)
        while !stop() {
            let request = connection.eventStreamRequest("\(path(sheet))/events", after: lastID)
            var parser = EventStreamParser()
            var refusal: TransportError?
            do {
                try streamClient.send(request) { head, chunk in
                    guard head.status == 200 else {
                        refusal = TransportError(status: head.status, code: nil, message: "the sheet's event stream answered \(head.status)",
                                                 retryable: head.status >= 500)
                        throw Stopped()
                    }
                    for sent in try parser.feed(chunk) where sent.name == "version" {
                        guard let parsed = Self.event(sent.data) else { continue }
                        lastID = sent.id ?? String(parsed.version)
                        event(parsed)
                    }
                }
            } catch .aborted(_, let underlying) where underlying is Stopped {
                if let refusal, !refusal.retryable { throw refusal }
            } catch {
                // A broken stream: try again after a pause (the loop asks `stop` first).
            }
            for _ in 0..<10 where !stop() { usleep(100_000) }
        }
    }

    /// A `version` event's data: `{"version":N,"change":"cells","refs":["B2"]}`; nil when not that shape.
    static func event(_ data: String) -> SheetEvent? {
        guard let object = try? JSONObject(parsing: Array(data.utf8)), let version = object.optionalInt64("version") else { return nil }
        let refs = (object.values["refs"] as? [Any])?.compactMap { ($0 as? String).flatMap { CellReference($0) } }
        return SheetEvent(version: Int(version), change: SheetChangeKind(rawValue: object.optionalString("change") ?? ""), refs: refs)
    }

    /// A row of a rows window or a view: its cells by column (a cell off the grid left out); a
    /// row number off the grid makes the answer malformed.
    static func windowRow(_ row: JSONObject) throws(JSONShapeError) -> WindowRow {
        var cells: [Int: CellSnapshot] = [:]
        for cell in (try? row.objects("cells")) ?? [] {
            guard let column = cell.optionalInt64("col") ?? cell.optionalString("ref").flatMap({ CellReference($0) }).map({ Int64($0.column) }),
                  column >= 1, column <= CellReference.maxColumn else { continue }
            cells[Int(column)] = snapshot(cell)
        }
        let number = try row.int64("row")
        guard number >= 1, number <= CellReference.maxRow else { throw JSONShapeError(description: "a row \(number) off the grid") }
        return WindowRow(row: Int(number), cells: cells, height: size(row.values["height"], maximum: 409))
    }

    /// A cell of a rows window or a `changed` list.
    static func snapshot(_ cell: JSONObject) -> CellSnapshot {
        let style = cell.optionalObject("style")
        let value = cell.values["value"]
        let display = cell.optionalString("display") ?? value.map { value -> String in
            if let text = value as? String { return text }
            if value is NSNull { return "" }
            if let number = value as? NSNumber {
                if String(cString: number.objCType) == "c" { return number.boolValue ? "TRUE" : "FALSE" }
                return "\(number)"
            }
            return "\(value)"
        } ?? ""
        return CellSnapshot(input: cell.optionalString("input") ?? "", display: display, type: cell.optionalString("type") ?? "",
                            fill: style?.optionalString("fill"), color: style?.optionalString("color"),
                            bold: style?.values["bold"] as? Bool ?? false, italic: style?.values["italic"] as? Bool ?? false,
                            alignment: style?.optionalString("horizontal").flatMap(CellAlignment.init(rawValue:)),
                            numberFormat: style?.optionalString("numFmt"),
                            number: (value as? NSNumber).flatMap { String(cString: $0.objCType) == "c" ? nil : $0.doubleValue })
    }

    private func write(_ sheet: String, _ route: String, _ body: [String: Any]) throws -> WriteResult {
        let object = try call("POST", "\(path(sheet))/\(route)", body: body, what: "sheet \(sheet)")
        return try decoded(connection.url("\(path(sheet))/\(route)")) {
            var changed: [CellReference: CellSnapshot] = [:]
            for cell in (try? object.objects("changed")) ?? [] {
                guard let ref = cell.optionalString("ref").flatMap({ CellReference($0) }) else { continue }
                changed[ref] = Self.snapshot(cell)
            }
            return WriteResult(version: Int(try object.int64("version")), changed: changed, more: object.values["more"] as? Bool ?? false)
        }
    }

    /// `make` over an answer; one of the wrong shape is a `TransportError` (not retryable).
    private func decoded<Value>(_ url: String, _ make: () throws -> Value) throws -> Value {
        do {
            return try connection.decode(url, make)
        } catch {
            throw Self.transportError(error)
        }
    }

    private func path(_ sheet: String) -> String { "/api/sheets/\(ServerConnection.pathSegment(sheet))" }

    private func call(_ method: String, _ path: String, body: [String: Any]?, what: String) throws -> JSONObject {
        var headers: [(name: String, value: String)] = []
        var requestBody = HTTPRequest.Body.none
        if let body {
            headers.append(("Content-Type", "application/json"))
            requestBody = .bytes(Array(try JSONSerialization.data(withJSONObject: body)))
        }
        do {
            return try connection.json(connection.request(method, path, headers: headers, body: requestBody), client: client, what: what)
        } catch {
            throw Self.transportError(error)
        }
    }

    /// A client error as the core's: retryable for a dropped connection and a 5xx or 429 answer.
    static func transportError(_ error: any Error) -> TransportError {
        switch error {
        case let ClientError.server(_, status, code, message):
            return TransportError(status: status, code: code, message: message.isEmpty ? "HTTP \(status)" : message.visibleControlCharacters,
                                  retryable: status >= 500 || status == 429)
        case let ClientError.notFound(_, what): return TransportError(status: 404, code: .notFound, message: "\(what) not found", retryable: false)
        case let ClientError.invalidResponse(url, reason):
            return TransportError(status: 0, code: .invalidResponse, message: ClientError.invalidResponse(url: url, reason: reason).description, retryable: false)
        case let error as ClientError: return TransportError(status: 0, code: nil, message: error.description, retryable: true)
        default: return TransportError(status: 0, code: nil, message: "\(error)", retryable: true)
        }
    }
}
