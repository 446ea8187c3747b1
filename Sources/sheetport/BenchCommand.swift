import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore
import SheetPortReader
import SheetPortWriter
import SheetPortConvert
import SheetPortBench

/// `sheetport bench`: the streaming benchmarks. Generates the benchmark workbook
/// (`SyntheticSheet`) and times reading it (to a counting sink and to CSV), checking it and
/// writing it, printing cells/s, MB/s of worksheet XML and peak memory of each phase.
/// `Benchmarks/run.sh` runs the same subcommands beside the peers.
enum BenchCommand {
    static let spec = CommandSpec(
        usage: """
        sheetport bench [--rows N] [--keep DIR]
               sheetport bench generate [--rows N] [--sheets N] -o OUT.xlsx
               sheetport bench read FILE [--to count|csv|jsonl|tokens] [limits]
               sheetport bench check FILE [limits]
               sheetport bench write [--rows N] [-o OUT.xlsx] [--inline-strings] [--level N]
               sheetport bench csv FILE.csv [--no-infer]
        """,
        about: """
        With no subcommand: generates the benchmark workbook (a header and N rows x 10 columns:
        numbers, repeated and unique strings, dates, booleans, formulas with cached values, in a
        shared-string table as Excel writes them), then times reading it to a counting sink, to
        CSV, checking it, and writing it again. Each phase prints cells/s, MB/s of worksheet XML
        and its peak memory.

          generate   write the benchmark workbook to OUT.xlsx
          read       read the first worksheet of FILE into a counting sink (or, with --to,
                     convert it to CSV or JSONL written to /dev/null; or only tokenize its
                     XML, the fast path's floor: tokens)
          check      pre-flight FILE as `sheetport check` does
          write      write the benchmark sheet through the streaming writer
          csv        read and type a CSV as `convert FILE.csv -o OUT.xlsx` does (both
                     passes: the columns' kinds, then typed rows), without writing;
                     MB/s is the file's size over the whole time
        """,
        groups: [
            OptionGroup(title: "OPTIONS", options: [
                .valued("--rows", "N", "data rows (default 200000)"),
                .valued("--output", short: "-o", "OUT", "the workbook to write (write: default a temporary file, removed)"),
                .valued("--keep", "DIR", "(no subcommand) keep the generated workbook in DIR"),
                .valued("--sheets", "N", "(generate) that many copies of the sheet, Data 1 to Data N (default 1: Data)"),
                .valued("--to", "FORMAT", "(read) count (default), csv, jsonl or tokens"),
                .flag("--inline-strings", "(write) inline strings instead of a shared-string table"),
                .valued("--level", "N", "(write) deflate level 1-9 (default 6, zlib's and libxlsxwriter's)"),
                .flag("--no-infer", "(csv) every field text: one pass"),
                .noProgress, .help,
            ]),
            LimitOptions.group(),
        ],
        footer: "read and check take the limits (over 1G of unique strings needs --max-text-size).")

    static func run(_ arguments: [String]) throws -> Int32 {
        let subcommands = ["generate", "read", "check", "write", "csv"]
        let subcommand = arguments.first.flatMap { subcommands.contains($0) ? $0 : nil }
        let options = try spec.parse(subcommand == nil ? arguments : Array(arguments.dropFirst()))
        if options.has("--help") { print(spec.help); return 0 }
        PendingFiles.removeOnSignals()
        let quiet = options.has("--no-progress")
        switch subcommand {
        case "generate":
            guard let output = options.value("--output") else { throw UsageError("bench generate needs -o OUT.xlsx") }
            guard let sheets = Int(options.value("--sheets") ?? "1"), (1...1000).contains(sheets) else {
                throw UsageError("--sheets takes a whole number from 1 to 1000")
            }
            print(try write(rows: rows(options), to: output, options: WriterOptions(), quiet: quiet, sheets: sheets))
        case "write":
            try write(options)
        case "read":
            print(try read(file(options), to: options.value("--to") ?? "count",
                           limits: LimitOptions.limits(options), quiet: quiet))
        case "check":
            print(try check(file(options), limits: LimitOptions.limits(options)))
        case "csv":
            print(try csv(file(options), inferTypes: !options.has("--no-infer")))
        default:
            try all(rows: rows(options), keep: options.value("--keep"), quiet: quiet)
        }
        return 0
    }

    // MARK: phases

