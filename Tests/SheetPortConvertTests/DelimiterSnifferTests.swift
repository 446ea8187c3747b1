import Testing
@testable import SheetPortConvert

/// The delimiter told from the start of CSV input (`DelimiterSniffer`); through `convert`:
/// SheetPortCLITests' `DelimiterTests`.
@Suite struct DelimiterTests {
    @Test func sniffingStopsAtOneHundredLinesAndLooksPastALongFirstField() {
        let long = Array(String(repeating: "x", count: 70_000).utf8)
        // The whole window is one cut-off line: it is all there is to judge.
        #expect(DelimiterSniffer.delimiter(start: (long + Array(";y".utf8))[0..<65_536], isAll: false) == UInt8(ascii: ","))
        #expect(DelimiterSniffer.delimiter(start: Array("a|b\n1|2\n3|4,5,6,7".utf8)[...], isAll: false) == UInt8(ascii: "|"))
        #expect(DelimiterSniffer.delimiter(start: Array("1,5;2\n".utf8)[...], isAll: true, preferSemicolon: true) == UInt8(ascii: ";"))
    }
}
