/// Reads the colour scheme of a theme part (`xl/theme/theme1.xml`).
final class ThemePart: XMLHandler {
    /// The scheme's colours in document order: dk1, lt1, dk2, lt2, accent1-6, hlink, folHlink.
    private(set) var schemeColors: [String: UInt32] = [:]
    private var current: String?
    private var inScheme = false

    /// Theme colours in the order cell formats index them: Excel swaps the first two pairs,
    /// so `theme="0"` is lt1 (background 1) and `theme="1"` is dk1 (text 1).
    var indexedColors: [UInt32?] {
        ["lt1", "dk1", "lt2", "dk2", "accent1", "accent2", "accent3", "accent4", "accent5", "accent6",
         "hlink", "folHlink"].map { schemeColors[$0] }
    }

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        guard name.namespace == .drawing else { return }
        if name.is("clrScheme") {
            inScheme = true
        } else if inScheme, current == nil {
            current = name.localName
        } else if inScheme, let current {
            let hex = name.is("srgbClr") ? attributes.string("val") : name.is("sysClr") ? attributes.string("lastClr") : nil
            if let hex, let rgb = UInt32(hex, radix: 16) { schemeColors[current] = rgb & 0xFF_FFFF }
        }
    }

    func endElement(_ name: XMLName) throws {
        guard name.namespace == .drawing else { return }
        if name.is("clrScheme") {
            inScheme = false
        } else if let current, name.localName == current {
            self.current = nil
        }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {}
}