    /// What one timed phase did.
    struct Measurement: CustomStringConvertible {
        var phase: String
        var cells: Int
        var xmlBytes: Int64
        var seconds: Double
        var peakKiB: Int
        /// What `xmlBytes` counts.
        var unit = "worksheet XML"

        var description: String {
            String(format: "%@: %d cells in %.3f s: %.0f cells/s, %.1f MB/s of %@, peak RSS %d KiB",
                   phase, cells, seconds, Double(cells) / seconds, Double(xmlBytes) / seconds / 1e6, unit, peakKiB)
        }
    }

    private static func write(_ options: Arguments) throws {
        var writerOptions = WriterOptions()
        writerOptions.sharedStrings = !options.has("--inline-strings")
        if let level = options.value("--level") {
            guard let value = Int(level), (1...9).contains(value) else { throw UsageError("--level must be 1 to 9") }
            writerOptions.compressionLevel = value
        }
        var folder: TemporaryFolder?
        let path: String
        if let output = options.value("--output") {
            path = output
        } else {
            folder = try TemporaryFolder()
            path = folder!.path + "/workbook.xlsx"
        }
        defer { folder?.remove() }
        print(try write(rows: rows(options), to: path, options: writerOptions, quiet: options.has("--no-progress")))
    }

    /// Writes the benchmark sheet of `rows` data rows to `path`.
    static func write(rows: Int, to path: String, options: WriterOptions, quiet: Bool, sheets: Int = 1) throws -> Measurement {
        let progress = ProgressLine(label: "writing", disabled: quiet)
        let clock = PhaseClock()
        let writer = try WorkbookWriter(path: path, options: options)
        do {
            for number in 1...sheets {
                try SyntheticSheet(rows: rows).write(into: writer, named: sheets == 1 ? "Data" : "Data \(number)") { written in
                    progress.update(fraction: Double(written) / Double(max(rows, 1)), detail: "\(written) rows")
                }
            }
            try writer.close()
        } catch {
            writer.discard()
            throw error
        }
        progress.finish()
        let seconds = clock.seconds
        var limits = ArchiveLimits()
        limits.maxTextSize = Int.max // our own output, however many strings it shares
        let xml = try Workbook(path: path, limits: limits).firstWorksheetSize
        return Measurement(phase: "write", cells: (rows * 10 + 10) * sheets, xmlBytes: xml * Int64(sheets), seconds: seconds, peakKiB: clock.peakKiB)
    }

    /// Reads the first worksheet of `path` into a counting sink, or converts it to CSV or
    /// JSONL written to /dev/null.
    static func read(_ path: String, to sink: String, limits: ArchiveLimits = ArchiveLimits(),
                     quiet: Bool) throws -> Measurement {
        let progress = ProgressLine(label: "reading", disabled: quiet)
        let clock = PhaseClock()
        let workbook = try Workbook(path: path, limits: limits)
        guard let sheet = workbook.firstWorksheet else {
            throw ReaderError(.missingPart, file: path, part: workbook.workbookPart, "the workbook has no worksheet")
        }
        var cells = 0
        var xml: Int64 = 0
        switch sink {
        case "count":
            let reader = try workbook.rows(of: sheet)
            var rows = 0
            while let row = try reader.nextRow() {
                cells += row.cells.count
                rows += 1
                if rows & 4095 == 0 { progress.update(reader.progress) }
            }
            xml = reader.progress.totalBytes
        case "tokens":
            let floor = try TokenizerFloor.run(workbook, sheet: sheet)
            cells = floor.elements
            xml = floor.xmlBytes
        default:
            guard let format = TextFormat(rawValue: sink), format != .jsonl || sink == "jsonl" else {
                throw UsageError("--to must be count, csv, jsonl or tokens")
            }
            let null = open("/dev/null", O_WRONLY)
            defer { close(null) }
            let summary = try SheetConverter.convert(workbook, sheet: sheet, to: format,
                                                     output: ByteOutput(descriptor: null, name: "/dev/null")) {
                progress.update(($0.bytesRead, $0.totalBytes))
            }
            cells = summary.cells
            xml = summary.totalBytes
        }
        progress.finish()
        return Measurement(phase: "read to \(sink)", cells: cells, xmlBytes: xml, seconds: clock.seconds, peakKiB: clock.peakKiB)
    }

