import SheetPortCore

extension ColorSpec {
    /// Reads the attributes of a `<color>`, `<fgColor>` or `<bgColor>` element.
    init(_ attributes: XMLAttributes) {
        self.init()
        if let hex = attributes.string("rgb"), let value = UInt32(hex.suffix(6), radix: 16) { rgb = value }
        theme = attributes.int("theme")
        indexed = attributes.int("indexed")
        tint = attributes.double("tint") ?? 0
        isAutomatic = attributes.bool("auto")
    }
}
