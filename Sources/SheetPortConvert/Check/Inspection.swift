import SheetPortCore
import SheetPortReader
/// The findings of one open workbook, gathered in one pass: package parts and workbook
/// settings (`inspectPackage`), then the first worksheet streamed row by row
/// (`inspectFirstWorksheet`: by `check` itself, or by the server's import as it stores the rows).
struct Inspection {
    let workbook: Workbook
    let options: PreflightOptions
    private(set) var findings: [Finding] = []
    private(set) var worksheets: [CheckReport.Worksheet] = []
    /// The first worksheet's comments, once read whole (the import stores them).
    private(set) var comments: [Comment]?
    /// The package features found among the parts (`PackageFeature.name`).
    private var packageFeatures: Set<String> = []
    /// Relationships the import follows that point to no part, by type, with their source part.
    private var danglingRelationships: [String: (relationship: Relationship, part: String)] = [:]

    /// How many examples (cell references, part names) a message lists.
    static let exampleLimit = 3

    init(workbook: Workbook, options: PreflightOptions) {
        self.workbook = workbook
        self.options = options
    }

    /// Everything that needs no pass over the worksheet's cells: package entries and parts,
    /// workbook settings, the sheets and the relationships the import follows. Returns the
    /// first worksheet, or nil when there is none (that is a finding).
    mutating func inspectPackage() -> Sheet? {
        inspectEntries()
        inspectWorkbook()
        guard let first = workbook.firstWorksheet else {
            worksheets = workbook.sheets.map { CheckReport.Worksheet(name: $0.name, imported: false, state: $0.state) }
            findings.append(Finding(ReaderError(.missingPart, file: workbook.file, part: workbook.workbookPart,
                                                "the workbook has no worksheet to import")))
            return nil
        }
        inspectSheets(first: first)
        inspectRelationships(first: first)
        return first
    }

    /// The findings of the first worksheet's cells, from the pass `read` drives over it (to
    /// its end: `check` only counts, the import stores the rows as well). A reader error
    /// other than I/O, from the pass or from `read`, is a finding; anything else `read` throws
    /// passes through.
    mutating func inspectFirstWorksheet(_ sheet: Sheet, read: (inout WorksheetPass) throws -> Void) throws {
        do {
            var pass = try WorksheetPass(workbook: workbook, sheet: sheet, options: options)
            try read(&pass)
            while try pass.nextRow() != nil {} // the findings count every cell, should `read` stop early
            try reportFirstWorksheet(pass)
        } catch let error as ReaderError where error.code != .io {
            findings.append(Finding(error))
        }
    }

    // MARK: package

    private mutating func inspectEntries() {
        var unsafe: [String] = []
        var reasons: [String] = []
        for entry in workbook.archive.entries {
            if let reason = UnsafeEntryName.reason(entry.name) {
                unsafe.append(entry.name)
                reasons.append("\"\(entry.name)\" \(reason)")
            }
        }
        if !unsafe.isEmpty {
            findings.append(error(.unsafeZipEntry, quantity(unsafe.count, "unsafe entry name", "unsafe entry names") + ": "
                                  + reasons.prefix(Self.exampleLimit).joined(separator: "; "),
                                  part: unsafe[0], count: unsafe.count))
        }
        let duplicates = workbook.archive.duplicateNames
        if !duplicates.isEmpty {
            let shown = duplicates.prefix(Self.exampleLimit).map { "\"\($0)\"" }.joined(separator: ", ")
            findings.append(error(.unsafeZipEntry, quantity(duplicates.count, "entry name occurs", "entry names occur") + " twice: \(shown)",
                                  part: duplicates[0], count: duplicates.count))
        }
        var parts: [String: [String]] = [:]
        for entry in workbook.archive.entries {
            let folded = PartName.key(entry.name)
            guard !folded.hasSuffix(".rels") else { continue }
            for feature in PackageFeature.all where feature.matches(folded) {
                parts[feature.name, default: []].append(entry.name)
            }
        }
        for feature in PackageFeature.all {
            guard let names = parts[feature.name]?.sorted() else { continue }
            packageFeatures.insert(feature.name)
            let shown = names.prefix(Self.exampleLimit).joined(separator: ", ") + (names.count > Self.exampleLimit ? ", ..." : "")
            if feature.isMacro {
                findings.append(Finding(.macrosDropped, .warning,
                                        quantity(names.count, feature.singular, feature.name) + " (\(shown)): macros are not imported or run",
                                        part: names[0], count: names.count))
            } else {
                findings.append(Finding(.unsupportedFeature, .warning,
                                        quantity(names.count, feature.singular, feature.name) + " (\(shown)) will not be imported",
                                        part: names[0], count: names.count))
            }
        }
    }

