#if canImport(Glibc)
import Glibc
#endif
import CNcurses
import SheetPortConvert

/// How a piece of the screen is drawn: attributes (bold, reverse, underline) and a colour pair,
/// kept apart because ncurses' `COLOR_PAIR` holds only 256 pairs and authored colours need more
/// (`attr_set` takes the extended pair number).
struct TerminalLook: Equatable {
    var attributes: Int32
    var pair: Int32
}

/// The grid's colour pairs: the theme's (light or dark) and one per authored fill and text
/// colour, drawn as exactly as the terminal allows (`TerminalColors.Depth`).
final class TerminalColors {
    /// How the terminal shows a colour, best first.
    enum Depth: String {
        /// 24-bit: the terminal description says so (`RGB`, as `xterm-direct` and
        /// `tmux-direct` do); a colour's number is its RGB value.
        case direct
        /// The terminal lets palette entries be redefined (`can_change_color`): exact colours,
        /// as many as the palette has.
        case palette
        /// The nearest of the 256-colour cube and grey ramp.
        case indexed256
        /// The nearest of the 8 basic colours.
        case basic
        /// No colours at all.
        case none
    }

    let theme: Contrast.Mode
    let depth: Depth
    private(set) var base = TerminalLook(attributes: 0, pair: 0), header = TerminalLook(attributes: 0, pair: 0)
    private(set) var status = TerminalLook(attributes: 0, pair: 0), active = TerminalLook(attributes: 0, pair: 0)
    private var pairs: [String: Int32] = [:]
    private var definedColors: [UInt32: Int32] = [:]
    private var nextPair: Int32 = 8, nextColor: Int32 = 16

    init(theme: Contrast.Mode) {
        self.theme = theme
        guard has_colors() else {
            depth = .none
            header.attributes = sp_attr_bold(); status.attributes = sp_attr_reverse(); active.attributes = sp_attr_reverse() | sp_attr_underline()
            return
        }
        start_color()
        if sp_terminal_has_rgb() != 0 || sp_colors() >= 1 << 24 {
            depth = .direct
        } else if can_change_color() {
            depth = .palette
        } else {
            depth = sp_colors() >= 256 ? .indexed256 : .basic
        }
        let background = color(theme.background), text = color(theme.text)
        let muted = color(theme == .dark ? 0x3A3A3A : 0xE0E0E0)
        init_extended_pair(1, text, background)
        init_extended_pair(2, text, muted)
        init_extended_pair(3, theme == .dark ? color(0x1F1F1F) : color(0xFFFFFF), theme == .dark ? color(0x8AB4F8) : color(0x1A73E8))
        init_extended_pair(4, text, theme == .dark ? color(0x2D4A6F) : color(0xC6DAFC))
        bkgd(chtype(sp_color_pair(1)))
        base = TerminalLook(attributes: 0, pair: 1)
        header = TerminalLook(attributes: sp_attr_bold(), pair: 2)
        status = TerminalLook(attributes: 0, pair: 3)
        active = TerminalLook(attributes: sp_attr_underline(), pair: 4)
    }

    /// The look of a cell's authored colours (`#RRGGBB`), the theme's where none is authored.
    func look(fill: String?, color textColor: String?) -> TerminalLook {
        guard depth != .none, fill != nil || textColor != nil else { return base }
        let key = "\(fill ?? "-")/\(textColor ?? "-")"
        if let pair = pairs[key] { return TerminalLook(attributes: 0, pair: pair) }
        guard nextPair < min(sp_color_pairs(), 65_536) else { return base }
        let foreground = color(textColor.flatMap(Contrast.rgb) ?? theme.text)
        let background = color(fill.flatMap(Contrast.rgb) ?? theme.background)
        guard init_extended_pair(nextPair, foreground, background) != ERR else { return base }
        pairs[key] = nextPair
        nextPair += 1
        return TerminalLook(attributes: 0, pair: nextPair - 1)
    }

    /// The terminal's colour number for `rgb` at this depth.
    private func color(_ rgb: UInt32) -> Int32 {
        let red = Int((rgb >> 16) & 0xFF), green = Int((rgb >> 8) & 0xFF), blue = Int(rgb & 0xFF)
        switch depth {
        case .direct:
            // Numbers below 8 are the terminal's own basic colours in direct-colour
            // descriptions (`setaf` sends `30+n` for them): a near-black takes 8 (#000008).
            return Int32(rgb < 8 ? 8 : rgb)
        case .palette:
            if let defined = definedColors[rgb] { return defined }
            if nextColor < sp_colors(),
               init_extended_color(nextColor, Int32(red * 1000 / 255), Int32(green * 1000 / 255), Int32(blue * 1000 / 255)) != ERR {
                definedColors[rgb] = nextColor
                nextColor += 1
                return nextColor - 1
            }
            // The palette is full: the nearest of what the terminal has.
            return sp_colors() >= 256 ? Self.nearest256(red, green, blue) : Self.nearest8(red, green, blue)
        case .indexed256: return Self.nearest256(red, green, blue)
        case .basic, .none: return Self.nearest8(red, green, blue)
        }
    }

    /// The nearest of the 256-colour cube (16-231) and grey ramp (232-255).
    static func nearest256(_ red: Int, _ green: Int, _ blue: Int) -> Int32 {
        func level(_ value: Int) -> Int { value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40 }
        let cube = 16 + 36 * level(red) + 6 * level(green) + level(blue)
        let grey = (red + green + blue) / 3
        let greyIndex = grey > 238 ? 255 : 232 + max(0, (grey - 3) / 10)
        let isGrey = abs(red - green) < 12 && abs(green - blue) < 12
        return Int32(isGrey ? greyIndex : cube)
    }

    /// The nearest of the 8 basic colours.
    static func nearest8(_ red: Int, _ green: Int, _ blue: Int) -> Int32 {
        Int32((red > 127 ? 1 : 0) | (green > 127 ? 2 : 0) | (blue > 127 ? 4 : 0))
    }

    /// The terminal description to use instead of `TERM`'s when the terminal announces 24-bit
    /// colour (`COLORTERM=truecolor` or `24bit`, as most terminal emulators and tmux set it) but
    /// `TERM` names a palette one: the same family's direct-colour entry (`xterm-256color` ->
    /// `xterm-direct`, `tmux-256color` -> `tmux-direct`) when the terminfo database has it.
    /// Nil: `TERM` as it is.
    static func directTerminal(environment: [String: String]) -> String? {
        guard let term = environment["TERM"], !term.isEmpty,
              let announced = environment["COLORTERM"]?.lowercased(), announced == "truecolor" || announced == "24bit" else { return nil }
        if sp_terminal_name_has_rgb(term) != 0 { return nil }
        let family = term.split(separator: "-").first.map(String.init) ?? term
        let candidate = family + "-direct"
        return sp_terminal_name_has_rgb(candidate) != 0 ? candidate : nil
    }
}
