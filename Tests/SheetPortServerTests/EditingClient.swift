import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport

/// The editing routes of one sheet as a test calls them, over HTTP.
struct EditingClient {
    let api: API
    let sheet: String

    init(_ api: API, _ sheet: String) {
        self.api = api
        self.sheet = sheet
    }

    /// Creates an empty sheet through `api`; its id.
    static func create(_ api: API, name: String = "Sheet") throws -> String {
        let response = try api.call("POST", "/api/sheets", json: ["name": name])
        try #require(response.status == 201, "create: \(response.status) \(response.text)")
        return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])["id"] as! String
    }

    /// `POST .../cells` with `inputs` (ref to input); the answer, which must be 200.
    func write(_ inputs: KeyValuePairs<String, String>) throws -> [String: Any] {
        try write(inputs.map { ($0.key, $0.value) })
    }

    func write(_ inputs: [(String, String)]) throws -> [String: Any] {
        let response = try post("cells", ["cells": inputs.map { ["ref": $0.0, "input": $0.1] }])
        try #require(response.status == 200, "cells: \(response.status) \(response.text)")
        return try Self.object(response)
    }

    /// `POST .../ROUTE` with a JSON body.
    func post(_ route: String, _ json: [String: Any]) throws -> HTTPResponse {
        try api.call("POST", "/api/sheets/\(sheet)/\(route)", json: json)
    }

    /// Every stored cell by ref, from rows windows (with `display`).
    func cells() throws -> [String: [String: Any]] {
        var cells: [String: [String: Any]] = [:]
        var start: Int? = 1
        while let first = start {
            let window = try api.object("/api/sheets/\(sheet)/rows?start=\(first)&count=5000")
            for row in window["rows"] as? [[String: Any]] ?? [] {
                for cell in row["cells"] as? [[String: Any]] ?? [] { cells[cell["ref"] as? String ?? ""] = cell }
            }
            start = window["next"] as? Int
        }
        return cells
    }

    /// Two writers at once, one through each of `apis`: writer 0 writes A1...A`writes`, writer 1
    /// B1...B`writes` (each cell its row number), one cell a write. Each writer's answered
    /// versions, in order, and the writes that failed.
    static func twoWriters(_ apis: [API], sheet: String, writes: Int) -> (versions: [[Int]], failures: [String]) {
        let versions = [LockedBox<[Int]>([]), LockedBox<[Int]>([])]
        let failures = LockedBox<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { writer in
            let client = EditingClient(apis[writer], sheet)
            for index in 1...writes {
                do {
                    let answer = try client.write([((writer == 0 ? "A" : "B") + String(index), String(index))])
                    versions[writer].value.append(answer["version"] as? Int ?? -1)
                } catch {
                    failures.update { $0.append("\(writer) \(index): \(error)") }
                }
            }
        }
        return (versions.map(\.value), failures.value)
    }

    /// Writes A1 = 2, 3, ... (`writes` of them, one after another, through `writer`) under a
    /// running total on column B while each of `readers` reads the one-row window of row `row`
    /// over and over. A value read must be one a write gave that was not acknowledged before
    /// the read began, nor sent after it ended: `offset` is B`row` less A1. Answers the reads
    /// and what went wrong.
    static func readsDuringWrites(writer: EditingClient, readers: [EditingClient], writes: Int, row: Int, offset: Double) -> (reads: Int, failures: [String]) {
        let acknowledged = LockedBox(1), sent = LockedBox(1), done = LockedBox(false)
        let reads = LockedBox(0), failures = LockedBox<[String]>([])
        DispatchQueue.concurrentPerform(iterations: readers.count + 1) { index in
            guard index > 0 else {
                defer { done.value = true }
                for a in 2...(1 + writes) {
                    sent.value = a
                    do { _ = try writer.write([("A1", String(a))]) } catch { failures.update { $0.append("write \(a): \(error)") }; return }
                    acknowledged.value = a
                }
                return
            }
            let reader = readers[index - 1]
            while !done.value {
                let floor = acknowledged.value
                do {
                    let window = try reader.api.object("/api/sheets/\(reader.sheet)/rows?start=\(row)&count=1")
                    let cells = (window["rows"] as? [[String: Any]])?.first?["cells"] as? [[String: Any]] ?? []
                    let value = cells.first { $0["ref"] as? String == "B\(row)" }?["value"] as? Double ?? -1
                    let ceiling = sent.value
                    let a = value - offset
                    if a < Double(floor) || a > Double(ceiling) { failures.update { $0.append("reader \(index): B\(row) from A1 = \(a), written \(floor)...\(ceiling)") } }
                    reads.update { $0 += 1 }
                } catch {
                    failures.update { $0.append("reader \(index): \(error)") }
                    return
                }
            }
        }
        return (reads.value, failures.value)
    }

    /// The sheet's version.
    func version() throws -> Int { try api.object("/api/sheets/\(sheet)")["version"] as? Int ?? -1 }

    /// The `changed` cells of a write's answer, by ref.
    static func changed(_ answer: [String: Any]) -> [String: [String: Any]] {
        var cells: [String: [String: Any]] = [:]
        for cell in answer["changed"] as? [[String: Any]] ?? [] { cells[cell["ref"] as? String ?? ""] = cell }
        return cells
    }

    static func object(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "\(response.text)")
    }

    /// The error code of a refusal.
    static func code(_ response: HTTPResponse) -> String? {
        ((try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any]).flatMap { ($0["error"] as? [String: Any])?["code"] as? String }
    }

    /// Exports the sheet and reads it back with openpyxl: each cell's value (numbers as doubles,
    /// dates as ISO text) and formula, by ref.
    func exportedValues(in folder: URL) throws -> [String: Any] {
        try exported(in: folder).values
    }

    /// The export as openpyxl reads it: values (data_only) and formulas, by ref.
    func exported(in folder: URL) throws -> (values: [String: Any], formulas: [String: String], formats: [String: String]) {
        let response = try api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
        try #require(response.status == 200, "export: \(response.status) \(response.text)")
        let file = folder.appendingPathComponent("export-\(UUID().uuidString).xlsx")
        try Data(response.body).write(to: file)
        let script = """
            import sys, json, datetime, openpyxl
            values = {}; formulas = {}; formats = {}
            for c in (c for r in openpyxl.load_workbook(sys.argv[1], data_only=True).active.iter_rows() for c in r):
                if c.value is None: continue
                v = c.value
                values[c.coordinate] = v.isoformat() if isinstance(v, (datetime.datetime, datetime.date, datetime.time)) else v
                formats[c.coordinate] = c.number_format
            for c in (c for r in openpyxl.load_workbook(sys.argv[1]).active.iter_rows() for c in r):
                if isinstance(c.value, str) and c.value.startswith('='): formulas[c.coordinate] = c.value[1:]
            print(json.dumps({"values": values, "formulas": formulas, "formats": formats}))
            """
        let output = try runPython(script, arguments: [file.path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        return (object["values"] as? [String: Any] ?? [:], object["formulas"] as? [String: String] ?? [:], object["formats"] as? [String: String] ?? [:])
    }
}
