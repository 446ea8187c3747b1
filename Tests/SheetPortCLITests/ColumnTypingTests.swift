import Foundation
import Testing
@testable import SheetPortCore

/// `convert --null` and `--types` on CSV/TSV input, and `1E5`-shaped fields kept as text
/// (Docs/Reference/CLI.md, "convert").
@Suite struct ColumnTypingTests {
    private func values(_ csv: String, _ options: [String] = [], name: String = "t.csv") throws -> (status: Int32, stderr: String, rows: [[CellValue]]) {
        let result = try convertText(Array(csv.utf8), name: name, options)
        // A row with no cell left is not stored: it reads back as an empty row in its place.
        var rows: [[CellValue]] = []
        for row in result.rows {
            while rows.count < row.index - 1 { rows.append([]) }
            rows.append(row.cells.map(\.value))
        }
        return (result.status, result.stderr, rows)
    }

    @Test func nullFieldsAreEmptyAndLeaveTheColumnTyped() throws {
        let csv = "id,score,note\n1,3.5,NA\n2,NA,null\n3,null,x\n"
        let plain = try values(csv)
        #expect(plain.rows[1] == [.number(1), .string("3.5"), .string("NA")]) // one NA makes the column text
        let nulled = try values(csv, ["--null", "NA,null,"])
        #expect(nulled.status == 0, "\(nulled.stderr)")
        #expect(nulled.rows[1] == [.number(1), .number(3.5)])
        #expect(nulled.rows[2] == [.number(2)])
        #expect(nulled.rows[3] == [.number(3), .string("x")])
        // A header that reads like a token stays the header; tokens match whole fields, case and all.
        let header = try values("NA,b\n1,na\n2,Na\n", ["--null", "NA"])
        #expect(header.rows[0] == [.string("NA"), .string("b")])
        #expect(header.rows[1] == [.number(1), .string("na")])
        // Odd separators: only commas split, so `;`, spaces and quotes are parts of tokens.
        let odd = try values("a,b\n1,N/A; \n2, -\n3,\"-\"\n", ["--null", "N/A; , -,,,"])
        #expect(odd.status == 0, "\(odd.stderr)")
        #expect(odd.rows.dropFirst().map { $0 } == [[.number(1)], [.number(2)], [.number(3), .string("-")]])
        // Only empty tokens, or none: nothing changes.
        #expect(try values(csv, ["--null", ""]).rows == plain.rows)
        #expect(try values(csv, ["--null", ",,,"]).rows == plain.rows)
        // A quoted token is the same field unquoted; a control character in a token is a byte like others.
        let quoted = try values("a\n1\n\"NA\"\n\u{1}\n2\n", ["--null", "NA,\u{1}"])
        #expect(quoted.rows.dropFirst().map { $0 } == [[.number(1)], [], [], [.number(2)]])
    }

    @Test func exponentShapedFieldsStayTextUnlessTheWholeColumnIs() throws {
        let codes = try values("code\n1E5\n123\n2E10\n")
        #expect(codes.rows.dropFirst().map { $0 } == [[.string("1E5")], [.string("123")], [.string("2E10")]])
        let science = try values("x\n1.5e-3\n2E5\n-3e+2\n")
        #expect(science.rows.dropFirst().map { $0 } == [[.number(0.0015)], [.number(200_000)], [.number(-300)]])
        let first = try values("code\n123\n1E5\n")
        #expect(first.rows[1] == [.string("123")])
        // --types says number: every shape is a number.
        let declared = try values("code\n1E5\n123\n", ["--types", "code=number"])
        #expect(declared.rows.dropFirst().map { $0 } == [[.number(100_000)], [.number(123)]])
    }

