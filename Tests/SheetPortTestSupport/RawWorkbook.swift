import Foundation
import Testing
import SheetPortCore
import SheetPortReader
import SheetPortConvert
import SheetPortClient
import SheetPortServer

/// A workbook written part by part into a stored (uncompressed) zip, for tests that need what
/// the writer refuses to make: hostile sheet names, hidden and chart sheets, lying dimensions.
package struct RawWorkbook {
    /// One sheet: its tab name, state and kind, and for worksheets the XML of `<sheetData>`.
    package struct Sheet {
        package var name: String
        package var state: String? = nil
        package var kind = "worksheet"
        package var sheetData = ""
        package var dimension: String? = nil
        /// XML after `</sheetData>` (`<mergeCells>`, ...).
        package var afterSheetData = ""
        /// XML between `<dimension>` and `<sheetData>` (`<sheetViews>`, `<sheetFormatPr>`, `<cols>`).
        package var beforeSheetData = ""

        package init(name: String, state: String? = nil, kind: String = "worksheet", sheetData: String = "",
                     dimension: String? = nil, afterSheetData: String = "", beforeSheetData: String = "") {
            self.name = name
            self.state = state
            self.kind = kind
            self.sheetData = sheetData
            self.dimension = dimension
            self.afterSheetData = afterSheetData
            self.beforeSheetData = beforeSheetData
        }
    }

    package var sheets: [Sheet]
    package var sharedStrings: [String] = []
    /// Extra `<cellXfs>` number formats: (numFmtId, code), giving style indexes 1, 2, ...
    package var numberFormats: [(Int, String)] = []
    /// Further parts, by name, found by their conventional names (no relationship written).
    package var otherParts: [(String, String)] = []
    /// XML after the workbook part's `</sheets>` (`<calcPr .../>`, ...).
    package var workbookAfterSheets = ""
    /// Elements of workbook.xml before `<sheets>` (`<workbookPr date1904="1"/>`).
    package var workbookBeforeSheets = ""

    package init(sheets: [Sheet], sharedStrings: [String] = [], numberFormats: [(Int, String)] = []) {
        self.sheets = sheets
        self.sharedStrings = sharedStrings
        self.numberFormats = numberFormats
    }

    /// `<c>` of an inline string, a number or a shared string, for building `sheetData`.
    package static func text(_ ref: String, _ text: String) -> String {
        "<c r=\"\(ref)\" t=\"inlineStr\"><is><t xml:space=\"preserve\">\(escaped(text))</t></is></c>"
    }
    package static func number(_ ref: String, _ value: String, style: Int = 0) -> String {
        "<c r=\"\(ref)\"" + (style > 0 ? " s=\"\(style)\"" : "") + "><v>\(value)</v></c>"
    }
    package static func row(_ index: Int, _ cells: String...) -> String { "<row r=\"\(index)\">" + cells.joined() + "</row>" }

    package static func escaped(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;").replacing("\"", with: "&quot;")
            .replacing("\t", with: "&#9;").replacing("\n", with: "&#10;").replacing("\r", with: "&#13;")
    }

    /// The parts of the package, by name.
    package var parts: [(String, String)] {
        let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
        let rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        var types = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Types xmlns=\"http://schemas.openxmlformats.org/package/2006/content-types\">"
            + "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
            + "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
            + "<Override PartName=\"/xl/workbook.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml\"/>"
        var workbook = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><workbook xmlns=\"\(main)\" xmlns:r=\"\(rel)\">"
            + workbookBeforeSheets + "<sheets>"
        var relationships = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
        var result: [(String, String)] = []
        for (offset, sheet) in sheets.enumerated() {
            let number = offset + 1
            let folder = sheet.kind == "chartsheet" ? "chartsheets" : "worksheets"
            let type = sheet.kind == "chartsheet" ? "chartsheet" : "worksheet"
            workbook += "<sheet name=\"\(Self.escaped(sheet.name))\" sheetId=\"\(number)\" r:id=\"rId\(number)\""
                + (sheet.state.map { " state=\"\($0)\"" } ?? "") + "/>"
            relationships += "<Relationship Id=\"rId\(number)\" Type=\"\(rel)/\(type)\" Target=\"\(folder)/sheet\(number).xml\"/>"
            types += "<Override PartName=\"/xl/\(folder)/sheet\(number).xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.\(type)+xml\"/>"
            if sheet.kind == "chartsheet" {
                result.append(("xl/chartsheets/sheet\(number).xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><chartsheet xmlns=\"\(main)\"/>"))
            } else {
                result.append(("xl/worksheets/sheet\(number).xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><worksheet xmlns=\"\(main)\">"
                    + (sheet.dimension.map { "<dimension ref=\"\($0)\"/>" } ?? "")
                    + sheet.beforeSheetData + "<sheetData>\(sheet.sheetData)</sheetData>\(sheet.afterSheetData)</worksheet>"))
            }
        }
        let stylesID = sheets.count + 1
        relationships += "<Relationship Id=\"rId\(stylesID)\" Type=\"\(rel)/styles\" Target=\"styles.xml\"/>"
        types += "<Override PartName=\"/xl/styles.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml\"/>"
        var custom = "", xfs = "<xf numFmtId=\"0\"/>"
        for (id, code) in numberFormats {
            if id >= 164 { custom += "<numFmt numFmtId=\"\(id)\" formatCode=\"\(Self.escaped(code))\"/>" }
            xfs += "<xf numFmtId=\"\(id)\" applyNumberFormat=\"1\"/>"
        }
        result.append(("xl/styles.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><styleSheet xmlns=\"\(main)\">"
            + (custom.isEmpty ? "" : "<numFmts>\(custom)</numFmts>")
            + "<cellXfs count=\"\(numberFormats.count + 1)\">\(xfs)</cellXfs></styleSheet>"))
        if !sharedStrings.isEmpty {
            relationships += "<Relationship Id=\"rId\(stylesID + 1)\" Type=\"\(rel)/sharedStrings\" Target=\"sharedStrings.xml\"/>"
            types += "<Override PartName=\"/xl/sharedStrings.xml\" ContentType=\"application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml\"/>"
            result.append(("xl/sharedStrings.xml", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><sst xmlns=\"\(main)\">"
                + sharedStrings.map { "<si><t xml:space=\"preserve\">\(Self.escaped($0))</t></si>" }.joined() + "</sst>"))
        }
        result.append(("[Content_Types].xml", types + "</Types>"))
        result.append(("_rels/.rels", "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Relationships xmlns=\"http://schemas.openxmlformats.org/package/2006/relationships\">"
            + "<Relationship Id=\"rId1\" Type=\"\(rel)/officeDocument\" Target=\"xl/workbook.xml\"/></Relationships>"))
        result.append(("xl/workbook.xml", workbook + "</sheets>\(workbookAfterSheets)</workbook>"))
        result.append(("xl/_rels/workbook.xml.rels", relationships + "</Relationships>"))
        return result + otherParts
    }

    /// Writes the package to `path`.
    package func write(to path: String) throws {
        try Data(StoredZip.make(parts.map { ($0.0, Array($0.1.utf8)) })).write(to: URL(fileURLWithPath: path))
    }
}

