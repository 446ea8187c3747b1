import Foundation
import SheetPort
#if canImport(Glibc)
import Glibc
#endif

/// `sheetport bench write --rows N -o OUT.xlsx`: times the streaming writer on the
/// benchmark sheet (`SyntheticSheet`), as `Benchmarks/write/run.sh` runs it beside libxlsxwriter.
enum BenchCommand {
    static let help = """
    USAGE: sheetport bench write [--rows N] [-o OUT.xlsx] [--inline-strings] [--level N]

    Writes the benchmark sheet (a header and N rows x 10 columns: numbers, repeated and
    unique strings, dates, booleans, formulas with cached values) through the streaming
    writer and prints rows/s, MB/s of output and peak memory.

    OPTIONS:
      --rows N             data rows (default 200000)
      -o, --output OUT     the workbook to write (default: a temporary file, removed)
      --inline-strings     inline strings instead of a shared-string table
      --level N            deflate level 1-9 (default 6, zlib's and libxlsxwriter's)
      --no-progress        no progress bar
      -h, --help           show this help
    """

    static func run(_ arguments: [String]) throws -> Int32 {
        guard arguments.first == "write" else {
            if arguments.first == "--help" || arguments.first == "-h" { print(help); return 0 }
            throw UsageError("bench takes a benchmark: write\n\n" + help)
        }
        let options = try Arguments(Array(arguments.dropFirst()), valued: ["--rows", "--output", "--level"],
                                    flags: ["--help", "--inline-strings", "--no-progress"],
                                    aliases: ["-o": "--output", "-h": "--help"])
        if options.has("--help") { print(help); return 0 }
        guard let rows = Int(options.value("--rows") ?? "200000"), rows >= 0, rows < CellReference.maxRow else {
            throw UsageError("--rows must be 0 to 1048575")
        }
        var writerOptions = WriterOptions()
        writerOptions.sharedStrings = !options.has("--inline-strings")
        if let level = options.value("--level") {
            guard let value = Int(level), (1...9).contains(value) else { throw UsageError("--level must be 1 to 9") }
            writerOptions.compressionLevel = value
        }
        PendingFiles.removeOnSignals()
        var folder: TemporaryFolder?
        let path: String
        if let output = options.value("--output") {
            path = output
        } else {
            folder = try TemporaryFolder()
            path = folder!.path + "/workbook.xlsx"
        }
        let progress = ProgressLine(label: "writing", disabled: options.has("--no-progress"))
        let started = Date()
        let writer = try WorkbookWriter(path: path, options: writerOptions)
        do {
            try SyntheticSheet(rows: rows).write(into: writer) { written in
                progress.update(fraction: Double(written) / Double(max(rows, 1)), detail: "\(written) rows")
            }
            try writer.close()
        } catch {
            writer.discard()
            throw error
        }
        progress.finish()
        let seconds = Date().timeIntervalSince(started)
        let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let cells = rows * 10 + 10
        print(String(format: "wrote %d rows, %d cells in %.3f s: %.0f cells/s, %.1f MB/s of xlsx, peak RSS %d KiB",
                     rows + 1, cells, seconds, Double(cells) / seconds, Double(bytes) / seconds / 1e6, peakMemoryKiB()))
        folder?.remove()
        return 0
    }

    /// Peak resident memory of this process (`ru_maxrss`, KiB on Linux).
    static func peakMemoryKiB() -> Int {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss
    }
}
