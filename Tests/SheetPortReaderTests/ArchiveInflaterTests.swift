import Foundation
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
import SheetPortTestSupport

/// ISA-L against zlib (`SHEETPORT_INFLATE=zlib`): the same chunks, bytes and errors for every
/// entry of the corpus and the fixtures, and for deflate streams damaged on purpose.
@Suite struct ArchiveInflaterTests {
    /// Everything a reader of one entry sees: the chunk lengths, the bytes, the error.
    struct Outcome: Equatable {
        var chunks: [Int] = []
        var bytes: [UInt8] = []
        var error: ReaderError?
        var other: String?
    }

    /// Reads `entry` to its end (or its error); whether ISA-L was used throughout and whether
    /// the entry was handed to zlib.
    static func read(_ archive: ZipArchive, _ entry: ZipArchive.Entry) -> (Outcome, isal: Bool, handedOver: Bool) {
        var outcome = Outcome()
        var stream: ZipArchive.EntryStream?
        do {
            let opened = try archive.stream(entry)
            stream = opened
            while try opened.read({ chunk in
                outcome.chunks.append(chunk.count)
                outcome.bytes.append(contentsOf: chunk)
            }) {}
        } catch let error as ReaderError {
            outcome.error = error
        } catch {
            outcome.other = "\(error)"
        }
        return (outcome, stream?.inflatesWithISAL ?? false, stream?.handedOver ?? false)
    }

    /// Opens `open()` once per inflater and reads every entry in order; the outcomes must be
    /// equal. Returns the entries ISA-L read alone and those it handed to zlib.
    @discardableResult
    static func compare(_ label: String, limits: ArchiveLimits = ArchiveLimits(),
                        _ open: (ArchiveLimits) throws -> ZipArchive) -> (isal: Int, handedOver: Int)? {
        guard let isal = try? open(limits), let zlib = try? open(limits) else { return nil }
        zlib.inflater = .zlib
        var counts = (isal: 0, handedOver: 0)
        for entry in isal.entries {
            let (fast, usedISAL, handedOver) = read(isal, entry)
            let (reference, zlibUsedISAL, _) = read(zlib, entry)
            #expect(!zlibUsedISAL)
            let same = fast == reference // compared apart: a failure would print every byte
            #expect(same, "\(label): \(entry.name): ISA-L \(summary(fast)), zlib \(summary(reference))")
            if usedISAL { counts.isal += 1 }
            if handedOver { counts.handedOver += 1 }
        }
        return counts
    }

    static func summary(_ outcome: Outcome) -> String {
        "\(outcome.bytes.count) bytes in \(outcome.chunks.count) chunks, \(outcome.error.map { "\($0)" } ?? outcome.other ?? "no error")"
    }

    // MARK: real packages

