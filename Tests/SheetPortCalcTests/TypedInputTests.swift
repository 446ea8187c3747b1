import Foundation
import Testing
@testable import SheetPortCalc
import SheetPortCore

/// `TypedInput`: typed text read as Excel (en-US) reads it, checked against other readers of the
/// same text (Foundation's en-US number formatter, the engine's DATE and TIME) and by round
/// trips, never against values written out by hand.
struct TypedInputTests {
    /// The value the engine computes for a formula.
    static func evaluate(_ formula: String) -> CalcValue {
        let engine = CalcEngine()
        let sheet = engine.addSheet("S")
        engine.setFormula(formula, at: CellReference(row: 1, column: 1), sheet: sheet)
        engine.recalculate()
        return engine.value(at: CellReference(row: 1, column: 1), sheet: sheet)
    }

    /// Numbers with en-US grouping, currency and percent, as Foundation's en-US formatter writes
    /// them, read back to the formatter's value (within the text's rounding).
    @Test func numbersReadAsTheEnUSFormatterWritesThem() {
        var random = SplitMix64(seed: 24)
        for style in [NumberFormatter.Style.decimal, .currency, .percent] {
            let formatter = NumberFormatter()
            formatter.locale = Locale(identifier: "en_US")
            formatter.numberStyle = style
            formatter.maximumFractionDigits = 2
            for _ in 0..<300 {
                let magnitude = Double.random(in: -6...9, using: &random)
                let number = (Double.random(in: 0...1, using: &random) < 0.5 ? -1 : 1) * pow(10, magnitude)
                guard let text = formatter.string(from: NSNumber(value: number)), let read = formatter.number(from: text)?.doubleValue else { continue }
                let typed = TypedInput(text)
                guard case .value(.number(let value)) = typed.content else {
                    Issue.record("\(text) is not read as a number: \(typed)")
                    continue
                }
                #expect(abs(value - read) <= abs(read) * 1e-12, "\(text): \(value) against \(read)")
                switch style {
                case .currency: #expect(typed.numberFormat?.contains("$") == true, "\(text)")
                case .percent: #expect(typed.numberFormat?.hasSuffix("%") == true, "\(text)")
                default: #expect(typed.numberFormat == (text.contains(",") ? (text.contains(".") ? "#,##0.00" : "#,##0") : nil), "\(text)")
                }
            }
        }
    }

    /// Dates and times typed in the forms en-US Excel reads are the serials the engine's DATE and
    /// TIME give, in a date or time format.
    @Test func datesAndTimesAreTheEnginesSerials() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<200 {
            let year = Int.random(in: 1900...9999, using: &random), month = Int.random(in: 1...12, using: &random)
            let day = Int.random(in: 1...28, using: &random)
            let expected = Self.evaluate("DATE(\(year),\(month),\(day))")
            for text in [String(format: "%04d-%02d-%02d", year, month, day), "\(month)/\(day)/\(year)"] {
                let typed = TypedInput(text)
                #expect(typed.content == .value(expected), "\(text)")
                #expect(typed.numberFormat.map(NumberFormat.isDateFormat) == true, "\(text)")
            }
            let hour = Int.random(in: 0...23, using: &random), minute = Int.random(in: 0...59, using: &random)
            let time = TypedInput(String(format: "%d:%02d", hour, minute))
            #expect(time.content == .value(Self.evaluate("TIME(\(hour),\(minute),0)")), "\(hour):\(minute)")
            let twelve = hour % 12 == 0 ? 12 : hour % 12
            let meridiem = TypedInput(String(format: "%d:%02d %@", twelve, minute, hour < 12 ? "AM" : "PM"))
            #expect(meridiem.content == time.content, "\(twelve):\(minute) \(hour < 12 ? "AM" : "PM")")
        }
    }

    /// Every value's input text reads back to that value: texts that look like numbers, dates,
    /// booleans, errors or formulas get their apostrophe; the contract's other forms hold too.
    @Test func inputTextReadsBackToItsValue() {
        var random = SplitMix64(seed: 99)
        let tricky = ["0123", "TRUE", "false", "#N/A", "=1+1", "12%", "$5", "3/1/2026", "14:30", "'quoted", "", " ", "1e5", "(12)", "-", "=",
                      "1,2", "a\u{0}b", String(repeating: "9", count: 400), "1e400", "--1", "$-", "%", "12%%", "(", "1.", ".5", "٣"]
        var values: [CalcValue] = tricky.map { CalcValue.text($0) }
        values += [.boolean(true), .boolean(false), .number(0), .number(-0.5)]
        values += [ExcelError.notAvailable, .divisionByZero, .reference, .spill].map { CalcValue.error($0) }
        for _ in 0..<500 { values.append(.number(Double(bitPattern: random.next()))) }
        for value in values {
            if case .number(let n) = value, !n.isFinite { continue }
            let text = TypedInput.text(of: value)
            #expect(TypedInput(text).content == (text.isEmpty ? .empty : .value(value)), "\(value) as \(text)")
        }
        // The apostrophe marks text; a lone `=` is text; `""` clears; a formula keeps its text.
        #expect(TypedInput("=").content == .value(.text("=")))
        #expect(TypedInput("").content == .empty)
        #expect(TypedInput("=SUM(A1:A3)").content == .formula("SUM(A1:A3)"))
        #expect(TypedInput("1e400").content == .value(.text("1e400")))
    }

    /// Every format typing derives is one Excel takes (the server stores only valid formats).
    @Test(arguments: ["12%", "12.5%", "$1,234.50", "$12", "-1.5e3", "1,234", "1,234.5", "2026-03-01", "3/1/2026",
                      "2026-03-01 14:30", "14:30", "2:30 PM", "14:30:15", "2:30:15 am"])
    func derivedFormatsAreValid(_ text: String) throws {
        let format = try #require(TypedInput(text).numberFormat, "\(text) derives a format")
        #expect(NumberFormat.isValid(format), "\(text): \(format)")
    }
}
