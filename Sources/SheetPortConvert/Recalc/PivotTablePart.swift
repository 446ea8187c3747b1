import SheetPortReader
import SheetPortCalc
import SheetPortCore

/// Reads a worksheet's pivot table parts (`xl/pivotTables/pivotTableN.xml`) with their caches'
/// field names and items, into the layout GETPIVOTDATA reads: the data area's place and the
/// items each data row and column (`rowItems`, `colItems`) stands for.
final class PivotTablePart: XMLHandler {
    /// One `<i>` of `rowItems` or `colItems`: its type, how many leading items it repeats from
    /// the line before (`r`), its data field (`i`) and its item indexes (`x v`).
    struct RawLine {
        var type: String?
        var repeated: Int
        var dataField: Int
        var indexes: [Int] = []
    }

    var ref: String?
    var firstDataRow = 0, firstDataColumn = 0
    /// Per pivot field, its items' indexes into the cache field's shared items (nil: a subtotal item).
    var fieldItems: [[Int?]] = []
    var rowFields: [Int] = [], columnFields: [Int] = []
    var rowLines: [RawLine] = [], columnLines: [RawLine] = []
    var dataFields: [(name: String?, field: Int)] = []
    private var section = ""

    /// How many items, lines and fields a part may hold: a line is a row of the sheet at most.
    static let lineLimit = CellReference.maxRow

    func startElement(_ element: XMLName, attributes: XMLAttributes) throws {
        guard element.namespace == .spreadsheet || element.namespace == .none else { return }
        switch true {
        case element.is("location"):
            ref = attributes.string("ref")
            firstDataRow = attributes.int("firstDataRow") ?? 0
            firstDataColumn = attributes.int("firstDataCol") ?? 0
        case element.is("pivotFields"), element.is("rowFields"), element.is("colFields"), element.is("rowItems"),
             element.is("colItems"), element.is("dataFields"), element.is("pageFields"):
            section = element.is("pivotFields") ? "pivotFields" : element.is("rowFields") ? "rowFields"
                : element.is("colFields") ? "colFields" : element.is("rowItems") ? "rowItems"
                : element.is("colItems") ? "colItems" : element.is("dataFields") ? "dataFields" : "pageFields"
        case element.is("pivotField") where section == "pivotFields":
            fieldItems.append([])
        case element.is("item") where section == "pivotFields" && !fieldItems.isEmpty:
            if fieldItems[fieldItems.count - 1].count < Self.lineLimit {
                fieldItems[fieldItems.count - 1].append(attributes.string("t") == nil ? (attributes.int("x") ?? 0) : nil)
            }
        case element.is("field") where section == "rowFields" || section == "colFields":
            guard let x = attributes.int("x") else { break }
            if section == "rowFields" { rowFields.append(x) } else { columnFields.append(x) }
        case element.is("i") where section == "rowItems" || section == "colItems":
            let line = RawLine(type: attributes.string("t"), repeated: attributes.int("r") ?? 0, dataField: attributes.int("i") ?? 0)
            if section == "rowItems", rowLines.count < Self.lineLimit { rowLines.append(line) }
            if section == "colItems", columnLines.count < Self.lineLimit { columnLines.append(line) }
        case element.is("x") where section == "rowItems" || section == "colItems":
            let v = attributes.int("v") ?? 0
            if section == "rowItems", !rowLines.isEmpty { rowLines[rowLines.count - 1].indexes.append(v) }
            if section == "colItems", !columnLines.isEmpty { columnLines[columnLines.count - 1].indexes.append(v) }
        case element.is("dataField") where section == "dataFields":
            dataFields.append((attributes.string("name"), attributes.int("fld") ?? -1))
        default: break
        }
    }

