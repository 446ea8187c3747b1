import Foundation
import SheetPortCore

/// One row of a rows window as the server sent it: each cell the server's JSON object
/// (Docs/Reference/Formats.md's cell JSONL keys with `input`, `display` and `style`), passed on unchanged.
package struct RemoteRow {
    /// The 1-based row number.
    package var row: Int
    /// The row's cells, left to right.
    package var cells: [[String: Any]]
}

extension ServerConnection {
    /// The sheet `wanted` names among `sheets`: its id, else its exact name, else its name in
    /// another case; nil when the subject may read no such sheet. A name several sheets share
    /// throws `ambiguousSheet`, so a write never lands on one of them by chance.
    package static func sheet(_ wanted: String, in sheets: [RemoteSheet]) throws(ClientError) -> RemoteSheet? {
        if let byID = sheets.first(where: { $0.id == wanted }) { return byID }
        for matches in [{ (s: RemoteSheet) in s.name == wanted }, { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }] {
            let named = sheets.filter(matches)
            guard named.count <= 1 else { throw .ambiguousSheet(name: wanted, ids: named.map(\.id)) }
            if let one = named.first { return one }
        }
        return nil
    }

    /// The rows `range` covers on sheet `id`, through as many rows windows as it takes, with
    /// only the cells of its columns; and the version the first window was read at.
    package func rows(of id: String, in range: CellRange, client: HTTPClient) throws -> (version: Int, rows: [RemoteRow]) {
        var rows: [RemoteRow] = []
        var version = -1
        var start = range.start.row
        while start <= range.end.row {
            let count = min(500, range.end.row - start + 1)
            let path = "/api/sheets/\(Self.pathSegment(id))/rows?start=\(start)&count=\(count)"
            let window = try json("GET", path, client: client, what: "sheet \(id)")
            let next: Int? = try decode(url(path)) {
                if version < 0 { version = Int(try window.int64("version")) }
                for row in try window.objects("rows") {
                    let number = Int(try row.int64("row"))
                    guard number >= range.start.row, number <= range.end.row else { continue }
                    let cells = ((row.values["cells"] as? [Any]) ?? []).compactMap { $0 as? [String: Any] }.filter { cell in
                        let column = JSONObject(cell).optionalInt64("col").map(Int.init)
                            ?? (cell["ref"] as? String).flatMap { CellReference($0) }?.column ?? 0
                        return column >= range.start.column && column <= range.end.column
                    }
                    rows.append(RemoteRow(row: number, cells: cells))
                }
                return JSONObject(window.values).optionalInt64("next").map(Int.init)
            }
            // The server may answer fewer rows than asked (its own cap): go on from `next`.
            guard let next, next > start else { break }
            start = next
        }
        return (max(version, 0), rows)
    }
}
