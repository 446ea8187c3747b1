/// Text that arrives in a request (path segments, query arguments, header fields, JSON members)
/// is refused with 400 when it holds NUL or another control character: a NUL would cut it in C,
/// CR/LF would forge log lines, ESC would drive a terminal that prints it.
enum BoundaryText {
    /// Throws a 400 `bad-request` refusal naming `field` when `value` holds a control character;
    /// the refusal is logged with the value's controls made visible.
    static func check(_ value: String, _ field: String) throws {
        guard let scalar = value.unicodeScalars.first(where: \.isUnsafeControl) else { return }
        let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
        ServerLog.write("refused \(field) holding a control character (\(code)): \(String(value.prefix(200)))")
        throw Refusal(status: 400, code: "bad-request",
                      message: "\(field) holds a control character (\(code)); NUL and control characters are refused")
    }

    /// Checks each path segment and query argument of `request`.
    static func check(_ request: Request) throws {
        for segment in request.segments { try check(segment, "the path") }
        for (name, value) in request.query {
            try check(name, "a query argument's name")
            try check(value, "the query argument \(name)")
        }
    }
}
