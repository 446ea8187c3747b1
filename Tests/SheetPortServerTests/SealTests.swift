import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortServer
import SheetPortTestSupport

/// The sealing layer on its own: records and block files open only with their key and their
/// context, block files take random writes, and the zip source reads a sealed workbook.
@Suite struct SealTests {
    let sealer = try! Sealer(key: Sodium.randomBytes(32))

    @Test func recordsOpenOnlyWithTheirContext() throws {
        let sealed = sealer.seal(Array("secret cell".utf8), context: Sealer.context("rows", "sheet", 3))
        #expect(sealed.count == 11 + Sealer.overhead)
        #expect(try sealer.open(sealed, context: Sealer.context("rows", "sheet", 3), what: "test") == Array("secret cell".utf8))
        #expect(throws: ServerError.self) { try sealer.open(sealed, context: Sealer.context("rows", "sheet", 4), what: "test") }
        #expect(throws: ServerError.self) { try Sealer(key: Sodium.randomBytes(32)).open(sealed, context: Sealer.context("rows", "sheet", 3), what: "test") }
        var tampered = sealed
        tampered[30] ^= 1
        #expect(throws: ServerError.self) { try sealer.open(tampered, context: Sealer.context("rows", "sheet", 3), what: "test") }
    }

    @Test func blockFilesTakeRandomWritesAndHoldNoPlaintext() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("file.sealed").path
        var expected = [UInt8]((0..<200_000).map { UInt8(truncatingIfNeeded: $0 % 251) })
        let marker = Array("PLAINTEXT-MARKER".utf8)
        expected.replaceSubrange(70_000..<(70_000 + marker.count), with: marker)
        let file = try SealedBlockFile(creating: path, identity: "job", sealer: sealer)
        for start in stride(from: 0, to: expected.count, by: 10_000) {
            try expected[start..<min(start + 10_000, expected.count)].withUnsafeBytes { try file.append($0) }
        }
        let patch: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        try patch.withUnsafeBytes { try file.write($0, at: 65_530) } // across a block boundary
        expected.replaceSubrange(65_530..<65_538, with: patch)
        try file.close()

        let stored = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(stored.range(of: Data(marker)) == nil)
        let reopened = try SealedBlockFile(opening: path, identity: "job", sealer: sealer)
        #expect(reopened.size == Int64(expected.count))
        var read = [UInt8](repeating: 0, count: expected.count)
        let count = try read.withUnsafeMutableBytes { try reopened.read(into: $0.baseAddress!, count: $0.count, at: 0) }
        #expect(count == expected.count && read == expected)
        // Cutting whole blocks off the end is detected: the new last block was sealed as an inner one.
        let cut = folder.appendingPathComponent("cut.sealed").path
        try stored.prefix(2 * SealedBlockFile.slotSize).write(to: URL(fileURLWithPath: cut))
        let truncated = try SealedBlockFile(opening: cut, identity: "job", sealer: sealer)
        var first: UInt8 = 0
        #expect(try truncated.read(into: &first, count: 1, at: 0) == 1) // an inner block still opens
        #expect(throws: ServerError.self) { _ = try truncated.read(into: &first, count: 1, at: Int64(SealedBlockFile.blockSize)) }
        // Bound to its identity: another job's key context does not open it.
        let other = try SealedBlockFile(opening: path, identity: "other", sealer: sealer)
        var byte: UInt8 = 0
        #expect(throws: ServerError.self) { _ = try other.read(into: &byte, count: 1, at: 0) }
    }

    @Test func zipSourceReadsASealedWorkbook() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = try makeStyledWorkbook(in: folder)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: plain)))
        let file = try SealedBlockFile(creating: folder.appendingPathComponent("up.sealed").path, identity: "up", sealer: sealer)
        try bytes.withUnsafeBytes { try file.append($0) }
        try file.flush()
        let workbook = try Workbook(archive: ZipArchive(source: try SealedZipSource(file: file).makeSource(), name: "up.xlsx"))
        let reader = try workbook.rows(of: workbook.firstWorksheet!)
        var rows = 0
        while try reader.nextRow() != nil { rows += 1 }
        #expect(rows == 40)
        #expect(try workbook.comments(of: workbook.firstWorksheet!).first?.text == Distinctive.comment)
    }
}
