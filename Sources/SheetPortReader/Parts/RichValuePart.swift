/// Reads the rich value parts (`xl/richData/rdrichvalue.xml` and `rdrichvaluestructure.xml`)
/// for the one kind a cell value needs: `_error` values, whose `errorType` key names the error
/// Excel shows in the cell.
final class RichValueStructurePart: XMLHandler {
    /// Per structure: whether it is `_error`, and the position of its `errorType` key.
    private(set) var errorTypePositions: [Int?] = []
    private var isError = false
    private var keyCount = 0

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        if name.is("s"), errorTypePositions.count < MetadataPart.recordLimit {
            isError = attributes.string("t") == "_error"
            keyCount = 0
            errorTypePositions.append(nil)
        } else if name.is("k"), !errorTypePositions.isEmpty {
            if isError, attributes.string("n") == "errorType" { errorTypePositions[errorTypePositions.count - 1] = keyCount }
            keyCount += 1
        }
    }

    func endElement(_ name: XMLName) throws {}
    func characters(_ text: UnsafeBufferPointer<UInt8>) {}
}

/// The `rv` records of `rdrichvalue.xml`: the `errorType` of each `_error` one.
final class RichValuePart: XMLHandler {
    private let errorTypePositions: [Int?]
    /// Per rich value: its error type, when it is an `_error` value.
    private(set) var errorTypes: [Int?] = []
    private var position: Int?
    private var valueIndex = 0
    private var inValue = false
    private var text: [UInt8] = []

    init(errorTypePositions: [Int?]) { self.errorTypePositions = errorTypePositions }

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        if name.is("rv"), errorTypes.count < MetadataPart.recordLimit {
            let structure = attributes.int("s") ?? -1
            position = structure >= 0 && structure < errorTypePositions.count ? errorTypePositions[structure] : nil
            valueIndex = 0
            errorTypes.append(nil)
        } else if name.is("v") {
            inValue = true
            text.removeAll(keepingCapacity: true)
        }
    }

    func endElement(_ name: XMLName) throws {
        guard name.is("v"), inValue else { return }
        inValue = false
        if let position, position == valueIndex, !errorTypes.isEmpty {
            errorTypes[errorTypes.count - 1] = Int(String(decoding: text, as: UTF8.self).trimmingSpaces)
        }
        valueIndex += 1
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        if inValue, self.text.count < 32 { self.text.append(contentsOf: text.prefix(32)) }
    }
}