    @Test func typesByHeaderNameOrLetter() throws {
        let csv = "id,score,when,flag\n007,12,2024-01-31,true\n12345678901234567,1E2,2024-02-01,FALSE\n"
        let typed = try values(csv, ["--types", "id=text,score=number,C=date,flag=boolean"])
        #expect(typed.status == 0, "\(typed.stderr)")
        let jan31 = ExcelDateTime(year: 2024, month: 1, day: 31).serial(in: .excel1900)
        #expect(typed.rows[1] == [.string("007"), .number(12), .date(serial: jan31), .boolean(true)])
        #expect(typed.rows[2][0] == .string("12345678901234567"))
        #expect(typed.rows[2][1] == .number(100))
        // Declared number takes leading zeros and long integers, as a spreadsheet would.
        let numbers = try values(csv, ["--types", "id=number"])
        #expect(numbers.rows[1][0] == .number(7) && numbers.rows[2][0] == .number(12_345_678_901_234_568))
        // Declared text keeps a numeric column text; the others are still inferred.
        let text = try values("a,b\n1,2\n", ["--types", "a=text"])
        #expect(text.rows[1] == [.string("1"), .number(2)])
        // With --no-infer, declared columns are typed and the rest stay text.
        let raw = try values("a,b\n1,2\n", ["--types", "b=number", "--no-infer"])
        #expect(raw.rows[1] == [.string("1"), .number(2)])
        // --no-header: letters only.
        let headerless = try values("1E5,x\n2,y\n", ["--types", "a=number", "--no-header"])
        #expect(headerless.rows.map { $0.first } == [.number(100_000), .number(2)])
        // Null fields in a declared column are empty, not misfits.
        let nulled = try values("n\n1\nNA\n3\n", ["--types", "n=number", "--null", "NA"])
        #expect(nulled.status == 0 && nulled.rows.dropFirst().map { $0 } == [[.number(1)], [], [.number(3)]])
        // TSV too, a header name holding `=` (the last one splits).
        let tsv = try values("a=b\tc\n5\tx\n", ["--types", "a=b=text"], name: "t.tsv")
        #expect(tsv.rows[1] == [.string("5"), .string("x")])
    }

    @Test func misfitsNameTheRowAndColumn() throws {
        for (field, kind) in [("abc", "number"), ("NaN", "number"), ("inf", "number"), ("0x1p3", "number"), ("1e999", "number"),
                              ("2024-02-30", "date"), ("yes", "boolean"), ("25:99", "time"), ("\u{1B}[2J", "number")] {
            let result = try values("id,v\n1,\(field)\n", ["--types", "v=\(kind)"])
            #expect(result.status == 3, "\(field): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("row 2, column B") && result.stderr.contains("is not a \(kind)"), "\(result.stderr)")
            #expect(!result.stderr.dropLast().containsControlCharacters, "\(result.stderr)")
        }
    }

    @Test func badSpecsAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["--types", "missing=number"], "--types names column \"missing\", which is neither a header name"),
            (["--types", "id=numeric"], "\"numeric\" is not a column type; use one of text, number, boolean, date, time"),
            (["--types", "id"], "\"id\" is not NAME=KIND"),
            (["--types", "=number"], "names no column"),
            (["--types", ""], "is not NAME=KIND"),
            (["--types", "id=text,id=number"], "declared twice"),
            (["--types", "A=text,id=number"], "both text and number"),
            (["--types", "XFE=text"], "neither a header name"),
            (["--types", "\u{1B}[2J=text"], "neither a header name"),
            (["--types", "a=text", "--no-header"], "a=text"),
        ]
        for (options, message) in cases {
            let result = try convertText(Array("id,v\n1,2\n".utf8), name: "data.csv", options)
            if options.last == "--no-header" {
                #expect(result.status == 0, "\(result.stderr)") // `a` is column A's letter
                continue
            }
            #expect(result.status == 2, "\(options): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains(message), "\(options): \(result.stderr)")
            #expect(!result.stderr.dropLast().containsControlCharacters, "\(result.stderr)")
            #expect(result.files.isEmpty, "\(result.files)")
        }
        let jsonl = try convertText(Array("{\"ref\":\"A1\",\"type\":\"number\",\"value\":1}\n".utf8), name: "c.jsonl", ["--null", "NA"])
        #expect(jsonl.status == 2 && jsonl.stderr.contains("--null is for CSV and TSV input"))
    }
}
