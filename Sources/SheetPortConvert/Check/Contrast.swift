/// WCAG 2 relative luminance and contrast ratio of sRGB colours, for telling which
/// authored colour pairs are hard to read.
public enum Contrast {
    /// The ratio WCAG 2 (AA) asks of normal text: 4.5 to 1.
    public static let minimumRatio = 4.5

    /// The page and default text colours of a spreadsheet in light and dark mode.
    public enum Mode: String, Sendable, CaseIterable {
        case light, dark

        /// The background of a cell with no fill.
        public var background: UInt32 { self == .light ? 0xFFFFFF : 0x1F1F1F }
        /// The colour of text with no authored colour.
        public var text: UInt32 { self == .light ? 0x000000 : 0xE3E3E3 }
    }

    /// The relative luminance of `0xRRGGBB`, 0 (black) to 1 (white).
    public static func luminance(_ rgb: UInt32) -> Double {
        func linear(_ channel: UInt32) -> Double {
            let value = Double(channel & 0xFF) / 255
            return value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(rgb >> 16) + 0.7152 * linear(rgb >> 8) + 0.0722 * linear(rgb)
    }

    /// The contrast ratio of two colours, 1 (none) to 21 (black on white).
    public static func ratio(_ first: UInt32, _ second: UInt32) -> Double {
        let a = luminance(first), b = luminance(second)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// `#RRGGBB` to `0xRRGGBB`.
    public static func rgb(_ hex: String) -> UInt32? {
        guard hex.hasPrefix("#"), hex.utf8.count == 7 else { return nil }
        return UInt32(hex.dropFirst(), radix: 16)
    }

    /// The modes in which text of `textColor` on `fillColor` (`#RRGGBB`, nil when not
    /// authored: the mode's default) reads below `minimumRatio`, with the ratio.
    public static func poorModes(text textColor: String?, fill fillColor: String?) -> [(mode: Mode, ratio: Double)] {
        let text = textColor.flatMap(rgb), fill = fillColor.flatMap(rgb)
        guard text != nil || fill != nil else { return [] }
        return Mode.allCases.compactMap { mode in
            let ratio = ratio(text ?? mode.text, fill ?? mode.background)
            return ratio < minimumRatio ? (mode, ratio) : nil
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