    private mutating func inspectWorkbook() {
        // Links with no externalLink part of their own (the parts are counted already when present).
        if workbook.externalReferenceCount > 0, !packageFeatures.contains("external links") {
            findings.append(Finding(.unsupportedFeature, .warning,
                                    quantity(workbook.externalReferenceCount, "external link", "external links") + " (to other workbooks) will not be imported",
                                    part: workbook.workbookPart, count: workbook.externalReferenceCount))
        }
        if workbook.dateSystem == .excel1904 {
            findings.append(Finding(.date1904, .info, "the workbook counts dates from 1904; they are converted on import",
                                    part: workbook.workbookPart))
        }
        if workbook.isStrict {
            findings.append(Finding(.strictOOXML, .info, "the workbook uses Strict OOXML namespaces", part: workbook.workbookPart))
        }
    }

    private mutating func inspectSheets(first: Sheet) {
        worksheets = workbook.sheets.map { CheckReport.Worksheet(name: $0.name, imported: $0 == first, state: $0.state) }
        if first.state != .visible {
            let how = first.state == .veryHidden ? "very hidden (only VBA can show it)" : "hidden"
            findings.append(Finding(.firstWorksheetHidden, .warning,
                                    "the worksheet an import takes, \"\(first.name.visibleControlCharacters)\", is \(how) in Excel; "
                                    + "the import shows it, and visible sheets after it are not imported",
                                    part: workbook.workbookPart))
        }
        let others = workbook.sheets.filter { $0 != first }
        guard !others.isEmpty else { return }
        let names = others.map { "\"\($0.name)\"" + ($0.kind == .worksheet ? "" : " (\($0.kind.rawValue))") }
        findings.append(Finding(.extraWorksheets, .warning,
                                "only the first worksheet, \"\(first.name)\", is imported; " + quantity(others.count, "other sheet is", "other sheets are") + " not: "
                                + names.joined(separator: ", "),
                                part: workbook.workbookPart, count: others.count))
        let macroSheets = others.filter { $0.kind == .macrosheet || $0.kind == .dialogsheet }
        if !macroSheets.isEmpty, !findings.contains(where: { $0.code == Finding.Code.macrosDropped.rawValue }) {
            findings.append(Finding(.macrosDropped, .warning,
                                    quantity(macroSheets.count, "macro sheet", "macro sheets") + " (\(macroSheets.map(\.name).joined(separator: ", "))) are not imported or run",
                                    part: workbook.workbookPart, count: macroSheets.count))
        }
    }

    /// The relationships the import follows (the workbook's styles and shared strings, the
    /// first worksheet's comments) that point to no part. Comments would be lost: that is
    /// `missing-part` at once. Styles and shared strings are `missing-part` once the sheet
    /// shows that cells use them (`reportLostContent`); a workbook whose cells do not is
    /// imported whole. Parts the import does not read (theme, calculation chain, printer
    /// settings, custom XML, ...) may be missing.
    private mutating func inspectRelationships(first: Sheet) {
        var sources: [(part: String, relationships: [Relationship], types: Set<String>)] = [
            (workbook.workbookPart, workbook.relationships, ["styles", "sharedStrings"]),
        ]
        if let sheetRelationships = try? workbook.relationships(of: first) {
            sources.append((first.part ?? workbook.workbookPart, sheetRelationships, ["comments"]))
        }
        for source in sources {
            for relationship in source.relationships
            where !relationship.isExternal && source.types.contains(relationship.type)
                && workbook.archive.entry(named: relationship.target) == nil {
                danglingRelationships[relationship.type] = (relationship, source.part)
            }
        }
        if let (relationship, part) = danglingRelationships["comments"] {
            findings.append(Finding(ReaderError(.missingPart, file: workbook.file, part: part, dangling(relationship) + "; the comments would be lost")))
        }
    }

    private func dangling(_ relationship: Relationship) -> String {
        "the \(relationship.type) relationship (\(relationship.id)) points to \(relationship.target), which is not in the package"
    }

