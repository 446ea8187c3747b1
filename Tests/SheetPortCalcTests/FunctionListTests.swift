import Foundation
import Testing
@testable import SheetPortCalc

/// The list of implemented functions in SheetPortCalc's documentation (the `Functions` article)
/// is the registry's own: the test fails, printing the line to paste, when a function is added
/// or removed without the article following.
@Suite struct FunctionListTests {
    @Test func theDocumentationListsTheRegistrysFunctions() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(contentsOf: root.appendingPathComponent("Sources/SheetPortCalc/SheetPortCalc.docc/Functions.md"), encoding: .utf8)
        let start = try #require(article.range(of: "<!-- functions: generated from CalcEngine.implementedFunctions -->\n"))
        let end = try #require(article.range(of: "\n<!-- /functions -->", range: start.upperBound..<article.endIndex))
        let listed = String(article[start.upperBound..<end.lowerBound])
        let expected = CalcEngine.implementedFunctions.joined(separator: ", ")
        #expect(listed == expected, "Functions.md's function list should read:\n\(expected)")
        #expect(CalcEngine.implementedFunctions.count >= 150)
    }
}