    func endElement(_ element: XMLName) throws {
        // `<x>` and `<item>` mean other things outside these (a format's pivot area, ...).
        if element.is("pivotFields") || element.is("rowFields") || element.is("colFields") || element.is("rowItems")
            || element.is("colItems") || element.is("dataFields") || element.is("pageFields") { section = "" }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {}

    /// The pivot tables of `sheet` that read whole (a part whose indexes point nowhere is left
    /// out: its lines could not be told apart).
    static func pivotTables(of sheet: Sheet, index: Int, in workbook: Workbook) -> [CalcPivotTable] {
        guard let relationships = try? workbook.relationships(of: sheet) else { return [] }
        var pivots: [CalcPivotTable] = []
        for relationship in relationships where relationship.type == "pivotTable" && !relationship.isExternal {
            guard let entry = workbook.archive.entry(named: relationship.target) else { continue }
            let part = PivotTablePart()
            guard (try? XMLPushParser.parse(entry, in: workbook.archive, with: part)) != nil,
                  let cacheTarget = (try? workbook.relationships(ofPart: relationship.target))?
                    .first(where: { $0.type == "pivotCacheDefinition" && !$0.isExternal })?.target,
                  let cacheEntry = workbook.archive.entry(named: cacheTarget) else { continue }
            let cache = PivotCachePart()
            guard (try? XMLPushParser.parse(cacheEntry, in: workbook.archive, with: cache)) != nil,
                  let pivot = part.layout(sheet: index, cache: cache) else { continue }
            pivots.append(pivot)
        }
        return pivots
    }

    /// The layout, or nil when the part does not hold together with its cache.
    func layout(sheet: Int, cache: PivotCachePart) -> CalcPivotTable? {
        guard let ref, let range = CellRange(ref), firstDataRow >= 0, firstDataColumn >= 0,
              firstDataRow < range.rowCount, firstDataColumn < range.columnCount, !dataFields.isEmpty else { return nil }
        var data: [CalcPivotTable.DataField] = []
        for (name, field) in dataFields {
            guard cache.fields.indices.contains(field) else { return nil }
            let source = cache.fields[field].name
            data.append(CalcPivotTable.DataField(name: name ?? source, sourceName: source))
        }
        guard let rows = lines(rowLines, fields: rowFields, cache: cache, dataFields: data.count),
              let columns = lines(columnLines, fields: columnFields, cache: cache, dataFields: data.count),
              rows.count <= range.rowCount - firstDataRow, columns.count <= range.columnCount - firstDataColumn else { return nil }
        return CalcPivotTable(sheet: sheet, range: range, firstDataRow: firstDataRow, firstDataColumn: firstDataColumn,
                              dataFields: data, rows: rows, columns: columns)
    }

    /// One axis's lines: each line's items are the line before's first `r` and its own `x`s, by
    /// the axis's fields in order; the field -2 is the data fields' place.
    private func lines(_ raw: [RawLine], fields: [Int], cache: PivotCachePart, dataFields: Int) -> [CalcPivotTable.Line]? {
        let laysOutData = fields.contains(-2)
        var previous: [Int] = []
        var result: [CalcPivotTable.Line] = []
        for line in raw {
            guard line.repeated >= 0, line.repeated <= previous.count, line.dataField >= 0, line.dataField < dataFields else { return nil }
            let kind: CalcPivotTable.LineKind
            switch line.type {
            case nil, "data": kind = .data
            case "grand": kind = .grandTotal
            case "blank": kind = .blank
            default: kind = .subtotal  // default, sum, countA, avg, ...: a subtotal line
            }
            let path = Array(previous.prefix(line.repeated)) + line.indexes
            guard path.count <= fields.count || kind == .grandTotal || kind == .blank else { return nil }
            var items: [CalcPivotTable.Item] = []
            if kind != .grandTotal && kind != .blank {
                for (level, v) in path.enumerated() where fields[level] != -2 {
                    let field = fields[level]
                    guard fieldItems.indices.contains(field), fieldItems[field].indices.contains(v),
                          let shared = fieldItems[field][v], cache.fields.indices.contains(field),
                          cache.fields[field].items.indices.contains(shared) else { return nil }
                    items.append(CalcPivotTable.Item(field: cache.fields[field].name, value: cache.fields[field].items[shared]))
                }
                previous = path
            }
            result.append(CalcPivotTable.Line(items: items, dataField: laysOutData ? line.dataField : nil, kind: kind))
        }
        return result
    }
}

/// Reads a pivot cache definition's fields: names and shared items.
final class PivotCachePart: XMLHandler {
    var fields: [(name: String, items: [CalcValue])] = []
    private var inSharedItems = false

    func startElement(_ element: XMLName, attributes: XMLAttributes) throws {
        guard element.namespace == .spreadsheet || element.namespace == .none else { return }
        if element.is("cacheField") {
            fields.append((attributes.string("name") ?? "", []))
        } else if element.is("sharedItems") {
            inSharedItems = true
        } else if inSharedItems, !fields.isEmpty, fields[fields.count - 1].items.count < PivotTablePart.lineLimit {
            let v = attributes.string("v")
            let item: CalcValue
            switch true {
            case element.is("s"): item = .text(v ?? "")
            case element.is("n"): item = v.flatMap(Double.init).map(CalcValue.number) ?? .empty
            case element.is("b"): item = .boolean(v == "1" || v == "true")
            case element.is("e"): item = v.flatMap(ExcelError.init(literal:)).map(CalcValue.error) ?? .error(.value)
            case element.is("d"): item = .text(v ?? "")
            case element.is("m"): item = .empty
            default: return
            }
            fields[fields.count - 1].items.append(item)
        }
    }

    func endElement(_ element: XMLName) throws {
        if element.is("sharedItems") { inSharedItems = false }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {}
}
