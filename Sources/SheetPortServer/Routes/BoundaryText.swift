import SheetPortCore
/// Text that arrives in a request (path segments, query arguments, header fields, JSON members)
/// is refused with 400 when it holds NUL or another control character: a NUL would cut it in C,
/// CR/LF would forge log lines, ESC would drive a terminal that prints it.
enum BoundaryText {
    /// The 400 `bad-request` refusal naming `field` when `value` holds a control character (logged
    /// in `log` with the value's controls made visible), or nil.
    static func refusal(_ value: String, _ field: String, log: ServerLog) -> RequestRefusal? {
        guard let scalar = value.unicodeScalars.first(where: \.isUnsafeControl) else { return nil }
        let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
        log.write("refused \(field) holding a control character (\(code)): \(String(value.prefix(200)))")
        return RequestRefusal(status: 400, code: .badRequest,
                       message: "\(field) holds a control character (\(code)); NUL and control characters are refused")
    }

    /// Throws `refusal(value, field)` when there is one.
    static func check(_ value: String, _ field: String, log: ServerLog) throws {
        if let refusal = refusal(value, field, log: log) { throw refusal }
    }

    /// Checks each path segment and query argument of `request`.
    static func check(_ request: Request, log: ServerLog) throws {
        for segment in request.segments { try check(segment, "the path", log: log) }
        // `query` keeps one value a name; `queryItems` (the daemon fills it) every repeated one too.
        for (name, value) in request.query.map({ ($0.key, $0.value) }) + request.queryItems.map({ ($0.name, $0.value) }) {
            try check(name, "a query argument's name", log: log)
            try check(value, "the query argument \(name)", log: log)
        }
    }
}