    @Test func everyCorpusAndFixtureEntryInflatesTheSame() throws {
        var files = Project.corpusFiles().map { Project.corpus.appendingPathComponent($0).path }
        try #require(!files.isEmpty, "needs the shared corpus")
        for folder in ["Fixtures/reader", "Fixtures/heldout"] {
            let url = Project.root.appendingPathComponent(folder)
            files += try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".xlsx") || $0.hasSuffix(".xlsm") }
                .sorted().map { url.appendingPathComponent($0).path }
        }
        var isal = 0, handedOver = 0
        for path in files {
            guard let counts = Self.compare(path, { try ZipArchive(path: path, limits: $0) }) else {
                // Only a known-bad file may not open as a zip archive at all.
                #expect(Project.expectedCorpusErrors[URL(fileURLWithPath: path).lastPathComponent] != nil, "\(path) does not open")
                continue
            }
            isal += counts.isal
            handedOver += counts.handedOver
        }
        // Most entries are deflated and sound: ISA-L reads them alone; the damaged ones
        // (the corpus's bad CRCs, the held-out damage fixtures) go to zlib.
        #expect(isal > 1_000, "\(isal) entries read by ISA-L")
        #expect(handedOver >= 4 && handedOver < 50, "\(handedOver) entries handed to zlib")
    }

    // MARK: damaged streams

    /// A worksheet of about 390 KB: several 64 KiB chunks, text that compresses well and
    /// numbers that do not.
    static let sheet: [UInt8] = {
        var xml = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet><sheetData>"#
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        for row in 1...3_000 {
            xml += #"<row r="\#(row)">"#
            for column in ["A", "B", "C"] {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                xml += #"<c r="\#(column)\#(row)"><v>\#(seed >> 40)</v></c>"#
            }
            xml += "</row>"
        }
        return Array((xml + "</sheetData></worksheet>").utf8)
    }()

    /// `sheet` deflated by Python's zlib in several ways: dynamic, stored, fixed-Huffman and
    /// Huffman-only blocks, level 9, and flushes between blocks.
    static let deflated: [String: [UInt8]] = {
        guard let folder = try? temporaryFolder() else { return [:] }
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("sheet.xml")
        _ = FileManager.default.createFile(atPath: input.path, contents: Data(sheet))
        let script = """
        import os, sys, zlib
        data = open(sys.argv[1], 'rb').read()
        def raw(level=6, strategy=zlib.Z_DEFAULT_STRATEGY, flush=False):
            c = zlib.compressobj(level, zlib.DEFLATED, -15, 9, strategy)
            if flush:
                return b''.join(c.compress(data[i:i + 50000]) + c.flush(zlib.Z_FULL_FLUSH) for i in range(0, len(data), 50000)) + c.flush()
            return c.compress(data) + c.flush()
        for name, stream in {'dynamic': raw(), 'stored': raw(0), 'fixed': raw(6, zlib.Z_FIXED),
                             'huffman': raw(6, zlib.Z_HUFFMAN_ONLY), 'best': raw(9), 'flushed': raw(1, flush=True)}.items():
            open(os.path.join(sys.argv[2], name), 'wb').write(stream)
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, input.path, folder.path]
        guard (try? process.run()) != nil else { return [:] }
        process.waitUntilExit()
        var streams: [String: [UInt8]] = [:]
        for name in ["dynamic", "stored", "fixed", "huffman", "best", "flushed"] {
            streams[name] = (try? Data(contentsOf: folder.appendingPathComponent(name))).map { Array($0) }
        }
        return streams
    }()

    static let part = "xl/worksheets/sheet1.xml"

    /// A sound entry for `stream`, which the mutations then damage.
    static func entry(_ stream: [UInt8]) -> ZipBuilder.Entry {
        ZipBuilder.Entry(name: part, data: stream, crc: ZipBuilder.crc32(sheet), size: UInt32(sheet.count))
    }

    /// The mutations of one stream: flipped bytes, cuts, a wrong CRC or size, trailing bytes.
    static func mutations(of stream: [UInt8]) -> [(String, ZipBuilder.Entry)] {
        var cases: [(String, ZipBuilder.Entry)] = [("sound", entry(stream))]
        var seed: UInt64 = 42
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let head = Array(0..<min(12, stream.count))
        let spread = (0..<40).map { _ in next(stream.count) }
        for position in head + spread + [stream.count - 2, stream.count - 1] where position >= 0 {
            var damaged = entry(stream)
            damaged.data[position] ^= UInt8(1 + next(255))
            cases.append(("byte \(position) flipped", damaged))
        }
        for cut in [0, 1, 2, 5, stream.count / 7, stream.count / 3, stream.count / 2, stream.count - 10, stream.count - 2, stream.count - 1] where cut >= 0 {
            var damaged = entry(stream)
            damaged.data = Array(stream.prefix(cut))
            cases.append(("cut at \(cut)", damaged))
        }
        for crc in [ZipBuilder.crc32(sheet) ^ 1, 0, 0xFFFF_FFFF] {
            var damaged = entry(stream)
            damaged.crc = crc
            cases.append(("crc \(crc)", damaged))
        }
        for size in [sheet.count - 1, sheet.count + 1, 0, sheet.count / 2, sheet.count * 2, 0xFFFF_FFFE] {
            var damaged = entry(stream)
            damaged.size = UInt32(size)
            cases.append(("size \(size)", damaged))
        }
        var trailing = entry(stream)
        trailing.data += Array(repeating: 0xA5, count: 100)
        cases.append(("trailing bytes", trailing))
        var garbage = entry(stream)
        garbage.data = (0..<4_000).map { _ in UInt8(next(256)) }
        cases.append(("random bytes", garbage))
        return cases
    }

    @Test(arguments: ["dynamic", "stored", "fixed", "huffman", "best", "flushed"])
    func damagedStreamsFailAsZlibFails(_ variant: String) throws {
        let stream = try #require(Self.deflated[variant], "python3's zlib made no \(variant) stream")
        var handedOver = 0
        for (label, entry) in Self.mutations(of: stream) {
            let bytes = ZipBuilder.archive([entry])
            let counts = try #require(Self.compare("\(variant), \(label)") { try ZipArchive(bytes: bytes, name: "damaged.xlsx", limits: $0) })
            if label == "sound" { #expect(counts.isal == 1 && counts.handedOver == 0, "a sound stream stays with ISA-L") }
            handedOver += counts.handedOver
        }
        #expect(handedOver > 50, "\(handedOver) damaged entries handed to zlib")
    }

    /// Both find a sound stream's bytes: the sheet itself.
    @Test func soundStreamsGiveTheSheet() throws {
        for (variant, stream) in Self.deflated {
            let archive = try ZipArchive(bytes: ZipBuilder.archive([Self.entry(stream)]), name: "sound.xlsx")
            let (outcome, isal, handedOver) = Self.read(archive, try #require(archive.entry(named: Self.part)))
            #expect(outcome.error == nil && outcome.bytes == Self.sheet && isal && !handedOver, "\(variant)")
            #expect(outcome.chunks.dropLast().allSatisfy { $0 == 1 << 16 }, "\(variant): 64 KiB chunks")
        }
        #expect(Self.deflated.count == 6)
    }

    /// The entry, total and ratio limits stop both at the same chunk with the same error.
    @Test func limitsStopBothAlike() throws {
        let stream = try #require(Self.deflated["dynamic"])
        var second = Self.entry(stream)
        second.name = "xl/worksheets/sheet2.xml"
        let bytes = ZipBuilder.archive([Self.entry(stream), second])
        var entryLimit = ArchiveLimits(), totalLimit = ArchiveLimits(), ratioLimit = ArchiveLimits()
        entryLimit.maxEntrySize = 200_000
        totalLimit.maxTotalSize = 500_000
        ratioLimit.ratioGraceSize = 100_000
        ratioLimit.maxExpansionRatio = 2
        for limits in [entryLimit, totalLimit, ratioLimit] {
            #expect(Self.compare("limits", limits: limits) { try ZipArchive(bytes: bytes, name: "limits.xlsx", limits: $0) } != nil)
            let archive = try ZipArchive(bytes: bytes, name: "limits.xlsx", limits: limits)
            let outcomes = archive.entries.map { Self.read(archive, $0).0 }
            #expect(outcomes.contains { $0.error?.code == .zipBomb }, "\(limits)")
        }
    }

    // MARK: the switch

    @Test(arguments: [("zlib", true), (nil, false), ("", false), ("ZLIB", false), ("zlib ", false), ("isal", false),
                      ("zlib\u{0}", false), (String(repeating: "z", count: 100_000), false)] as [(String?, Bool)])
    func onlyExactlyZlibSelectsZlib(_ value: String?, _ zlib: Bool) {
        #expect((ZipArchive.Inflater(environment: value) == .zlib) == zlib)
    }
}