    /// Cells whose text or format is missing from the package: not importable as they are.
    private mutating func reportLostContent(_ stats: SheetStatistics, _ metadata: WorksheetMetadata, part: String?) {
        if metadata.missingSharedStringCount > 0 {
            let cause = danglingRelationships["sharedStrings"].map { dangling($0.relationship) }
                ?? "the shared-string table has \(quantity((try? workbook.sharedStrings().count) ?? 0, "string", "strings"))"
            findings.append(error(.missingPart, quantity(metadata.missingSharedStringCount, "cell shows", "cells show")
                                  + " a shared string that is not there: " + cause, part: part, count: metadata.missingSharedStringCount))
        }
        if stats.styledCells > 0, let (relationship, source) = danglingRelationships["styles"] {
            findings.append(error(.missingPart, dangling(relationship) + "; " + quantity(stats.styledCells, "cell", "cells")
                                  + " would lose their formats (dates would read as numbers)", part: source, count: stats.styledCells))
        }
    }

    // MARK: the first worksheet

    private mutating func reportFirstWorksheet(_ pass: WorksheetPass) throws {
        let sheet = pass.sheet, reader = pass.reader, stats = pass.statistics
        let styles = try workbook.styles()
        let strings = try workbook.sharedStrings()
        let part = sheet.part
        // Comments are imported: their part must read (a missing one is already a finding).
        if danglingRelationships["comments"] == nil { comments = try workbook.comments(of: sheet) }
        if let index = worksheets.firstIndex(where: { $0.imported }) {
            worksheets[index].rows = stats.lastRow
            worksheets[index].columns = stats.lastColumn
            worksheets[index].cells = stats.cells
        }
        if stats.longTextCount > 0 {
            findings.append(error(.exceedsLimit, quantity(stats.longTextCount, "cell holds", "cells hold") + " more than \(options.maxCellTextLength) characters, "
                                  + "the most a cell may hold (first: \(stats.firstLongText!))", part: part, count: stats.longTextCount))
        }
        if stats.lastRow > options.maxRows || stats.lastColumn > options.maxColumns {
            findings.append(error(.exceedsLimit, "the used range A1:\(CellReference(row: stats.lastRow, column: stats.lastColumn)) is over the server's "
                                  + "limit of \(options.maxRows) rows and \(options.maxColumns) columns", part: part))
        }
        let span = stats.lastRow * stats.lastColumn
        if span > options.maxCells {
            findings.append(error(.exceedsLimit, "the used range A1:\(CellReference(row: stats.lastRow, column: stats.lastColumn)) spans "
                                  + "\(span) cells, over the limit of \(options.maxCells) (--max-cells)", part: part, count: span))
        }
        reportLostContent(stats, reader.metadata, part: part)
        reportSheetFeatures(reader.metadata, part: part)
        reportFormatting(stats, styles: styles, strings: strings, metadata: reader.metadata, part: part)
        reportColours(stats, styles: styles, part: part)
        if stats.uncachedFormulas > 0 {
            findings.append(Finding(.formulaNoCachedValue, .info,
                                    quantity(stats.uncachedFormulas, "formula has", "formulas have") + " no cached value (first: \(stats.firstUncached!)); "
                                    + "they are computed after import", part: part, count: stats.uncachedFormulas))
        }
    }

    private mutating func reportSheetFeatures(_ metadata: WorksheetMetadata, part: String?) {
        func add(_ singular: String, _ name: String, _ count: Int, examples: [String] = []) {
            guard count > 0 else { return }
            let shown = examples.isEmpty ? "" : " (" + examples.prefix(Self.exampleLimit).joined(separator: ", ")
                + (count > Self.exampleLimit ? ", ..." : "") + ")"
            findings.append(Finding(.unsupportedFeature, .warning, quantity(count, singular, name) + "\(shown) will not be imported",
                                    part: part, count: count))
        }
        add("merged range", "merged ranges", metadata.mergedRangeCount, examples: metadata.mergedRanges)
        add("conditional format", "conditional formats", metadata.conditionalFormatCount)
        add("data validation rule", "data validation rules", metadata.dataValidationCount)
        add("hyperlink", "hyperlinks", metadata.hyperlinkCount, examples: metadata.hyperlinks)
        add("sparkline", "sparklines", metadata.sparklineCount)
    }

