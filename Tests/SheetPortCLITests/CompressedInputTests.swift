import Foundation
import Testing
import SheetPortTestSupport

/// `convert` reads gzip and zstd compressed CSV, TSV and cell JSONL, told by content, and
/// refuses what is damaged, a bomb past the cap, and a `.gz` that is not gzip, naming what it is.
@Suite struct CompressedInputTests {
    static let csv = Data("id,score\n007,1.5\n2,3\n".utf8)

    /// gzip members from Python's standard library (`gzip.compress`), one per part, concatenated.
    static func gzip(_ parts: [Data]) throws -> Data {
        var result = Data()
        for part in parts {
            let script = "import gzip,sys; sys.stdout.buffer.write(gzip.compress(sys.stdin.buffer.read()))"
            let process = Process()
            process.executableURL = Project.root.appendingPathComponent(".venv/bin/python")
            process.arguments = ["-c", script]
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            try process.run()
            try input.fileHandleForWriting.write(contentsOf: part)
            try input.fileHandleForWriting.close()
            result += output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
        }
        return result
    }

    /// A zstd frame (RFC 8878) of raw blocks holding `data`, or of RLE blocks repeating `byte`
    /// `repeats` times (a bomb: 4 bytes a 128 KiB block).
    static func zstd(_ data: Data = Data(), repeating byte: UInt8? = nil, count repeats: Int = 0) -> Data {
        var frame = Data([0x28, 0xB5, 0x2F, 0xFD, 0x00, 7 << 3]) // no content size, a 128 KiB window
        func block(last: Bool, type: UInt32, size: Int) {
            let header = UInt32(last ? 1 : 0) | type << 1 | UInt32(size) << 3
            frame += Data([UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16 & 0xFF)])
        }
        if let byte {
            var left = repeats
            repeat {
                let size = min(left, 1 << 17)
                left -= size
                block(last: left == 0, type: 1, size: size)
                frame.append(byte)
            } while left > 0
        } else {
            var start = 0
            repeat {
                let end = min(data.count, start + (1 << 17))
                block(last: end == data.count, type: 0, size: end - start)
                frame += data[start..<end]
                start = end
            } while start < data.count
        }
        return frame
    }

    static func write(_ data: Data, _ name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The CSV of the first sheet of the xlsx at `path`.
    static func csv(of path: String) throws -> String {
        let result = try runSheetport(["convert", path, "--to", "csv", "--line-ending", "lf"])
        #expect(result.status == 0, "\(result.stderr)")
        return String(decoding: result.stdout, as: UTF8.self)
    }

    @Test func gzipAndZstdTextConverts() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = "id,score\n007,1.5\n2,3\n"
        let inputs = [
            try Self.write(try Self.gzip([Self.csv]), "scores.csv.gz", in: folder),
            // Two members, as `cat a.gz b.gz` or pigz write them.
            try Self.write(try Self.gzip([Self.csv.prefix(9), Self.csv.dropFirst(9)]), "scores.csv.gzip", in: folder),
            try Self.write(Self.zstd(Self.csv), "scores.csv.zst", in: folder),
            // Told by content, not by name.
            try Self.write(Self.zstd(Self.csv), "scores", in: folder),
        ]
        for input in inputs {
            let output = folder.appendingPathComponent("out.xlsx").path
            let result = try runSheetport(["convert", input, "-o", output, "--no-progress"])
            #expect(result.status == 0, "\(input): \(result.stderr)")
            #expect(try Self.csv(of: output) == expected, "\(input)")
            let sheets = String(decoding: try runSheetport(["sheets", output]).stdout, as: UTF8.self)
            #expect(sheets.contains("\"scores\""), "\(input): \(sheets)") // named from the file, the extensions dropped
        }
        // Standard input, and TSV and cell JSONL inside.
        let piped = try runSheetport(["convert", "-", "-o", folder.appendingPathComponent("p.xlsx").path], input: try Self.gzip([Self.csv]))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(try Self.csv(of: folder.appendingPathComponent("p.xlsx").path) == expected)
        let tsv = try Self.write(Self.zstd(Data("a\tb\n1\tx\n".utf8)), "t.tsv.zst", in: folder)
        #expect(try runSheetport(["convert", tsv, "-o", folder.appendingPathComponent("t.xlsx").path]).status == 0)
        #expect(try Self.csv(of: folder.appendingPathComponent("t.xlsx").path) == "a,b\n1,x\n")
        let jsonl = try Self.write(try Self.gzip([Data(#"{"ref":"B2","type":"number","value":5}"#.utf8 + [0x0A])]), "c.jsonl.gz", in: folder)
        #expect(try runSheetport(["convert", jsonl, "-o", folder.appendingPathComponent("j.xlsx").path]).status == 0)
        #expect(try Self.csv(of: folder.appendingPathComponent("j.xlsx").path) == ",\n,5\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory()).filter { $0.hasPrefix("sheetport-scratch-") }
            .allSatisfy { !$0.contains("-\(ProcessInfo.processInfo.processIdentifier)-") })
    }

    @Test func damagedStreamsAreRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let gzipped = try Self.gzip([Self.csv])
        var flipped = gzipped
        flipped[12] ^= 0xFF
        let zstd = Self.zstd(Self.csv)
        let cases: [(Data, String, String)] = [
            (gzipped.prefix(gzipped.count - 6), "cut.csv.gz", "truncated"),
            (gzipped.prefix(12), "header.csv.gz", "truncated"),
            (flipped, "flipped.csv.gz", "gzip"),
            (gzipped + Data("garbage".utf8), "trailing.csv.gz", "gzip"),
            (zstd.prefix(zstd.count - 5), "cut.csv.zst", "truncated"),
            (zstd.prefix(4), "magic.csv.zst", "truncated"),
            (Data([0x28, 0xB5, 0x2F, 0xFD, 0xFF, 0xFF, 0xFF]), "bad.csv.zst", "zstd"),
        ]
        for (data, name, expected) in cases {
            let path = try Self.write(data, name, in: folder)
            let output = folder.appendingPathComponent(name + ".xlsx").path
            let result = try runSheetport(["convert", path, "-o", output])
            #expect(result.status != 0 && result.status != 1, "\(name)")
            #expect(result.stderr.contains(expected) && result.stderr.contains(name), "\(name): \(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output), "\(name)")
        }
    }

    @Test func aBombStopsAtTheCap() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 64 MiB of `a` in 2 KiB of zstd; 8 MiB of zeros in gzip.
        let zstdBomb = try Self.write(Self.zstd(repeating: UInt8(ascii: "a"), count: 64 << 20), "bomb.csv.zst", in: folder)
        #expect(try Data(contentsOf: URL(fileURLWithPath: zstdBomb)).count < 4096)
        let gzipBomb = try Self.write(try Self.gzip([Data(count: 8 << 20)]), "bomb.csv.gz", in: folder)
        for bomb in [zstdBomb, gzipBomb] {
            let result = try runSheetport(["convert", bomb, "-o", folder.appendingPathComponent("b.xlsx").path, "--max-total-size", "1M"])
            #expect(result.status == 3, "\(result.stderr)")
            #expect(result.stderr.contains("zip-bomb") && result.stderr.contains("1048576"), "\(result.stderr)")
        }
    }

    @Test func aMisnamedOrUnknownInputIsNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cases: [(Data, String, String)] = [
            (Self.csv, "plain.csv.gz", "holds text (CSV), not gzip data"),
            (Self.zstd(Self.csv), "z.csv.gz", "holds zstd data, not gzip data"),
            (try Self.gzip([Self.csv]), "g.csv.zst", "holds gzip data, not zstd data"),
            (Data([0x42, 0x5A, 0x68, 0x39, 0x31, 0x41, 0x59, 0x26, 0x53, 0x59, 0x00, 0x01, 0x02, 0x03] + [UInt8](repeating: 0, count: 64)), "x.csv.bz2", "bzip2 data"),
            (Data([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04] + [UInt8](repeating: 0, count: 64)), "x.xz", "xz data"),
        ]
        for (data, name, expected) in cases {
            let result = try runSheetport(["convert", try Self.write(data, name, in: folder), "-o", folder.appendingPathComponent("o.xlsx").path])
            #expect(result.status == 3, "\(name): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(name): \(result.stderr)")
        }
    }
}
