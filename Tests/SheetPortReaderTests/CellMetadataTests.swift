import Testing
import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport

/// Excel 365 stores errors that have no `t="e"` code (`#CALC!`, `#SPILL!`, ...) as the text
/// `#VALUE!` with a `vm` index; the value-metadata record names a rich value of structure
/// `_error` whose `errorType` is the error shown (13 `#CALC!`, 8 `#SPILL!`). It marks a dynamic
/// array by the anchor's `cm`, whose cell-metadata record names an `XLDAPR` block with
/// `fDynamic="1"`. The shapes below are the ones Excel writes (calc-suite
/// `LOOKUP_AND_REFERENCE__FILTER_ERRORS.xlsx`).
@Suite struct CellMetadataTests {
    static let main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"

    static func metadata(valueRecords: [(type: Int, block: Int)], blocks: Int) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><metadata xmlns=\"\(main)\" xmlns:xlrd=\"http://schemas.microsoft.com/office/spreadsheetml/2017/richdata\">"
            + "<metadataTypes count=\"2\"><metadataType name=\"XLDAPR\"/><metadataType name=\"XLRICHVALUE\"/></metadataTypes>"
            + "<futureMetadata name=\"XLRICHVALUE\" count=\"\(blocks)\">"
            + (0..<blocks).map { "<bk><extLst><ext uri=\"{3e2802c4-a4d2-4d8b-9148-e3be6c30e623}\"><xlrd:rvb i=\"\($0)\"/></ext></extLst></bk>" }.joined()
            + "</futureMetadata><valueMetadata count=\"\(valueRecords.count)\">"
            + valueRecords.map { "<bk><rc t=\"\($0.type)\" v=\"\($0.block)\"/></bk>" }.joined() + "</valueMetadata></metadata>"
    }

    static let structures = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rvStructures xmlns=\"http://schemas.microsoft.com/office/spreadsheetml/2017/richdata\" count=\"2\">"
        + "<s t=\"_error\"><k n=\"errorType\" t=\"i\"/><k n=\"subType\" t=\"i\"/></s>"
        + "<s t=\"_error\"><k n=\"colOffset\" t=\"i\"/><k n=\"errorType\" t=\"i\"/><k n=\"rwOffset\" t=\"i\"/><k n=\"subType\" t=\"i\"/></s></rvStructures>"

    static func values(_ records: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rvData xmlns=\"http://schemas.microsoft.com/office/spreadsheetml/2017/richdata\">\(records)</rvData>"
    }

    static func cells(_ parts: [(String, String)]) throws -> [String: CellValue] {
        try read(parts).mapValues(\.value)
    }

    static func read(_ parts: [(String, String)], sheetData: String? = nil) throws -> [String: Cell] {
        let sheetData = sheetData ?? RawWorkbook.row(1,
            "<c r=\"A1\" t=\"e\" vm=\"1\"><f>FILTER(B1:B2,B1:B2&gt;9)</f><v>#VALUE!</v></c>",
            "<c r=\"B1\" t=\"e\" vm=\"2\"><v>#VALUE!</v></c>",
            "<c r=\"C1\" t=\"e\" vm=\"3\"><v>#VALUE!</v></c>",
            "<c r=\"D1\" t=\"e\" vm=\"99999999999\"><v>#VALUE!</v></c>",
            "<c r=\"E1\" t=\"e\" vm=\"-1\"><v>#N/A</v></c>",
            "<c r=\"F1\" vm=\"1\"><v>7</v></c>",
            "<c r=\"G1\" t=\"e\"><v>#VALUE!</v></c>")
        var raw = RawWorkbook(sheets: [.init(name: "S", sheetData: sheetData)])
        raw.otherParts = parts
        let workbook = try Workbook(bytes: StoredZip.make(raw.parts.map { ($0.0, Array($0.1.utf8)) }), name: "rich.xlsx")
        let reader = try workbook.rows(of: workbook.sheets[0])
        var cells: [String: Cell] = [:]
        try reader.forEachRow { row in
            for cell in row.cells { cells[CellReference(row: row.index, column: cell.column).description] = cell }
        }
        return cells
    }

    static let dynamicArrayMetadata = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><metadata xmlns=\"\(main)\" "
        + "xmlns:xda=\"http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray\"><metadataTypes count=\"1\">"
        + "<metadataType name=\"XLDAPR\" minSupportedVersion=\"120000\" cellMeta=\"1\"/></metadataTypes>"
        + "<futureMetadata name=\"XLDAPR\" count=\"2\"><bk><extLst><ext uri=\"{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}\">"
        + "<xda:dynamicArrayProperties fDynamic=\"1\" fCollapsed=\"0\"/></ext></extLst></bk>"
        + "<bk><extLst><ext uri=\"{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}\"><xda:dynamicArrayProperties fDynamic=\"0\"/></ext></extLst></bk>"
        + "</futureMetadata><cellMetadata count=\"3\"><bk><rc t=\"1\" v=\"0\"/></bk><bk><rc t=\"1\" v=\"1\"/></bk>"
        + "<bk><rc t=\"1\" v=\"7\"/></bk></cellMetadata></metadata>"

    @Test func arrayFormulasMarkedDynamicAreDynamicArrays() throws {
        let sheetData = RawWorkbook.row(1,
            "<c r=\"A1\" cm=\"1\"><f t=\"array\" ref=\"A1:A3\">_xlfn.SEQUENCE(3)</f><v>1</v></c>",
            "<c r=\"B1\"><f t=\"array\" ref=\"B1:B3\">A1:A3*2</f><v>2</v></c>",
            "<c r=\"C1\" cm=\"2\"><f t=\"array\" ref=\"C1\">SUM(A1:A3)</f><v>6</v></c>",
            "<c r=\"D1\" cm=\"3\"><f t=\"array\" ref=\"D1\">1</f><v>1</v></c>",
            "<c r=\"E1\" cm=\"1\"><f>1+1</f><v>2</v></c>",
            "<c r=\"F1\" cm=\"-3\"><f t=\"array\" ref=\"F1\">1</f><v>1</v></c>")
            + RawWorkbook.row(2, RawWorkbook.number("A2", "2"), RawWorkbook.number("B2", "4"))
        let cells = try Self.read([("xl/metadata.xml", Self.dynamicArrayMetadata)], sheetData: sheetData)
        #expect(cells["A1"]?.formulaKind == .dynamicArray(range: "A1:A3"))
        #expect(cells["A1"]?.formulaKind.arrayRange == "A1:A3")
        #expect(cells["B1"]?.formulaKind == .array(range: "B1:B3"), "no cm: a legacy array")
        #expect(cells["C1"]?.formulaKind == .array(range: "C1"), "fDynamic=\"0\": a legacy array")
        #expect(cells["D1"]?.formulaKind == .array(range: "D1"), "a record naming a block that is not there")
        #expect(cells["E1"]?.formulaKind == .normal, "cm on a normal formula changes nothing")
        #expect(cells["F1"]?.formulaKind == .array(range: "F1"))
        #expect(cells["A2"]?.value == .number(2) && cells["A2"]?.formula == nil)
        let without = try Self.read([], sheetData: sheetData)
        #expect(without["A1"]?.formulaKind == .array(range: "A1:A3"), "no metadata part: arrays as stored")
        let errorsOnly = try Self.read([("xl/metadata.xml", Self.metadata(valueRecords: [(2, 0)], blocks: 1))], sheetData: sheetData)
        #expect(errorsOnly["A1"]?.formulaKind == .array(range: "A1:A3"), "metadata without a dynamic-array record: cm is not read")
        #expect(errorsOnly["F1"]?.formulaKind == .array(range: "F1"))
    }

    @Test func richErrorsReadAsTheErrorsExcelShows() throws {
        let values = try Self.cells([
            ("xl/metadata.xml", Self.metadata(valueRecords: [(2, 0), (2, 1), (2, 2)], blocks: 3)),
            ("xl/richData/rdrichvaluestructure.xml", Self.structures),
            ("xl/richData/rdrichvalue.xml", Self.values("<rv s=\"0\"><v>13</v><v>3</v></rv><rv s=\"1\"><v>0</v><v>8</v><v>1</v><v>1</v></rv>"
                + "<rv s=\"0\"><v>999</v><v>0</v></rv>")),
        ])
        #expect(values["A1"] == .error("#CALC!"))
        #expect(values["B1"] == .error("#SPILL!"), "errorType is found by its key, not by position")
        #expect(values["C1"] == .error("#VALUE!"), "an error type Excel does not define keeps the stored text")
        #expect(values["D1"] == .error("#VALUE!"))
        #expect(values["E1"] == .error("#N/A"))
        #expect(values["F1"] == .number(7), "vm on a number is not an error")
        #expect(values["G1"] == .error("#VALUE!"))
    }

    @Test func damagedRichPartsLeaveTheStoredValues() throws {
        let hostile: [[(String, String)]] = [
            [("xl/metadata.xml", "<metadata"), ("xl/richData/rdrichvaluestructure.xml", Self.structures),
             ("xl/richData/rdrichvalue.xml", Self.values("<rv s=\"0\"><v>13</v></rv>"))],
            [("xl/metadata.xml", Self.metadata(valueRecords: [(1, 0), (7, 0), (2, -4)], blocks: 1)),
             ("xl/richData/rdrichvaluestructure.xml", Self.structures),
             ("xl/richData/rdrichvalue.xml", Self.values("<rv s=\"0\"><v>13</v></rv>"))],
            [("xl/metadata.xml", Self.metadata(valueRecords: [(2, 0)], blocks: 1)),
             ("xl/richData/rdrichvaluestructure.xml", Self.structures),
             ("xl/richData/rdrichvalue.xml", Self.values("<rv s=\"5\"><v>13</v></rv><rv><v>13</v></rv>"))],
            [("xl/metadata.xml", Self.metadata(valueRecords: [(2, 0)], blocks: 1)),
             ("xl/richData/rdrichvalue.xml", Self.values("<rv s=\"0\"><v>13</v></rv>"))],
            [("xl/metadata.xml", Self.metadata(valueRecords: [(2, 0)], blocks: 1)),
             ("xl/richData/rdrichvaluestructure.xml", Self.structures),
             ("xl/richData/rdrichvalue.xml", Self.values("<rv s=\"0\"><v>1" + String(repeating: "3", count: 5000) + "</v></rv>"))],
        ]
        for parts in hostile {
            let values = try Self.cells(parts)
            #expect(values["A1"] == .error("#VALUE!"), "\(parts.map(\.0))")
            #expect(values["F1"] == .number(7))
        }
    }
}
