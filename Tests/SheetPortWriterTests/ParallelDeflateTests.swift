import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
import SheetPortBench
import SheetPortTestSupport

/// A worksheet deflated in blocks on worker threads (`ParallelDeflater`) and handed to libzip
/// already deflated: the blocks join into one valid stream whatever the cut, the zip directory's
/// CRC and sizes are right for independent readers (`unzip -t`, Python's zipfile), and the
/// same bytes give the same file however the caller chunked them.
@Suite struct ParallelDeflateTests {
    /// Text that repeats across block boundaries (so blocks refer back into their dictionary)
    /// with a pseudo-random part (so no block is trivially compressible).
    static func payload(_ count: Int) -> [UInt8] {
        var random = SeededGenerator(state: UInt64(count))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 64)
        while bytes.count < count {
            bytes += Array("<row r=\"\(bytes.count % 977)\"><c t=\"s\"><v>\(random.next() % 1000)</v></c></row>".utf8)
        }
        return Array(bytes.prefix(count))
    }

    /// Packs `bytes` as one streamed entry (sent in `chunk`-sized pieces) plus a small part,
    /// through `Packager` with deflate blocks of `blockSize`; returns the file's bytes.
    static func pack(_ bytes: [UInt8], blockSize: Int, chunk: Int, level: Int = 6, zip64: Bool = false,
                     workers: Int = ParallelDeflater.defaultWorkers, at path: String) throws -> [UInt8] {
        let packager = try Packager(destination: path, compressionLevel: level, zip64: zip64,
                                    deflateBlockSize: blockSize, deflateWorkers: workers)
        let stream = try packager.beginStreamedEntry("xl/worksheets/sheet1.xml")
        var offset = 0
        while offset < bytes.count {
            var piece = Array(bytes[offset..<min(bytes.count, offset + chunk)])
            try stream.pipe.send(&piece)
            offset += chunk
        }
        try stream.finish()
        try packager.finish(parts: [(name: "[Content_Types].xml", bytes: Array("<Types/>".utf8))])
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// The first sheet's XML as SheetPort's archive reader inflates it (libzip checks the CRC).
    static func sheetBytes(_ path: String) throws -> [UInt8] {
        let archive = try ZipArchive(path: path)
        let entry = try #require(archive.entry(named: "xl/worksheets/sheet1.xml"))
        var bytes: [UInt8] = []
        try archive.read(entry) { bytes += $0 }
        #expect(Int64(bytes.count) == entry.size)
        return bytes
    }

    /// Runs `arguments`; returns the exit status and the output.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try Project.run(URL(fileURLWithPath: executable), arguments)
    }

    /// Python's zipfile checks every CRC (`testzip`) and gives back the entry; it must equal `expected`.
    static func zipfileAgrees(_ path: String, entry: String, expected: String) throws -> (status: Int32, output: String) {
        let script = """
            import sys, zipfile
            archive = zipfile.ZipFile(sys.argv[1])
            assert archive.testzip() is None, "bad CRC"
            info = archive.getinfo(sys.argv[2])
            data = archive.read(sys.argv[2])
            assert info.compress_type == zipfile.ZIP_DEFLATED, info.compress_type
            assert info.file_size == len(data), (info.file_size, len(data))
            assert data == open(sys.argv[3], "rb").read(), "entry differs"
            print("ok", info.file_size, info.compress_size)
            """
        return try run("/usr/bin/python3", ["-c", script, path, entry, expected])
    }

    /// Block boundaries at awkward places: nothing, one byte, one block less or more one byte,
    /// exactly one and several blocks, with chunks that do not line up with blocks.
    @Test(arguments: [0, 1, 4095, 4096, 4097, 3 * 4096, 10 * 4096 + 17, 100_003])
    func blocksJoinIntoOneValidStream(size: Int) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.payload(size)
        let expected = folder.appendingPathComponent("expected.xml").path
        try Data(bytes).write(to: URL(fileURLWithPath: expected))
        let path = folder.appendingPathComponent("book.xlsx").path
        let file = try Self.pack(bytes, blockSize: 4096, chunk: 1000, at: path)

        let unzip = try Self.run("/usr/bin/unzip", ["-t", path])
        #expect(unzip.status == 0, "\(unzip.output)")
        #expect(unzip.output.contains("No errors detected"), "\(unzip.output)")
        let python = try Self.zipfileAgrees(path, entry: "xl/worksheets/sheet1.xml", expected: expected)
        #expect(python.status == 0, "\(python.output)")
        #expect(python.output.hasPrefix("ok \(size) "), "\(python.output)")

        // SheetPort's own reader inflates it too, checking the CRC and the size.
        #expect(try Self.sheetBytes(path) == bytes)

        // The cut depends on the bytes only: other chunks give the same file.
        let again = try Self.pack(bytes, blockSize: 4096, chunk: 4096 * 3 + 1, at: folder.appendingPathComponent("again.xlsx").path)
        #expect(again == file)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["again.xlsx", "book.xlsx", "expected.xml"])
    }

    /// The default 128 KiB blocks at their edges, at the fastest and the smallest levels.
    @Test(arguments: [(ParallelDeflater.defaultBlockSize, 1), (ParallelDeflater.defaultBlockSize + 1, 9),
                      (ParallelDeflater.defaultBlockSize - 1, 6), (5 * ParallelDeflater.defaultBlockSize, 6)])
    func defaultBlocksAtEveryLevel(size: Int, level: Int) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.payload(size)
        let expected = folder.appendingPathComponent("expected.xml").path
        try Data(bytes).write(to: URL(fileURLWithPath: expected))
        let path = folder.appendingPathComponent("book.xlsx").path
        let file = try Self.pack(bytes, blockSize: ParallelDeflater.defaultBlockSize, chunk: 256 * 1024 + 5, level: level, at: path)
        let python = try Self.zipfileAgrees(path, entry: "xl/worksheets/sheet1.xml", expected: expected)
        #expect(python.status == 0, "\(python.output)")
        // General purpose bits 1-2 name the level as libzip's own deflate did (fast 2, maximum 1).
        let flags = Int(file[6]) | Int(file[7]) << 8
        #expect((flags >> 1) & 3 == (level < 3 ? 2 : level > 7 ? 1 : 0))
        #expect(Int(file[8]) | Int(file[9]) << 8 == 8, "deflate")
    }

    /// The bytes depend on neither the number of workers (one or many cores give the same
    /// file) nor a degenerate block size: one byte a block (and 0, taken as 1) is still one
    /// valid stream.
    @Test func sameBytesWithAnyWorkersAndTinyBlocks() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.payload(50_000)
        let one = try Self.pack(bytes, blockSize: 4096, chunk: 1000, workers: 1, at: folder.appendingPathComponent("1.xlsx").path)
        let five = try Self.pack(bytes, blockSize: 4096, chunk: 1000, workers: 5, at: folder.appendingPathComponent("5.xlsx").path)
        #expect(one == five)

        let expected = folder.appendingPathComponent("expected.xml").path
        try Data(bytes.prefix(3000)).write(to: URL(fileURLWithPath: expected))
        for blockSize in [1, 0] {
            let path = folder.appendingPathComponent("tiny\(blockSize).xlsx").path
            _ = try Self.pack(Array(bytes.prefix(3000)), blockSize: blockSize, chunk: 7, at: path)
            let python = try Self.zipfileAgrees(path, entry: "xl/worksheets/sheet1.xml", expected: expected)
            #expect(python.status == 0, "\(python.output)")
        }
    }

    /// Hostile: a level zlib refuses fails the block with zlib's status instead of producing
    /// bytes, and the deflater still stops cleanly.
    @Test func aLevelZlibRefusesFailsTheBlock() throws {
        let deflater = ParallelDeflater(level: 42, workers: 2)
        defer { deflater.stop() }
        deflater.submit(Array("<row/>".utf8), previous: nil, isLast: true)
        #expect(throws: ParallelDeflater.Failure.self) { _ = try deflater.takeOldest() }
        #expect(throws: ParallelDeflater.Failure.self) { _ = try deflater.takeOldest() }
    }

    /// With ZIP64 allowed the sizes are unknown when libzip writes the local header (ZIP64
    /// extra field), and the final ones come from the source's stat after the data.
    @Test(arguments: [0, 4097, 100_003])
    func zip64EntriesCarryTheRightSizesAndCRC(size: Int) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bytes = Self.payload(size)
        let expected = folder.appendingPathComponent("expected.xml").path
        try Data(bytes).write(to: URL(fileURLWithPath: expected))
        let path = folder.appendingPathComponent("book.xlsx").path
        _ = try Self.pack(bytes, blockSize: 4096, chunk: 1500, zip64: true, at: path)
        let unzip = try Self.run("/usr/bin/unzip", ["-t", path])
        #expect(unzip.status == 0 && unzip.output.contains("No errors detected"), "\(unzip.output)")
        let python = try Self.zipfileAgrees(path, entry: "xl/worksheets/sheet1.xml", expected: expected)
        #expect(python.status == 0, "\(python.output)")
        #expect(try Self.sheetBytes(path) == bytes)
    }

    /// A sheet of many blocks, written through `WorkbookWriter`, reads back row for row through
    /// SheetPort's reader and through openpyxl.
    @Test func manyBlockSheetReadsBackInSheetPortAndOpenpyxl() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("book.xlsx").path
        let rows = 20_000
        let writer = try WorkbookWriter(path: path)
        try SyntheticSheet(rows: rows).write(into: writer)
        try writer.close()

        let xml = try Self.sheetBytes(path)
        #expect(xml.count > 10 * ParallelDeflater.defaultBlockSize)

        let workbook = try Workbook(path: path)
        let reader = try workbook.rows(of: workbook.sheets[0])
        #expect(try reader.nextRow()?.cells.count == 10)
        var count = 0
        while let row = try reader.nextRow() {
            let r = row.index
            #expect(r == count + 2)
            #expect(row.cells.count == 10)
            #expect(row.cells[0].value == .number(Double(r)) && row.cells[1].value == .number(Double(r) * 1.25))
            #expect(row.cells[3].value == .string("item-\(r)") && row.cells[9].value == .number(Double(r % 100)))
            #expect(row.cells[7].formula == "A\(r)*2")
            count += 1
        }
        #expect(count == rows)

        let script = """
            import sys, openpyxl
            sheet = openpyxl.load_workbook(sys.argv[1], read_only=True).worksheets[0]
            count = 0
            for r, row in enumerate(sheet.iter_rows(min_row=2, values_only=True), start=2):
                assert row[0] == r and row[1] == r * 1.25 and row[3] == "item-%d" % r and row[9] == r % 100, (r, row)
                assert row[7] == "=A%d*2" % r, (r, row[7])
                count += 1
            print("ok", count)
            """
        let python = try Self.run(Project.root.appendingPathComponent(".venv/bin/python").path, ["-c", script, path])
        #expect(python.status == 0, "\(python.output)")
        #expect(python.output == "ok \(rows)\n", "\(python.output)")
    }

    /// A shared-string table as big as a sheet (over `WorkbookWriter.streamedPartSize`) is
    /// streamed and deflated in blocks as a sheet is, before the small parts; it reads back
    /// whole in SheetPort, `unzip -t` and openpyxl.
    @Test func aSharedStringTableAsBigAsASheetIsStreamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("strings.xlsx").path
        let rows = 30_000
        let writer = try WorkbookWriter(path: path)
        let sheet = try writer.addWorksheet(named: "S")
        for r in 1...rows {
            try sheet.append(Row(index: r, cells: [Cell(column: 1, value: .string("a unique string of row \(r) & <more> text"))]))
        }
        try writer.close()

        let workbook = try Workbook(path: path)
        let names = workbook.archive.entries.map(\.name)
        let strings = try #require(names.firstIndex(of: "xl/sharedStrings.xml"))
        #expect(workbook.archive.entries[strings].size > WorkbookWriter.streamedPartSize)
        // Streamed right after the sheet, before the parts of the last pass (styles come first there).
        #expect(strings == 1 && names.firstIndex(of: "xl/styles.xml") == 2, "\(names)")
        let reader = try workbook.rows(of: workbook.sheets[0])
        var count = 0
        while let row = try reader.nextRow() {
            count += 1
            #expect(row.cells.first?.value == .string("a unique string of row \(count) & <more> text"))
        }
        #expect(count == rows)
        let test = try Self.run("/usr/bin/unzip", ["-t", path])
        #expect(test.status == 0, "\(test.output)")
        let script = """
            import sys, openpyxl
            sheet = openpyxl.load_workbook(sys.argv[1], read_only=True).worksheets[0]
            values = [row[0] for row in sheet.iter_rows(values_only=True)]
            assert values == ["a unique string of row %d & <more> text" % r for r in range(1, len(values) + 1)]
            print("ok", len(values))
            """
        let python = try Self.run(Project.root.appendingPathComponent(".venv/bin/python").path, ["-c", script, path])
        #expect(python.output == "ok \(rows)\n", "\(python.output)")
    }

    /// Hostile: the caller gives up with blocks in flight on every worker; nothing is left
    /// behind, no thread hangs, and the destination is not written.
    @Test func abandonedEntryWithBlocksInFlightLeavesNothing() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("book.xlsx").path
        let packager = try Packager(destination: path, compressionLevel: 9, zip64: false, deflateBlockSize: 4096)
        let stream = try packager.beginStreamedEntry("xl/worksheets/sheet1.xml")
        var piece = Self.payload(1 << 20)
        for _ in 0..<4 { try stream.pipe.send(&piece); piece = Self.payload(1 << 20) }
        stream.abort()
        packager.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }
}
