import SheetPortCore
/// The formatting of one cell format (`cellXfs/xf`), resolved: what Sheets keeps, and
/// what it does not keep, so `check` can say so.
public struct CellFormat: Sendable, Equatable {
    /// `numFmtId`.
    public var numberFormatID = 0
    /// The format code (built-in or custom); `General` by default.
    public var numberFormat = "General"
    /// Whether numbers in this format are dates or times.
    public var isDate = false
    /// Whether the date format shows elapsed time (`[h]:mm:ss`).
    public var isDuration = false
    /// Bold font.
    public var isBold = false
    /// Italic font.
    public var isItalic = false
    /// `alignment horizontal` (`left`, `center`, `right`, `fill`, `justify`, ...), nil for general.
    public var horizontalAlignment: String?
    /// Solid fill colour, `#RRGGBB`.
    public var fillColor: String?
    /// Font colour, `#RRGGBB`.
    public var textColor: String?
    /// Underlined font (not kept by Sheets).
    public var isUnderlined = false
    /// Struck-through font (not kept by Sheets).
    public var isStruckThrough = false
    /// Font name and size (not kept by Sheets).
    public var fontName: String?
    /// Font size in points.
    public var fontSize: Double?
    /// Whether any border is drawn (not kept by Sheets).
    public var hasBorder = false
    /// A fill that is a pattern other than solid (not kept by Sheets).
    public var hasPatternFill = false

    /// The default format.
    public init() {}
}

/// The cell formats of `styles.xml`, indexed by a cell's `s` attribute.
public struct Styles: Sendable {
    /// `cellXfs`, resolved; index 0 is the default.
    public var cellFormats: [CellFormat] = [CellFormat()]
    /// The custom number formats of `numFmts` by `numFmtId`, the ones no cell format uses too.
    public var numberFormatCodes: [Int: String] = [:]
    /// Per cell format, how its numbers read (the hot-path lookup).
    var numberKinds: [NumberKind] = [.number]

    /// How a cell format makes a number read.
    enum NumberKind { case number, date, duration }

    /// The format of a cell's style index (the default for an index out of range).
    public func format(_ index: Int) -> CellFormat {
        index >= 0 && index < cellFormats.count ? cellFormats[index] : cellFormats[0]
    }

    /// How numbers with a style index read.
    @inline(__always)
    func numberKind(_ index: Int) -> NumberKind {
        index >= 0 && index < numberKinds.count ? numberKinds[index] : .number
    }

    /// Reads `styles.xml`, resolving colours with the theme's.
    static func read(_ entry: ZipArchive.Entry?, theme: [UInt32?], in archive: ZipArchive) throws -> Styles {
        guard let entry else { return Styles() }
        let handler = StylesPart()
        try XMLPushParser.parse(entry, in: archive, with: handler)
        return handler.resolve(theme: theme)
    }
}

/// Reads `styles.xml` into raw tables, then resolves them into `Styles`.
final class StylesPart: XMLHandler {
    private struct Font {
        var bold = false, italic = false, underline = false, strike = false
        var color: ColorSpec?
        var name: String?
        var size: Double?
    }
    private struct Fill {
        var pattern: String?
        var foreground: ColorSpec?
    }
    private struct Xf {
        var numberFormatID = 0, fontID = 0, fillID = 0, borderID = 0
        var horizontal: String?
    }

