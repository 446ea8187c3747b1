/// Reads the cell metadata part (`xl/metadata.xml`) as far as cells need it: which rich value
/// each value-metadata record (a cell's `vm`) points to, and which cell-metadata records (a
/// cell's `cm`) mark a dynamic array. Excel 365 stores the errors it has no `t="e"` code for
/// (`#CALC!`, `#SPILL!`, ...) as the text `#VALUE!` with a `vm` whose record names a rich value of
/// structure `_error`, and writes a dynamic array as an array formula whose `cm` names an
/// `XLDAPR` block with `fDynamic="1"` (without it, the same formula is a legacy CSE array).
final class MetadataPart: XMLHandler {
    /// Records kept at most: a cell's `vm` is a 32-bit index, a hostile part could list millions.
    static let recordLimit = 100_000

    /// `metadataType` names in order (records point to them 1-based).
    private var typeNames: [String] = []
    /// The `XLRICHVALUE` future-metadata blocks' rich value indexes, in order.
    private var richValueBlocks: [Int?] = []
    /// The `XLDAPR` future-metadata blocks: whether each marks a dynamic array.
    private var dynamicArrayBlocks: [Bool] = []
    /// The value-metadata records: (type index 1-based, block index 0-based) of their first `rc`.
    private var valueRecords: [(type: Int, block: Int)?] = []
    /// The cell-metadata records, alike.
    private var cellRecords: [(type: Int, block: Int)?] = []

    private var futureName: String?
    private var inValueMetadata = false
    private var inCellMetadata = false
    private var recordOpen = false

    /// The value-metadata records read (a cell's `vm` is 1 to this).
    var recordCount: Int { valueRecords.count }
    /// The cell-metadata records read (a cell's `cm` is 1 to this).
    var cellRecordCount: Int { cellRecords.count }

    /// Whether the array formula of a cell whose `cm` is `cellMetadata` is a dynamic array.
    func isDynamicArray(cellMetadata: Int) -> Bool {
        guard cellMetadata >= 1, cellMetadata <= cellRecords.count, let record = cellRecords[cellMetadata - 1],
              record.type >= 1, record.type <= typeNames.count, typeNames[record.type - 1] == "XLDAPR",
              record.block >= 0, record.block < dynamicArrayBlocks.count else { return false }
        return dynamicArrayBlocks[record.block]
    }

    /// The rich value (index into `rdrichvalue.xml`) of the cell whose `vm` is `valueMetadata`.
    func richValueIndex(valueMetadata: Int) -> Int? {
        guard valueMetadata >= 1, valueMetadata <= valueRecords.count, let record = valueRecords[valueMetadata - 1],
              record.type >= 1, record.type <= typeNames.count, typeNames[record.type - 1] == "XLRICHVALUE",
              record.block >= 0, record.block < richValueBlocks.count else { return nil }
        return richValueBlocks[record.block]
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        if name.isSpreadsheet("metadataType") {
            if typeNames.count < Self.recordLimit { typeNames.append(attributes.string("name") ?? "") }
        } else if name.isSpreadsheet("futureMetadata") {
            futureName = attributes.string("name")
        } else if name.isSpreadsheet("valueMetadata") {
            inValueMetadata = true
        } else if name.isSpreadsheet("cellMetadata") {
            inCellMetadata = true
        } else if name.isSpreadsheet("bk") {
            recordOpen = true
            if futureName == "XLRICHVALUE", richValueBlocks.count < Self.recordLimit { richValueBlocks.append(nil) }
            if futureName == "XLDAPR", dynamicArrayBlocks.count < Self.recordLimit { dynamicArrayBlocks.append(false) }
            if inValueMetadata, valueRecords.count < Self.recordLimit { valueRecords.append(nil) }
            if inCellMetadata, cellRecords.count < Self.recordLimit { cellRecords.append(nil) }
        } else if name.is("dynamicArrayProperties"), futureName == "XLDAPR", recordOpen, !dynamicArrayBlocks.isEmpty {
            dynamicArrayBlocks[dynamicArrayBlocks.count - 1] = attributes.bool("fDynamic")
        } else if name.is("rvb"), futureName == "XLRICHVALUE", recordOpen, !richValueBlocks.isEmpty,
                  richValueBlocks[richValueBlocks.count - 1] == nil {
            richValueBlocks[richValueBlocks.count - 1] = attributes.int("i")
        } else if name.isSpreadsheet("rc"), inValueMetadata, recordOpen, !valueRecords.isEmpty,
                  valueRecords[valueRecords.count - 1] == nil, let type = attributes.int("t"), let block = attributes.int("v") {
            valueRecords[valueRecords.count - 1] = (type, block)
        } else if name.isSpreadsheet("rc"), inCellMetadata, recordOpen, !cellRecords.isEmpty,
                  cellRecords[cellRecords.count - 1] == nil, let type = attributes.int("t"), let block = attributes.int("v") {
            cellRecords[cellRecords.count - 1] = (type, block)
        }
    }

    func endElement(_ name: XMLName) throws {
        if name.isSpreadsheet("futureMetadata") { futureName = nil }
        else if name.isSpreadsheet("valueMetadata") { inValueMetadata = false }
        else if name.isSpreadsheet("cellMetadata") { inCellMetadata = false }
        else if name.isSpreadsheet("bk") { recordOpen = false }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {}
}
