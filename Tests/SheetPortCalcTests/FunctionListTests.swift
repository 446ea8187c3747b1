import Foundation
import Testing
@testable import SheetPortCalc

/// README's list of implemented functions is the registry's own: the test fails, printing the
/// line to paste, when a function is added or removed without the README following.
@Suite struct FunctionListTests {
    @Test func readmeListsTheRegistrysFunctions() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- functions: generated from CalcEngine.implementedFunctions -->\n"))
        let end = try #require(readme.range(of: "\n<!-- /functions -->", range: start.upperBound..<readme.endIndex))
        let listed = String(readme[start.upperBound..<end.lowerBound])
        let expected = CalcEngine.implementedFunctions.joined(separator: ", ")
        #expect(listed == expected, "README's function list should read:\n\(expected)")
        #expect(CalcEngine.implementedFunctions.count >= 150)
    }
}
