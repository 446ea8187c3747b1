import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport

/// A workbook's values as dates in its own date system (`Workbook.date(of:)`).
@Suite struct WorkbookDateTests {
    @Test func datesKnowTheWorkbooksDateSystem() throws {
        let utc = { (text: String) in ISO8601DateFormatter().date(from: text)! }
        let book = try Workbook(path: Project.fixture("dates_1904.xlsx"))
        #expect(book.dateSystem == .excel1904)
        #expect(book.date(of: .date(serial: 1)) == utc("1904-01-02T00:00:00Z"))
    }
}
