import SheetPortCore
/// The style table of a workbook being written, and its part `xl/styles.xml`.
///
/// Each distinct `CellStyle` becomes one cell format (`cellXfs/xf`); fonts, fills and
/// number formats are shared between the formats that use the same ones.
struct StylesWriter {
    private var formats: [CellStyle] = [.plain]
    private var formatIndex: [CellStyle: Int] = [.plain: 0]
    private var dateVariants: [Int: Int] = [:]

    private struct FontKey: Hashable { var isBold: Bool; var isItalic: Bool; var color: String? }

    /// The number of cell formats.
    var count: Int { formats.count }

    /// The cell format index of `style`, adding it when new.
    mutating func index(of style: CellStyle) throws -> Int {
        if let index = formatIndex[style] { return index }
        try Self.validate(style)
        let index = formats.count
        formats.append(style)
        formatIndex[style] = index
        return index
    }

    /// The style at `index`.
    func style(_ index: Int) -> CellStyle { formats[index] }

    /// A format like `index` that shows dates (or elapsed time), for a date value written
    /// with a style that has no date format: the value must read back as a date.
    mutating func dateFormat(for index: Int, duration: Bool, hasTime: Bool) throws -> Int {
        let key = index * 4 + (duration ? 2 : 0) + (hasTime ? 1 : 0)
        if let variant = dateVariants[key] { return variant }
        let style = formats[index]
        var variant = style
        variant.numberFormat = Self.dateNumberFormat(of: style, duration: duration, hasTime: hasTime)
        let variantIndex = variant == style ? index : try self.index(of: variant)
        dateVariants[key] = variantIndex
        return variantIndex
    }

    /// The number format a date (or elapsed time) written with `style` shows in: the style's
    /// own when it shows dates (elapsed time), else ISO 8601 (`[h]:mm:ss`).
    static func dateNumberFormat(of style: CellStyle, duration: Bool, hasTime: Bool) -> String {
        let isRight = NumberFormat.isDateFormat(style.numberFormat)
            && NumberFormat.isElapsedTimeFormat(style.numberFormat) == duration
        return isRight ? style.numberFormat : duration ? "[h]:mm:ss" : hasTime ? "yyyy-mm-dd hh:mm:ss" : "yyyy-mm-dd"
    }

    private static func validate(_ style: CellStyle) throws {
        for color in [style.fillColor, style.textColor].compactMap({ $0 }) where hexColor(color) == nil {
            throw WriterError.invalidArgument("colour \"\(color)\" is not #RRGGBB")
        }
        if let horizontal = style.horizontalAlignment, !CellStyle.horizontalAlignments.contains(horizontal) {
            throw WriterError.invalidArgument("horizontal alignment \"\(horizontal)\" is not one of "
                + CellStyle.horizontalAlignments.sorted().joined(separator: ", "))
        }
        if style.numberFormat.isEmpty || style.numberFormat.utf16.count > 255 {
            throw WriterError.invalidArgument("number format \"\(style.numberFormat)\" must have 1 to 255 characters")
        }
    }

    /// `#RRGGBB` (either case) as Excel's `FFRRGGBB`.
    static func hexColor(_ color: String) -> String? {
        let digits = color.utf8.dropFirst()
        guard color.utf8.first == UInt8(ascii: "#"), digits.count == 6,
              digits.allSatisfy({ ASCII.hexValue($0) != nil }) else { return nil }
        return "FF" + color.dropFirst().uppercased()
    }