/// A minimal workbook whose one sheet is named `sheetName` (XML text, so character references
/// work) with a number in column A of each of `rows`, in the order given, and a comment on A1
/// by `commentAuthor` (XML text too) when given, and a second sheet named `otherSheet`.
package func makeRawWorkbook(at path: String, sheetName: String, rows: [Int], commentAuthor: String? = nil, otherSheet: String? = nil) throws {
    let script = #"""
    import sys, zipfile
    name, rows, author, other = sys.argv[2], sys.argv[3].split(","), sys.argv[4], sys.argv[5]
    z = zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED)
    z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
    z.writestr("_rels/.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>')
    z.writestr("xl/workbook.xml", '<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="' + name + '" sheetId="1" r:id="rId1"/>' + ('<sheet name="' + other + '" sheetId="2" r:id="rId2"/>' if other else '') + '</sheets></workbook>')
    z.writestr("xl/_rels/workbook.xml.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/></Relationships>')
    z.writestr("xl/worksheets/sheet2.xml", '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>')
    body = "".join('<row r="%s"><c r="A%s"><v>%s</v></c></row>' % (r, r, r) for r in rows)
    if author:
        z.writestr("xl/worksheets/_rels/sheet1.xml.rels", '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="../comments1.xml"/></Relationships>')
        z.writestr("xl/comments1.xml", '<?xml version="1.0"?><comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>' + author + '</author></authors><commentList><comment ref="A1" authorId="0"><text><t>note</t></text></comment></commentList></comments>')
    z.writestr("xl/worksheets/sheet1.xml", '<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' + body + '</sheetData></worksheet>')
    z.close()
    """#
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script, path, sheetName, rows.map(String.init).joined(separator: ","), commentAuthor ?? "",
                         otherSheet ?? ""]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
}
