/// A colour as SpreadsheetML writes it: RGB, theme index, palette index or automatic, with a tint.
public struct ColorSpec: Sendable, Equatable {
    /// `rgb="AARRGGBB"` (alpha dropped).
    public var rgb: UInt32?
    /// `theme="N"`.
    public var theme: Int?
    /// `indexed="N"`.
    public var indexed: Int?
    /// `tint`, -1 to 1.
    public var tint: Double = 0
    /// `auto="1"`: the application's default.
    public var isAutomatic = false

    /// An automatic colour with nothing set.
    package init() {}


    /// The colour as `#RRGGBB`, with theme and palette resolved and the tint applied;
    /// nil when automatic or unresolvable.
    package func resolved(theme themeColors: [UInt32?], palette: [UInt32]) -> String? {
        var base: UInt32?
        if let rgb {
            base = rgb
        } else if let theme, theme >= 0, theme < themeColors.count {
            base = themeColors[theme]
        } else if let indexed, indexed >= 0, indexed < palette.count {
            base = palette[indexed]
        }
        guard !isAutomatic || rgb != nil, let base else { return nil }
        return Self.hex(tint == 0 ? base : Self.apply(tint: tint, to: base))
    }

    static func hex(_ rgb: UInt32) -> String {
        let digits = String(rgb & 0xFF_FFFF, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: 6 - digits.count) + digits
    }

    /// Excel's tint: the HLS luminance scaled towards black (tint < 0) or white (tint > 0).
    static func apply(tint: Double, to rgb: UInt32) -> UInt32 {
        let r = Double(rgb >> 16 & 0xFF) / 255, g = Double(rgb >> 8 & 0xFF) / 255, b = Double(rgb & 0xFF) / 255
        let maximum = max(r, g, b), minimum = min(r, g, b)
        var lightness = (maximum + minimum) / 2
        let delta = maximum - minimum
        var hue = 0.0, saturation = 0.0
        if delta > 0 {
            saturation = lightness < 0.5 ? delta / (maximum + minimum) : delta / (2 - maximum - minimum)
            if maximum == r { hue = (g - b) / delta + (g < b ? 6 : 0) }
            else if maximum == g { hue = (b - r) / delta + 2 }
            else { hue = (r - g) / delta + 4 }
            hue /= 6
        }
        lightness = tint < 0 ? lightness * (1 + tint) : lightness * (1 - tint) + tint
        func channel(_ t: Double, _ p: Double, _ q: Double) -> Double {
            var t = t
            if t < 0 { t += 1 }
            if t > 1 { t -= 1 }
            if t < 1.0 / 6 { return p + (q - p) * 6 * t }
            if t < 0.5 { return q }
            if t < 2.0 / 3 { return p + (q - p) * (2.0 / 3 - t) * 6 }
            return p
        }
        var red = lightness, green = lightness, blue = lightness
        if saturation > 0 {
            let q = lightness < 0.5 ? lightness * (1 + saturation) : lightness + saturation - lightness * saturation
            let p = 2 * lightness - q
            red = channel(hue + 1.0 / 3, p, q)
            green = channel(hue, p, q)
            blue = channel(hue - 1.0 / 3, p, q)
        }
        func byte(_ value: Double) -> UInt32 { UInt32(max(0, min(255, (value * 255).rounded()))) }
        return byte(red) << 16 | byte(green) << 8 | byte(blue)
    }

    /// The default 64-colour palette of `indexed` colours (ECMA-376 §18.8.27), plus
    /// 64 (system foreground, black) and 65 (system background, white).
    package static let defaultPalette: [UInt32] = [
        0x000000, 0xFFFFFF, 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0xFF00FF, 0x00FFFF,
        0x000000, 0xFFFFFF, 0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00, 0xFF00FF, 0x00FFFF,
        0x800000, 0x008000, 0x000080, 0x808000, 0x800080, 0x008080, 0xC0C0C0, 0x808080,
        0x9999FF, 0x993366, 0xFFFFCC, 0xCCFFFF, 0x660066, 0xFF8080, 0x0066CC, 0xCCCCFF,
        0x000080, 0xFF00FF, 0xFFFF00, 0x00FFFF, 0x800080, 0x800000, 0x008080, 0x0000FF,
        0x00CCFF, 0xCCFFFF, 0xCCFFCC, 0xFFFF99, 0x99CCFF, 0xFF99CC, 0xCC99FF, 0xFFCC99,
        0x3366FF, 0x33CCCC, 0x99CC00, 0xFFCC00, 0xFF9900, 0xFF6600, 0x666699, 0x969696,
        0x003366, 0x339966, 0x003300, 0x333300, 0x993300, 0x993366, 0x333399, 0x333333,
        0x000000, 0xFFFFFF,
    ]
}