    /// `xl/styles.xml`: fonts, fills and number formats are numbered here, each once.
    func part() -> [UInt8] {
        let plainFont = FontKey(isBold: false, isItalic: false, color: nil)
        var fonts: [FontKey] = [plainFont]
        var fontIndex: [FontKey: Int] = [plainFont: 0]
        var fills: [String?] = [nil, nil] // none and gray125 come first, as Excel requires
        var fillIndex: [String: Int] = [:]
        var numberFormats: [String: Int] = [:]
        var customs: [(Int, String)] = []
        var records: [(numFmt: Int, font: Int, fill: Int, style: CellStyle)] = []
        for style in formats {
            let font = FontKey(isBold: style.isBold, isItalic: style.isItalic, color: style.textColor)
            let fontID = fontIndex[font] ?? { fonts.append(font); fontIndex[font] = fonts.count - 1; return fonts.count - 1 }()
            var fillID = 0
            if let color = style.fillColor {
                fillID = fillIndex[color] ?? { fills.append(color); fillIndex[color] = fills.count - 1; return fills.count - 1 }()
            }
            let numFmtID = NumberFormat.builtInID(style.numberFormat) ?? numberFormats[style.numberFormat] ?? {
                let id = 164 + customs.count
                customs.append((id, style.numberFormat))
                numberFormats[style.numberFormat] = id
                return id
            }()
            records.append((numFmtID, fontID, fillID, style))
        }

        var xml = XMLWriter()
        xml.declaration()
        xml.raw("<styleSheet xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\">")
        if !customs.isEmpty {
            xml.raw("<numFmts count=\""); xml.int(customs.count); xml.raw("\">")
            for (id, code) in customs {
                xml.raw("<numFmt numFmtId=\""); xml.int(id); xml.raw("\" formatCode=\"")
                xml.attribute(code); xml.raw("\"/>")
            }
            xml.raw("</numFmts>")
        }
        xml.raw("<fonts count=\""); xml.int(fonts.count); xml.raw("\">")
        for font in fonts {
            xml.raw("<font>")
            if font.isBold { xml.raw("<b/>") }
            if font.isItalic { xml.raw("<i/>") }
            xml.raw("<sz val=\"11\"/>")
            if let color = font.color.flatMap(Self.hexColor) { xml.raw("<color rgb=\""); xml.raw(color); xml.raw("\"/>") }
            xml.raw("<name val=\"Calibri\"/><family val=\"2\"/></font>")
        }
        xml.raw("</fonts><fills count=\""); xml.int(fills.count); xml.raw("\">")
        xml.raw("<fill><patternFill patternType=\"none\"/></fill><fill><patternFill patternType=\"gray125\"/></fill>")
        for color in fills.dropFirst(2).compactMap({ $0.flatMap(Self.hexColor) }) {
            xml.raw("<fill><patternFill patternType=\"solid\"><fgColor rgb=\""); xml.raw(color)
            xml.raw("\"/><bgColor indexed=\"64\"/></patternFill></fill>")
        }
        xml.raw("</fills><borders count=\"1\"><border><left/><right/><top/><bottom/><diagonal/></border></borders>")
        xml.raw("<cellStyleXfs count=\"1\"><xf numFmtId=\"0\" fontId=\"0\" fillId=\"0\" borderId=\"0\"/></cellStyleXfs>")
        xml.raw("<cellXfs count=\""); xml.int(records.count); xml.raw("\">")
        for record in records {
            xml.raw("<xf numFmtId=\""); xml.int(record.numFmt)
            xml.raw("\" fontId=\""); xml.int(record.font)
            xml.raw("\" fillId=\""); xml.int(record.fill)
            xml.raw("\" borderId=\"0\" xfId=\"0\"")
            if record.numFmt != 0 { xml.raw(" applyNumberFormat=\"1\"") }
            if record.font != 0 { xml.raw(" applyFont=\"1\"") }
            if record.fill != 0 { xml.raw(" applyFill=\"1\"") }
            if let horizontal = record.style.horizontalAlignment {
                xml.raw(" applyAlignment=\"1\"><alignment horizontal=\""); xml.attribute(horizontal); xml.raw("\"/></xf>")
            } else {
                xml.raw("/>")
            }
        }
        xml.raw("</cellXfs><cellStyles count=\"1\"><cellStyle name=\"Normal\" xfId=\"0\" builtinId=\"0\"/></cellStyles>")
        xml.raw("<dxfs count=\"0\"/><tableStyles count=\"0\" defaultTableStyle=\"TableStyleMedium2\" defaultPivotStyle=\"PivotStyleLight16\"/>")
        xml.raw("</styleSheet>")
        return xml.bytes
    }
}