    /// Reads and types the CSV at `path` as `convert` does before the writer (both passes
    /// with `inferTypes`), the rows handed to a counting sink.
    static func csv(_ path: String, inferTypes: Bool) throws -> Measurement {
        let clock = PhaseClock()
        let source = try TextSource(path: path)
        var options = TextToWorkbook.Options()
        options.inferTypes = inferTypes
        var formats: [String: Int] = [:]
        var strings = 0
        let summary = try TextToWorkbook.readRows(source, format: .csv, options: options, style: { format in
            if let index = formats[format] { return index }
            formats[format] = formats.count + 1
            return formats.count
        }) { row, _ in
            // By index: a `for cell in` copies each cell (a retain and a release of its text).
            for index in row.cells.indices { if case .string = row.cells[index].value { strings += 1 } }
        }
        let size = source.size ?? 0
        var measurement = Measurement(phase: "csv\(inferTypes ? "" : " --no-infer") (\(strings) text cells)", cells: summary.cells,
                                      xmlBytes: size, seconds: clock.seconds, peakKiB: clock.peakKiB)
        measurement.unit = "CSV"
        return measurement
    }

    /// Pre-flights `path` as `sheetport check` does.
    static func check(_ path: String, limits: ArchiveLimits = ArchiveLimits()) throws -> Measurement {
        let clock = PhaseClock()
        var options = PreflightOptions()
        options.limits = limits
        let report = try Preflight.check(path: path, options: options)
        let seconds = clock.seconds
        let cells = report.worksheets.first { $0.imported }?.cells ?? 0
        let xml = (try? Workbook(path: path, limits: limits).firstWorksheetSize) ?? 0
        return Measurement(phase: "check", cells: cells, xmlBytes: xml, seconds: seconds, peakKiB: clock.peakKiB)
    }

    /// Generates the workbook, then runs every phase on it.
    private static func all(rows: Int, keep: String?, quiet: Bool) throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let path = (keep ?? folder.path) + "/bench-\(rows).xlsx"
        print("benchmark workbook: \(rows) rows x 10 columns, \(path)")
        print(try write(rows: rows, to: path, options: WriterOptions(), quiet: quiet))
        // The generated workbook is trusted: its shared strings may pass the default text limit.
        var limits = ArchiveLimits()
        limits.maxTextSize = Int.max
        print(try read(path, to: "count", limits: limits, quiet: quiet))
        print(try read(path, to: "csv", limits: limits, quiet: quiet))
        print(try check(path, limits: limits))
        var inline = WriterOptions()
        inline.sharedStrings = false
        print(try write(rows: rows, to: folder.path + "/inline.xlsx", options: inline, quiet: quiet), "(inline strings)")
    }

    // MARK: options

    private static func rows(_ options: Arguments) throws -> Int {
        guard let rows = Int(options.value("--rows") ?? "200000"), rows >= 0, rows < CellReference.maxRow else {
            throw UsageError("--rows must be 0 to 1048575")
        }
        return rows
    }

    private static func file(_ options: Arguments) throws -> String {
        guard options.positionals.count == 1 else { throw UsageError("bench read, check and csv take one FILE") }
        return options.positionals[0]
    }
}

/// Wall-clock time and peak resident memory of one phase: the peak (`VmHWM`) is reset at the
/// start, so each phase of `bench` reports its own.
struct PhaseClock {
    private let start = Date()

    init() {
        // Writing 5 to clear_refs resets the peak RSS of this process (Linux 4.0 and later).
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        if fd >= 0 { _ = write(fd, "5", 1); close(fd) }
    }

    /// Seconds since the phase started.
    var seconds: Double { Date().timeIntervalSince(start) }

    /// Peak resident memory since the phase started, in KiB (`VmHWM`).
    var peakKiB: Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

extension ProgressLine {
    /// Redraws from the reader's position in the worksheet part.
    func update(_ position: (bytesRead: Int64, totalBytes: Int64)) {
        update(fraction: Double(position.bytesRead) / Double(max(position.totalBytes, 1)),
               detail: "\(position.bytesRead / 1_000_000) of \(position.totalBytes / 1_000_000) MB")
    }
}

extension Workbook {
    /// Inflated size of the first worksheet part, in bytes.
    var firstWorksheetSize: Int64 {
        guard let part = firstWorksheet?.part, let entry = archive.entry(named: part) else { return 0 }
        return entry.size
    }
}
