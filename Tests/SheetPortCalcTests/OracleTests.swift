import Foundation
import Testing
@testable import SheetPortCalc
import SheetPortCore

/// The development oracle: workbooks dumped by `Tests/CalcOracle/extract.py` (openpyxl) are loaded
/// without their cached formula values, recomputed, and compared with what Excel cached.
/// Runs when `CALC_ORACLE_DIR` names the dump folder (or /tmp/calcoracle exists); the report goes to
/// `CALC_ORACLE_REPORT` (default /tmp/calcoracle-report.txt).
@Suite struct OracleTests {
    static var directory: String? {
        let dir = ProcessInfo.processInfo.environment["CALC_ORACLE_DIR"] ?? "/tmp/calcoracle"
        return FileManager.default.fileExists(atPath: dir) ? dir : nil
    }

    static func typed(_ any: Any?) -> CalcValue {
        guard let d = any as? [String: Any], let t = d["t"] as? String else { return .empty }
        switch t {
        case "n": return .number((d["v"] as? Double) ?? Double((d["v"] as? Int) ?? 0))
        case "s": return .text(d["v"] as? String ?? "")
        case "b": return .boolean(d["v"] as? Bool ?? false)
        case "e": return .error(ExcelError(literal: d["v"] as? String ?? "") ?? .value)
        default: return .empty
        }
    }

    static func agrees(_ computed: CalcValue, _ cached: CalcValue) -> Bool {
        switch (computed, cached) {
        case (.number(let a), .number(let b)):
            if a == b { return true }
            return Swift.abs(a - b) <= Swift.max(Swift.abs(a), Swift.abs(b)) * 1e-12 || Coercion.round15(a) == Coercion.round15(b)
        case (.text(let a), .text(let b)): return a == b
        case (.empty, .text(let b)): return b.isEmpty
        default: return computed == cached
        }
    }

    static let volatileMarkers = ["NOW(", "TODAY(", "RAND(", "RANDBETWEEN(", "OFFSET(", "INDIRECT(", "CELL(", "INFO("]

    @Test(.enabled(if: OracleTests.directory != nil)) func corpusAgreesWithCachedValues() throws {
        let dir = OracleTests.directory!
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") }.sorted()
        var total = 0, hits = 0, unsupported = 0, volatileCells = 0, unparsed = 0
        var missesByKey: [String: [String]] = [:]
        var perFile: [(String, Int, Int)] = []
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/" + file))
            guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { continue }
            let e = CalcEngine(dateSystem: (root["date1904"] as? Bool ?? false) ? .excel1904 : .excel1900, clock: .fixed(unixTime: 0), randomSeed: 1)
            let sheets = root["sheets"] as? [[String: Any]] ?? []
            for s in sheets { e.addSheet(s["name"] as? String ?? "") }
            var expectations: [(Int, CellReference, String, CalcValue)] = []
            for (k, s) in sheets.enumerated() {
                for cell in s["cells"] as? [[String: Any]] ?? [] {
                    guard let ref = cell["ref"] as? String, let a = CellReference(ref) else { continue }
                    let v = OracleTests.typed(cell["v"])
                    if let f = cell["f"] as? String {
                        let array = (cell["array"] as? String).flatMap { CellRange($0) }
                        e.setFormula(f, at: a, sheet: k, cachedValue: v, arrayRange: array)
                        if case .empty = v { continue }
                        expectations.append((k, a, f, v))
                    } else {
                        e.setValue(v, at: a, sheet: k)
                    }
                }
            }
            for n in root["names"] as? [[String: Any]] ?? [] {
                guard let name = n["name"] as? String, let value = n["value"] as? String else { continue }
                let scope = (n["sheet"] as? String).flatMap { e.sheetIndex(named: $0) }
                e.defineName(name, formula: value, sheet: scope)
            }
            for t in root["tables"] as? [[String: Any]] ?? [] {
                guard let name = t["name"] as? String, let sheetName = t["sheet"] as? String, let sheet = e.sheetIndex(named: sheetName),
                      let ref = t["ref"] as? String, let range = CellRange(ref) else { continue }
                e.addTable(CalcTable(name: name, sheet: sheet, range: range, headerRowCount: t["header"] as? Int ?? 1,
                                     totalsRowCount: t["totals"] as? Int ?? 0, columnNames: t["columns"] as? [String] ?? []))
            }
            // Cached values are kept only for unsupported functions: every other formula is recomputed.
            e.recalculate()
            let volatileIDs = e.volatileDependents()
            let unsupportedCells = Set(e.report.unsupportedFunctions.flatMap(\.cells))
            let unparsedCells = Set(e.report.unsupportedFormulas.map(\.location))
            var fileHits = 0, fileTotal = 0
            for (k, a, f, cached) in expectations {
                let loc = CellLocation(sheet: k, cell: a)
                if unsupportedCells.contains(loc) { unsupported += 1; continue }
                if unparsedCells.contains(loc) { unparsed += 1; continue }
                let upper = f.uppercased()
                if let id = e.cellID(sheet: k, address: CellIndex(a)), volatileIDs.contains(id) { volatileCells += 1; continue }
                if OracleTests.volatileMarkers.contains(where: { upper.contains($0) }) { volatileCells += 1; continue }
                total += 1; fileTotal += 1
                let got = e.value(at: a, sheet: k)
                if OracleTests.agrees(got, cached) { hits += 1; fileHits += 1; continue }
                let key = OracleTests.functionsOf(upper)
                missesByKey[key, default: []].append("\(file) \(sheets[k]["name"] ?? "")!\(a) =\(f.prefix(160)) cached=\(cached) got=\(got)")
            }
            perFile.append((file, fileHits, fileTotal))
        }
        var lines: [String] = []
        let rate = total == 0 ? 100 : Double(hits) * 100 / Double(total)
        lines.append("oracle: \(hits)/\(total) formula cells agree (\(String(format: "%.2f", rate))%); excluded: \(volatileCells) volatile, \(unsupported) unsupported-function, \(unparsed) unsupported-formula; \(files.count) workbooks")
        for (key, list) in missesByKey.sorted(by: { $0.value.count > $1.value.count }) {
            lines.append("\(list.count)\t\(key)")
            for ex in list.prefix(4) { lines.append("    \(ex)") }
        }
        lines.append("per file (misses):")
        for (f, h, t) in perFile where h < t { lines.append("  \(f): \(h)/\(t)") }
        lines.append("all misses:")
        for (_, list) in missesByKey { for ex in list { lines.append("  " + ex) } }
        let path = ProcessInfo.processInfo.environment["CALC_ORACLE_REPORT"] ?? "/tmp/calcoracle-report.txt"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        print(lines.prefix(3).joined(separator: "\n"))
        #expect(total > 0)
    }

    /// The function names a formula calls, as a grouping key for misses.
    static func functionsOf(_ f: String) -> String {
        var names: [String] = []
        var cur = ""
        for ch in f {
            if ch.isLetter || ch.isNumber || ch == "." || ch == "_" { cur.append(ch); continue }
            if ch == "(", !cur.isEmpty { let n = FormulaParser.functionName(cur); if !names.contains(n) { names.append(n) } }
            cur = ""
        }
        return names.isEmpty ? "(operators)" : names.joined(separator: ",")
    }
}
