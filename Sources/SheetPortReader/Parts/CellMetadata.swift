/// What a cell's metadata indexes mean for its value and formula, from `xl/metadata.xml` and the
/// rich value parts: the errors Excel 365 stores as rich values (a cell's `vm`) and the array
/// formulas that are dynamic arrays (a cell's `cm`).
struct CellMetadata: Sendable {
    private var errorsByValueMetadata: [Int: String] = [:]
    private var dynamicArrayCellMetadata: Set<Int> = []

    /// Excel's error types of rich `_error` values (`ErrorCellValueType`) that have no `t="e"` code.
    static let errorTexts: [Int: String] = [
        8: "#SPILL!", 9: "#CONNECT!", 10: "#BLOCKED!", 11: "#UNKNOWN!", 12: "#FIELD!", 13: "#CALC!", 14: "#BUSY!",
    ]

    init() {}

    /// `errorTypes`: per rich value, its `errorType` when it is an `_error` value (empty without
    /// rich value parts).
    init(metadata: MetadataPart, errorTypes: [Int?]) {
        for valueMetadata in stride(from: 1, through: metadata.recordCount, by: 1) {
            if let index = metadata.richValueIndex(valueMetadata: valueMetadata), index >= 0,
               index < errorTypes.count, let type = errorTypes[index], let text = Self.errorTexts[type] {
                errorsByValueMetadata[valueMetadata] = text
            }
        }
        for cellMetadata in stride(from: 1, through: metadata.cellRecordCount, by: 1)
            where metadata.isDynamicArray(cellMetadata: cellMetadata) {
            dynamicArrayCellMetadata.insert(cellMetadata)
        }
    }

    /// The error a cell with this `vm` shows, when its rich value is one.
    func error(valueMetadata: Int) -> String? { errorsByValueMetadata[valueMetadata] }

    /// Whether an array formula in a cell with this `cm` is a dynamic array.
    func isDynamicArray(cellMetadata: Int) -> Bool { dynamicArrayCellMetadata.contains(cellMetadata) }

    /// Whether any `cm` can mean something: without a dynamic-array record the worksheet parse
    /// skips the attribute on every cell.
    var hasDynamicArrays: Bool { !dynamicArrayCellMetadata.isEmpty }

    /// Whether any `vm` can name an error: without one the worksheet parse skips the attribute.
    var hasRichErrors: Bool { !errorsByValueMetadata.isEmpty }
}
