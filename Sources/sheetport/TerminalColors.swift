#if canImport(Glibc)
import Glibc
#endif
import CNcurses
import SheetPortConvert

/// The grid's colour pairs: the theme's (light or dark) and one per authored fill and text
/// colour, exact (24-bit) where the terminal can define colours, else the nearest of its 256 or 8.
final class TerminalColors {
    let theme: Contrast.Mode
    private(set) var base: Int32 = 0, header: Int32 = 0, status: Int32 = 0, active: Int32 = 0
    private var pairs: [String: Int32] = [:]
    private var definedColors: [UInt32: Int32] = [:]
    private var nextPair: Int32 = 8, nextColor: Int32 = 16
    private let hasColor: Bool

    init(theme: Contrast.Mode) {
        self.theme = theme
        hasColor = has_colors()
        guard hasColor else {
            header = sp_attr_bold(); status = sp_attr_reverse(); active = sp_attr_reverse() | sp_attr_underline()
            return
        }
        start_color()
        let background = color(theme.background), text = color(theme.text)
        let muted = color(theme == .dark ? 0x3A3A3A : 0xE0E0E0)
        init_pair(1, text, background)
        init_pair(2, text, muted)
        init_pair(3, theme == .dark ? color(0x1F1F1F) : color(0xFFFFFF), theme == .dark ? color(0x8AB4F8) : color(0x1A73E8))
        init_pair(4, text, theme == .dark ? color(0x2D4A6F) : color(0xC6DAFC))
        bkgd(chtype(sp_color_pair(1)))
        base = sp_color_pair(1)
        header = sp_color_pair(2) | sp_attr_bold()
        status = sp_color_pair(3)
        active = sp_color_pair(4) | sp_attr_underline()
    }

    /// The pair for a cell's authored colours (`#RRGGBB`), the theme's where none is authored.
    func attributes(fill: String?, color textColor: String?) -> Int32 {
        guard hasColor, fill != nil || textColor != nil else { return base }
        let key = "\(fill ?? "-")/\(textColor ?? "-")"
        if let pair = pairs[key] { return sp_color_pair(pair) }
        guard nextPair < sp_color_pairs() - 1, nextPair < 32_000 else { return base }
        let foreground = color(textColor.flatMap(Contrast.rgb) ?? theme.text)
        let background = color(fill.flatMap(Contrast.rgb) ?? theme.background)
        init_pair(Int16(nextPair), foreground, background)
        pairs[key] = nextPair
        nextPair += 1
        return sp_color_pair(pairs[key]!)
    }

    /// A colour number for `rgb`: defined exactly when the terminal lets colours be changed, else
    /// the nearest of the 256-colour cube and grey ramp, or of the 8 basic colours.
    private func color(_ rgb: UInt32) -> Int16 {
        if let defined = definedColors[rgb] { return Int16(defined) }
        let red = Int((rgb >> 16) & 0xFF), green = Int((rgb >> 8) & 0xFF), blue = Int(rgb & 0xFF)
        if can_change_color(), nextColor < sp_colors(), nextColor < 32_000 {
            init_color(Int16(nextColor), Int16(red * 1000 / 255), Int16(green * 1000 / 255), Int16(blue * 1000 / 255))
            definedColors[rgb] = nextColor
            nextColor += 1
            return Int16(nextColor - 1)
        }
        if sp_colors() >= 256 {
            func level(_ value: Int) -> Int { value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40 }
            let cube = 16 + 36 * level(red) + 6 * level(green) + level(blue)
            let grey = (red + green + blue) / 3
            let greyIndex = grey > 238 ? 255 : 232 + max(0, (grey - 3) / 10)
            let isGrey = abs(red - green) < 12 && abs(green - blue) < 12
            return Int16(isGrey ? greyIndex : cube)
        }
        let index = (red > 127 ? 1 : 0) | (green > 127 ? 2 : 0) | (blue > 127 ? 4 : 0)
        return Int16(index)
    }
}