    private mutating func reportFormatting(_ stats: SheetStatistics, styles: Styles, strings: SharedStrings,
                                           metadata: WorksheetMetadata, part: String?) {
        let base = styles.format(0)
        let kinds: [(String, (CellFormat) -> Bool)] = [
            ("borders", { $0.hasBorder }),
            ("underline", { $0.isUnderlined }),
            ("strikethrough", { $0.isStruckThrough }),
            ("fonts other than the default", { $0.fontName != nil && $0.fontName != base.fontName }),
            ("font sizes other than the default", { $0.fontSize != nil && $0.fontSize != base.fontSize }),
            ("pattern fills", { $0.hasPatternFill }),
        ]
        for (name, applies) in kinds {
            var cells = 0
            var first: CellReference?
            for (index, count) in stats.cellsByStyle.enumerated() where count > 0 && applies(styles.format(index)) {
                cells += count
                if let candidate = stats.firstCellByStyle[index], first == nil || candidate < first! { first = candidate }
            }
            guard cells > 0 else { continue }
            findings.append(Finding(.formattingDropped, .warning,
                                    quantity(cells, "cell uses", "cells use") + " \(name) (first: \(first!)), which Sheets does not keep",
                                    part: part, count: cells))
        }
        reportNumberFormats(stats, styles: styles, part: part)
        let richCells = metadata.richTextCellCount
        if richCells > 0 {
            findings.append(Finding(.formattingDropped, .warning,
                                    quantity(richCells, "cell shows", "cells show") + " rich text (runs in "
                                    + quantity(strings.richTextCount, "shared string", "shared strings") + "); only the text is kept",
                                    part: part, count: richCells))
        }
    }

    /// `bad-number-format`: cells whose format code Excel would not take (the import stores
    /// them in General), counted with the first cell and the first such code's fault.
    private mutating func reportNumberFormats(_ stats: SheetStatistics, styles: Styles, part: String?) {
        var cells = 0
        var first: CellReference?
        var fault: String?
        for (index, count) in stats.cellsByStyle.enumerated() where count > 0 {
            do {
                try NumberFormat.validate(styles.format(index).numberFormat)
            } catch {
                cells += count
                if let candidate = stats.firstCellByStyle[index], first == nil || candidate < first! { first = candidate }
                if fault == nil {
                    fault = "\"\(styles.format(index).numberFormat.prefix(40).visibleControlCharacters)\": \(error.reason)"
                }
            }
        }
        guard cells > 0, let first, let fault else { return }
        findings.append(Finding(.badNumberFormat, .warning,
                                quantity(cells, "cell has", "cells have") + " a number format Excel does not take (first: \(first), \(fault)); "
                                + "they keep their values, shown in General", part: part, count: cells))
    }

    private mutating func reportColours(_ stats: SheetStatistics, styles: Styles, part: String?) {
        struct Pair: Hashable { var text: String?; var fill: String? }
        var cells: [Pair: (count: Int, first: CellReference)] = [:]
        var order: [Pair] = []
        // The default format's colours, and black text on no fill, are what Sheets shows by default
        // (and adapts to dark mode): not authored.
        let base = styles.format(0)
        for (index, count) in stats.cellsByStyle.enumerated() where count > 0 {
            let format = styles.format(index)
            var pair = Pair(text: format.textColor == base.textColor ? nil : format.textColor,
                            fill: format.fillColor == base.fillColor ? nil : format.fillColor)
            if pair.fill == nil, pair.text == "#000000" { pair.text = nil }
            guard pair.text != nil || pair.fill != nil, let first = stats.firstCellByStyle[index] else { continue }
            if let known = cells[pair] {
                cells[pair] = (known.count + count, min(known.first, first))
            } else {
                cells[pair] = (count, first)
                order.append(pair)
            }
        }
        for pair in order {
            let poor = Contrast.poorModes(text: pair.text, fill: pair.fill)
            guard !poor.isEmpty, let (count, first) = cells[pair] else { continue }
            let modes = poor.map { "\($0.mode.rawValue) mode \(Self.ratio($0.ratio)):1" }.joined(separator: ", ")
            let text = pair.text.map { "text \($0)" } ?? "default text"
            let fill = pair.fill.map { "fill \($0)" } ?? "no fill"
            findings.append(Finding(.authoredColours, .warning,
                                    quantity(count, "cell", "cells") + " with \(text) on \(fill) (first: \(first)) " + (count == 1 ? "is" : "are") + " hard to read: contrast \(modes), "
                                    + "below \(Self.ratio(Contrast.minimumRatio)):1", part: part, count: count))
        }
    }

    private static func ratio(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    private func error(_ code: ReaderError.Code, _ message: String, part: String?, count: Int? = nil) -> Finding {
        var finding = Finding(ReaderError(code, file: workbook.file, part: part, message))
        finding.count = count
        return finding
    }
}