    private var numberFormats: [Int: String] = [:]
    private var fonts: [Font] = []
    private var fills: [Fill] = []
    private var borders: [Bool] = []
    private var xfs: [Xf] = []
    private var palette = ColorSpec.defaultPalette
    private var customPalette: [UInt32] = []
    private var section: Section = .other
    private enum Section { case other, numberFormats, fonts, fills, borders, cellXfs, indexedColors }
    /// Elements open, `styleSheet` included: the tables are read only as its children
    /// (depth 2), so the `numFmt` of a differential format (`dxfs/dxf`, an extension's
    /// `x14:dxfs`) never redefines a number format of the cells.
    private var depth = 0

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        depth += 1
        guard name.namespace == .spreadsheet || name.namespace == .none else { return }
        switch section {
        case .numberFormats:
            if name.is("numFmt"), let id = attributes.int("numFmtId"), let code = attributes.string("formatCode") {
                numberFormats[id] = code.isEmpty ? "General" : code // Excel shows an empty code as General
            }
        case .fonts:
            if name.is("font") { fonts.append(Font()) }
            guard !fonts.isEmpty else { return }
            let isOn = attributes.bool("val", default: true)
            if name.is("b") { fonts[fonts.count - 1].bold = isOn }
            else if name.is("i") { fonts[fonts.count - 1].italic = isOn }
            else if name.is("u") { fonts[fonts.count - 1].underline = attributes.string("val") != "none" }
            else if name.is("strike") { fonts[fonts.count - 1].strike = isOn }
            else if name.is("color") { fonts[fonts.count - 1].color = ColorSpec(attributes) }
            else if name.is("name") { fonts[fonts.count - 1].name = attributes.string("val") }
            else if name.is("sz") { fonts[fonts.count - 1].size = attributes.double("val") }
        case .fills:
            if name.is("fill") { fills.append(Fill()) }
            guard !fills.isEmpty else { return }
            if name.is("patternFill") { fills[fills.count - 1].pattern = attributes.string("patternType") ?? "none" }
            else if name.is("fgColor") { fills[fills.count - 1].foreground = ColorSpec(attributes) }
            else if name.is("gradientFill") { fills[fills.count - 1].pattern = "gradient" }
        case .borders:
            if name.is("border") { borders.append(false) }
            else if !borders.isEmpty, let style = attributes.string("style"), style != "none" { borders[borders.count - 1] = true }
        case .cellXfs:
            if name.is("xf") {
                xfs.append(Xf(numberFormatID: attributes.int("numFmtId") ?? 0, fontID: attributes.int("fontId") ?? 0,
                              fillID: attributes.int("fillId") ?? 0, borderID: attributes.int("borderId") ?? 0))
            } else if name.is("alignment"), !xfs.isEmpty {
                xfs[xfs.count - 1].horizontal = attributes.string("horizontal")
            }
        case .indexedColors:
            if name.is("rgbColor"), let hex = attributes.string("rgb"), let rgb = UInt32(hex.suffix(6), radix: 16) {
                customPalette.append(rgb)
            }
        case .other:
            guard depth == 2 else { return }
            if name.is("numFmts") { section = .numberFormats }
            else if name.is("fonts") { section = .fonts }
            else if name.is("fills") { section = .fills }
            else if name.is("borders") { section = .borders }
            else if name.is("cellXfs") { section = .cellXfs }
            else if name.is("indexedColors") { section = .indexedColors }
        }
    }

    func endElement(_ name: XMLName) throws {
        depth -= 1
        guard depth == 1, name.namespace == .spreadsheet || name.namespace == .none else { return }
        if name.is("numFmts") || name.is("fonts") || name.is("fills") || name.is("borders") || name.is("cellXfs") || name.is("indexedColors") {
            section = .other
        }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {}

    func resolve(theme: [UInt32?]) -> Styles {
        for (index, rgb) in customPalette.enumerated() where index < palette.count { palette[index] = rgb }
        var styles = Styles()
        styles.numberFormatCodes = numberFormats
        guard !xfs.isEmpty else { return styles }
        styles.cellFormats = xfs.map { xf in
            var format = CellFormat()
            format.numberFormatID = xf.numberFormatID
            let code = numberFormats[xf.numberFormatID] ?? NumberFormat.builtInCode(xf.numberFormatID)
            format.numberFormat = code ?? "General"
            format.isDate = code.map(NumberFormat.isDateFormat) ?? NumberFormat.isBuiltInDate(xf.numberFormatID)
            format.isDuration = code.map(NumberFormat.isElapsedTimeFormat) ?? false
            if xf.fontID >= 0, xf.fontID < fonts.count {
                let font = fonts[xf.fontID]
                format.isBold = font.bold
                format.isItalic = font.italic
                format.isUnderlined = font.underline
                format.isStruckThrough = font.strike
                format.fontName = font.name
                format.fontSize = font.size
                format.textColor = font.color?.resolved(theme: theme, palette: palette)
            }
            if xf.fillID >= 0, xf.fillID < fills.count {
                let fill = fills[xf.fillID]
                if fill.pattern == "solid" {
                    format.fillColor = fill.foreground?.resolved(theme: theme, palette: palette)
                } else if let pattern = fill.pattern, pattern != "none" {
                    format.hasPatternFill = true
                }
            }
            format.hasBorder = xf.borderID >= 0 && xf.borderID < borders.count && borders[xf.borderID]
            if let horizontal = xf.horizontal, horizontal != "general" { format.horizontalAlignment = horizontal }
            return format
        }
        styles.numberKinds = styles.cellFormats.map { $0.isDuration ? .duration : $0.isDate ? .date : .number }
        return styles
    }
}

extension CellFormat {
    /// What Sheets keeps of this format, with colours equal to `base`'s (the workbook's
    /// default format) left out, as they are the defaults of the sheet.
    public func keptStyle(relativeTo base: CellFormat) -> CellStyle {
        CellStyle(isBold: isBold, isItalic: isItalic, horizontalAlignment: horizontalAlignment,
                  numberFormat: numberFormat,
                  fillColor: fillColor == base.fillColor ? nil : fillColor,
                  textColor: textColor == base.textColor ? nil : textColor)
    }
}
