/// The formatting of a cell that Sheets keeps (Docs/Reference/Formats.md, "Cell JSONL"): bold, italic,
/// horizontal alignment, number format, fill colour and text colour.
///
/// The reader derives it from a cell format (`CellFormat.keptStyle`), the JSONL `style`
/// key spells it out, and the writer turns it back into `styles.xml` records.
public struct CellStyle: Hashable, Sendable {
    /// Bold font.
    public var isBold: Bool
    /// Italic font.
    public var isItalic: Bool
    /// `left`, `center`, `right`, `fill`, `justify`, `centerContinuous` or `distributed`; nil for general.
    public var horizontalAlignment: String?
    /// The number format code; `General` by default.
    public var numberFormat: String
    /// Solid fill colour, `#RRGGBB`.
    public var fillColor: String?
    /// Font colour, `#RRGGBB`.
    public var textColor: String?

    /// The default style: nothing set.
    public static let plain = CellStyle()

    /// Creates a style.
    public init(isBold: Bool = false, isItalic: Bool = false, horizontalAlignment: String? = nil,
                numberFormat: String = "General", fillColor: String? = nil, textColor: String? = nil) {
        self.isBold = isBold
        self.isItalic = isItalic
        self.horizontalAlignment = horizontalAlignment
        self.numberFormat = numberFormat
        self.fillColor = fillColor
        self.textColor = textColor
    }

    /// The horizontal alignments of `ST_HorizontalAlignment` other than `general`.
    public static let horizontalAlignments: Set<String> = [
        "left", "center", "right", "fill", "justify", "centerContinuous", "distributed",
    ]
}

