import Foundation
import Testing
@testable import SheetPortCore
import SheetPortTestSupport

/// `NumberFormatRenderer` is total (issue 35, attack 1): every format renders every double with
/// no trap, in bounded time and output, showing what Excel shows (15 significant digits, `#`
/// only for dates and times Excel cannot show).
@Suite struct NumberFormatTotalityTests {
    /// Doubles at every edge a renderer can trip on.
    static let hostileDoubles: [Double] = [
        0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1e-300, 1e-15, 0.5, 1, 9.999999999999999, 1e15, 1e19, -1e19,
        18_446_744_073_709_551_616, 1e21, 1e300, 1e308, -1.7976931348623157e308, .greatestFiniteMagnitude, 2958465.999999,
        2958466, -1, 123456789.123456789, 1.0 / 3, 0.9999999999999999, 4_503_599_627_370_496.5,
    ]

    /// Formats of every kind, the attacks of issue 35 among them.
    static let hostileCodes: [String] = [
        "General", "0", "0.00", "#,##0", ".000", "#.###", "0%", "0.0E+0%", "0.00E+00", "##0.0E+0", "?/?", "# ?/?", "# ??/??",
        "?/8", "# ?/16", "?/" + String(repeating: "?", count: 12), "?/" + String(repeating: "?", count: 20),
        "# " + String(repeating: "?", count: 30) + "/" + String(repeating: "?", count: 30), "?/99999999999999999999",
        "yyyy-mm-dd hh:mm:ss.000", "[h]:mm:ss", "[ss].00", "mmmm d, yyyy AM/PM", "dddd", "0.0,,,,,,,,,,,,,,,,,,,,",
        String(repeating: "%", count: 200) + "0", "0" + String(repeating: "%", count: 254), String(repeating: "0", count: 255),
        "0." + String(repeating: "0", count: 253), String(repeating: "#,", count: 127) + "0", "[>1e300]0;[<-1e300]0;0",
        "0.00E+" + String(repeating: "0", count: 240), "\"x\"@@@", "[Red]0;[Blue]-0;\"zero\";@",
    ]

    @Test func everyHostileFormatRendersEveryHostileDoubleBounded() {
        let start = Date()
        for code in Self.hostileCodes {
            for value in Self.hostileDoubles {
                let shown = NumberFormatRenderer.text(number: value, code: code)
                // A format shows the digits (at most ~320 of a double, times the code's scaling) and
                // its own text: a few thousand characters at most, never a runaway.
                #expect(shown.utf16.count <= 4 * 1024 + 4 * code.utf16.count, "\(value) in \(code): \(shown.utf16.count) characters")
            }
        }
        #expect(Date().timeIntervalSince(start) < 20, "the hostile grid took \(Date().timeIntervalSince(start)) s")
    }

    @Test(arguments: [
        // Issue 35's attacks and smaller findings, as Excel shows them.
        (-1e19, ".000", "-10000000000000000000.000"),
        (1e308, "0%", "1" + String(repeating: "0", count: 310) + "%"),
        (1e308, "0.0E+0%", "1.0E+310%"),
        (1e19, "?/?", "10000000000000000000/1"),
        (-1e19, "?/?", "-10000000000000000000/1"),
        (1e300, "?/8", "8" + String(repeating: "0", count: 300) + "/8"),
        (1e19, "# ?/?", "10000000000000000000   "),
        (0.5, "?/" + String(repeating: "?", count: 20), "1/2"),
        (0.75, "?/" + String(repeating: "?", count: 12), "3/4"),
        // 15 significant digits, no binary noise past them.
        (18_446_744_073_709_551_616, "0", "18446744073709600000"),
        (1e21, "#,##0", "1,000,000,000,000,000,000,000"),
        (-1.7976931348623157e308, "0", "-179769313486232" + String(repeating: "0", count: 294)),
        (0.1 + 0.2, "0.00000000000000000000", "0.30000000000000000000"),
        (1e15, "0", "1000000000000000"),
        (1234.5, ".000", "1234.500"), (1234567.5, "#,.0", "1234.6"),
        // Tiny numbers.
        (5e-324, "0.00", "0.00"), (-5e-324, "0.00", "0.00"), (5e-324, "0.00E+00", "4.94E-324"), (5e-324, "General", "4.9407E-324"), (1.23456789e100, "General", "1.2346E+100"),
        (1e-300, "0.0E+0", "1.0E-300"), (-0.0, "0.00", "0.00"), (0, "0.00E+00", "0.00E+00"),
        // Dates: #### past 9999-12-31 and before 0, as Excel fills such a cell.
        (2958465, "yyyy-mm-dd", "9999-12-31"), (2958466, "yyyy-mm-dd", "###########"), (-1, "yyyy-mm-dd", "###########"),
        (-1, "m/d/y", "###########"), (-1, "dd/mm--yy", "###########"), (-0.5, "h:mm", "###########"),
        (41181, "mm###", "###########"), (41181, "yyyy?", "###########"), (41181, "d0", "###########"),
        (1e300, "[h]:mm", "###########"), (1e308, "yyyy-mm-dd hh:mm:ss.000", "###########"), (-1e19, "[h]:mm:ss", "###########"),
    ])
    func attacksShowWhatExcelShows(_ value: Double, _ code: String, _ shown: String) {
        #expect(NumberFormatRenderer.text(number: value, code: code) == shown, "\(value) in \(code)")
    }

