import Foundation
import Testing
import SheetPortTestSupport

/// ISA-L against zlib (`SHEETPORT_INFLATE=zlib`) through the command line.
@Suite struct ArchiveInflaterTests {
    /// Through the command line: the same output, diagnostics and status either way, for sound
    /// and damaged workbooks.
    @Test(arguments: ["Fixtures/heldout/high_ratio.xlsx", "Fixtures/heldout/crc_damage.xlsx",
                      "Fixtures/heldout/inflate_damage.xlsx", "Fixtures/heldout/strings_crc_damage.xlsx",
                      "Fixtures/reader/multi_sheet.xlsx"])
    func theCommandLineAgrees(_ fixture: String) throws {
        let path = Project.root.appendingPathComponent(fixture).path
        for arguments in [["convert", path, "--to", "jsonl", "-o", "-", "--no-progress"], ["check", path, "--json"]] {
            let fast = try runSheetport(arguments)
            let reference = try runSheetport(arguments, environment: ["SHEETPORT_INFLATE": "zlib"])
            #expect(fast.status == reference.status && fast.stdout == reference.stdout && fast.stderr == reference.stderr,
                    "\(arguments): \(fast.stderr) / \(reference.stderr)")
        }
    }
}

/// The reader's memory, as a process of its own shows it.
@Suite struct CorpusTests {
    /// Each of the largest readable corpus files is converted whole (`convert --all`) by a
    /// process of its own, whose peak resident memory (wait4's rusage) must stay under 256 MiB:
    /// the figure of that read alone, not of the test process at some moment.
    @Test(arguments: largestReadableFiles(count: 12))
    func peakMemoryStaysBounded(_ name: String) throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("sheetport-peak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try runMeasured([Project.executable.path, "convert", Project.corpus.appendingPathComponent(name).path,
                                   "--all", "-o", output.path, "--to", "csv", "--no-progress"])
        #expect(run.status == 0, "\(name): exit \(run.status)")
        #expect(run.peakKiB > 0 && run.peakKiB < 256 << 10, "\(name): peak \(run.peakKiB) KiB")
    }

    static func largestReadableFiles(count: Int) -> [String] {
        let sized = Project.corpusFiles().filter { Project.expectedCorpusErrors[$0] == nil }.map { name -> (String, Int) in
            let size = (try? FileManager.default.attributesOfItem(atPath: Project.corpus.appendingPathComponent(name).path)[.size] as? Int) ?? 0
            return (name, size ?? 0)
        }
        return sized.sorted { $0.1 > $1.1 }.prefix(count).map(\.0)
    }
}
