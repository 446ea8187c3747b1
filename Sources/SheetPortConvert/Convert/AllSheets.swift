#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore
import SheetPortReader
import SheetPortWriter

/// One worksheet written by `SheetConverter.convertAll`.
public struct ConvertedSheet: Sendable, Equatable {
    /// The sheet.
    public var sheet: Sheet
    /// The file it was written to, in the folder.
    public var fileName: String
    /// What was written.
    public var summary: ConversionSummary
}

extension SheetConverter {
    /// Converts each of `sheets` to `folder/<name>.<format>` (names made safe and unique by
    /// `FileNames.unique`), from one open workbook, so the shared strings and styles are read
    /// once for all sheets. Every file is built under a temporary name in `folder` and all are
    /// published only when all are complete: an error leaves no new file in `folder` (a file of
    /// the same name that was there before is left as it was).
    /// `progress` hears the sheet being converted (0-based) and how far the whole run is: rows
    /// and bytes of every sheet so far against the bytes of all the sheets' parts, so one
    /// progress line runs once across all sheets instead of restarting per sheet.
    @discardableResult
    public static func convertAll(_ workbook: Workbook, sheets: [Sheet], to format: TextFormat, folder: String,
                                  options: TextOutputOptions = TextOutputOptions(),
                                  progress: ((Int, ConversionSummary) -> Void)? = nil) throws -> [ConvertedSheet] {
        let names = FileNames.unique(for: sheets.map(\.name), fileExtension: format.rawValue)
        var staged: [AtomicFile] = []
        var converted: [ConvertedSheet] = []
        let total = sheets.reduce(Int64(0)) { $0 + ((try? workbook.worksheetEntry($1).size) ?? 0) }
        var done = ConversionSummary()
        // One engine for all the sheets: references across them resolve.
        let calculation = try ConversionCalculation(workbook, options: options)
        do {
            for (index, (sheet, name)) in zip(sheets, names).enumerated() {
                // A name from the workbook: never through a link, a FIFO or a device in the folder.
                let file = try AtomicFile(entry: name, in: folder)
                staged.append(file)
                let output = ByteOutput(descriptor: file.descriptor, name: file.destination)
                let summary = try convert(workbook, sheet: sheet, to: format, output: output, options: options,
                                          calculation: calculation) { summary in
                    var overall = done
                    overall.rows += summary.rows
                    overall.cells += summary.cells
                    overall.bytesRead += summary.bytesRead
                    overall.totalBytes = max(total, overall.bytesRead)
                    progress?(index, overall)
                }
                done.rows += summary.rows
                done.cells += summary.cells
                done.bytesRead += summary.totalBytes
                done.totalBytes = max(total, done.bytesRead)
                progress?(index, done)
                converted.append(ConvertedSheet(sheet: sheet, fileName: name, summary: summary))
            }
        } catch {
            for file in staged { file.discard() }
            throw error
        }
        try publish(staged)
        return converted
    }

    /// Publishes every staged file; when one cannot be, those published before it that were
    /// new are removed again and the rest discarded, so the folder holds no new file.
    private static func publish(_ files: [AtomicFile]) throws {
        var published: [(path: String, isNew: Bool)] = []
        for (index, file) in files.enumerated() {
            var status = stat()
            let existed = lstat(file.destination, &status) == 0
            do {
                try file.publish()
                published.append((file.destination, !existed))
            } catch {
                for later in files[(index + 1)...] { later.discard() }
                for (path, isNew) in published where isNew { unlink(path) }
                throw error
            }
        }
    }
}
