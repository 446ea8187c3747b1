import SheetPortCore
import SheetPortWriter

extension TextToWorkbook {
    /// One input of a conversion of several text files into one workbook.
    public struct Input {
        /// The text.
        public var source: TextSource
        /// CSV, TSV or cell JSONL.
        public var format: TextFormat
        /// The sheet it becomes.
        public var sheetName: String

        /// `source` read as `format` into the sheet `sheetName`.
        public init(source: TextSource, format: TextFormat, sheetName: String) {
            self.source = source
            self.format = format
            self.sheetName = sheetName
        }
    }

    /// Writes each of `inputs`, in order, as a sheet of one workbook at `destination`, read as
    /// `options` say (their `sheetName` aside), published only when every input converted:
    /// an input that fails halfway leaves no workbook and no temporary file, and a workbook
    /// already at `destination` as it was. `progress` hears which input it is at, and how far.
    @discardableResult
    public static func convert(_ inputs: [Input], to destination: String, options: Options = Options(),
                               progress: ((Int, ConversionSummary) -> Void)? = nil) throws -> [ConversionSummary] {
        let writer = try WorkbookWriter(path: destination, options: options.writer)
        do {
            var summaries: [ConversionSummary] = []
            for (position, input) in inputs.enumerated() {
                var sheetOptions = options
                sheetOptions.sheetName = input.sheetName
                summaries.append(try append(input.source, format: input.format, to: writer, options: sheetOptions,
                                            progress: progress.map { report in { report(position, $0) } }))
            }
            try writer.close()
            return summaries
        } catch {
            writer.discard()
            throw error
        }
    }

    /// The sheet names for inputs named `names` (`data.csv` -> `data`), made unique as Excel
    /// compares them (ignoring case): a later one gets ` (2)`, ` (3)`, ... within 31 characters.
    public static func sheetNames(for names: [String]) -> [String] {
        var taken: Set<String> = []
        return names.map { name in
            let base = sheetName(for: name)
            var candidate = base
            var counter = 2
            while taken.contains(candidate.lowercased()) {
                let suffix = " (\(counter))"
                var stem = base
                while stem.utf16.count + suffix.utf16.count > 31 { stem.removeLast() }
                candidate = stem + suffix
                counter += 1
            }
            taken.insert(candidate.lowercased())
            return candidate
        }
    }
}