    @Test func manyDenominatorDigitsFindTheClosestFractionQuickly() throws {
        let start = Date()
        let shown = NumberFormatRenderer.text(number: Double.pi, code: "?/" + String(repeating: "?", count: 12))
        let parts = shown.split(separator: "/").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        let numerator = try #require(parts.first ?? nil), denominator = try #require(parts.last ?? nil)
        // π's convergent 2549491779/811528438 is within 1e-18 of it (double arithmetic gives ~1e-16).
        #expect(denominator <= 999_999_999_999 && abs(numerator / denominator - Double.pi) < 1e-14, "\(shown)")
        #expect(Date().timeIntervalSince(start) < 1)
        // The same answers as the exhaustive search the renderer used to do, for small denominators.
        for value in stride(from: 0.0, through: 1.0, by: 0.0137) {
            var best = (error: Double.infinity, numerator: 0.0, denominator: 1.0)
            for candidate in 1...99 {
                let n = (value * Double(candidate)).rounded()
                let error = abs(value - n / Double(candidate))
                if error < best.error - 1e-12 { best = (error, n, Double(candidate)) }
            }
            let found = NumberFormatRenderer.closestFraction(value, maxDenominator: 99)
            #expect(abs(value - found.numerator / found.denominator) <= best.error + 1e-12, "\(value): \(found) vs \(best)")
        }
    }

    /// The `number-format` fuzz target's kept inputs (Fixtures/fuzz-regressions/number-format/:
    /// the attacks it was seeded with, its crashes and what its runs grew), replayed with its bounds.
    @Test func fuzzRegressionsRenderBounded() throws {
        let folder = Project.root.appendingPathComponent("Fixtures/fuzz-regressions/number-format")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(names.count >= 20)
        for name in names {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            var bits: UInt64 = 0
            for (index, byte) in bytes.prefix(8).enumerated() { bits |= UInt64(byte) << (8 * UInt64(index)) }
            let code = String(decoding: bytes.dropFirst(8), as: UTF8.self)
            let started = Date()
            _ = NumberFormat.isValid(code)
            for number in [Double(bitPattern: bits), -Double(bitPattern: bits)] {
                let shown = NumberFormatRenderer.text(number: number, code: code)
                #expect(shown.utf16.count <= 1_024 + 16 * code.utf16.count, "\(name): \(number) in \(code.debugDescription)")
            }
            #expect(NumberFormatRenderer.text(.string("text"), code: code, system: .excel1904).utf16.count <= NumberFormatRenderer.maxTextLength)
            #expect(Date().timeIntervalSince(started) < 1, "\(name) took \(Date().timeIntervalSince(started)) s")
        }
    }

    @Test func displayIsCappedAtExcelsLimit() {
        let text = String(repeating: "x", count: 32 * 1024)
        let code = String(repeating: "@", count: 255)
        let shown = NumberFormatRenderer.text(.string(text), code: code, system: .excel1900)
        #expect(shown.utf16.count == NumberFormatRenderer.maxTextLength)
        // The uncapped text stops just past the limit: never the 8 M characters of 255 copies.
        let section = NumberFormatRenderer.text(text: text, code: code)
        #expect(section.utf16.count > NumberFormatRenderer.maxTextLength && section.utf16.count <= NumberFormatRenderer.maxTextLength + text.utf16.count)
        // A cut never splits a character: 😀 is two UTF-16 units.
        let emoji = NumberFormatRenderer.capped(String(repeating: "😀", count: 20_000))
        #expect(emoji.utf16.count <= NumberFormatRenderer.maxTextLength && emoji.unicodeScalars.allSatisfy { $0 == "😀" })
    }
}

extension NumberFormatTotalityTests {
    /// A code far past Excel's 255 characters (a file nobody validated, as `convert` reads)
    /// renders in time linear in its length: long literals, month runs, points and slashes.
    @Test(arguments: ["\"x\"", "m h ", ".", "/", "s.0", "[Red]", "\\a", "0,", "#,##0.0", "?/?"])
    func longCodesRenderInLinearTime(_ piece: String) {
        let code = String(repeating: piece, count: 100_000 / piece.count)
        let started = Date()
        _ = NumberFormatRenderer.text(number: 45322.5, code: code)
        _ = NumberFormatRenderer.text(.string("t"), code: code, system: .excel1900)
        #expect(Date().timeIntervalSince(started) < 10, "\(piece) × \(100_000 / piece.count): \(Date().timeIntervalSince(started)) s")
    }
}
