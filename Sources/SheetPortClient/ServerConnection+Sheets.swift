import Foundation

extension ServerConnection {
    /// `POST /api/sheets` `{"name"}`: an empty sheet owned by the caller.
    package func createSheet(named name: String, client: HTTPClient) throws -> RemoteSheet {
        try sheetCall("POST", "/api/sheets", ["name": name], client: client, what: "sheets")
    }

    /// `PATCH /api/sheets/{id}` `{"name"}`: the renamed sheet (editors and owners).
    package func renameSheet(_ id: String, to name: String, client: HTTPClient) throws -> RemoteSheet {
        try sheetCall("PATCH", "/api/sheets/" + Self.pathSegment(id), ["name": name], client: client, what: "sheet \(id)")
    }

    /// `DELETE /api/sheets/{id}` (owners only).
    package func deleteSheet(_ id: String, client: HTTPClient) throws {
        _ = try json("DELETE", "/api/sheets/" + Self.pathSegment(id), client: client, what: "sheet \(id)")
    }

    private func sheetCall(_ method: String, _ path: String, _ body: [String: Any], client: HTTPClient, what: String) throws -> RemoteSheet {
        let bytes = Array(try JSONSerialization.data(withJSONObject: body))
        let answer = try json(request(method, path, headers: [("Content-Type", "application/json")], body: .bytes(bytes)), client: client, what: what)
        return try decode(url(path)) { try RemoteSheet(json: answer) }
    }
}
