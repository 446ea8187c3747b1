import SheetPortCore
/// What a sheet of the workbook is, from its relationship type.
public enum SheetKind: String, Sendable {
    /// A grid of cells.
    case worksheet
    /// A sheet holding one chart.
    case chartsheet
    /// An Excel 5 dialog sheet.
    case dialogsheet
    /// An Excel 4 (XLM) macro sheet.
    case macrosheet
    /// A sheet whose relationship is missing or of an unknown type.
    case unknown
}

/// Whether a sheet tab is shown.
public enum SheetState: String, Sendable {
    /// Shown.
    case visible
    /// Hidden, and the user can unhide it.
    case hidden
    /// Hidden, and only code can unhide it.
    case veryHidden
}

/// One `<sheet>` of `workbook.xml`, in workbook (tab) order.
public struct Sheet: Sendable, Equatable {
    /// The tab name.
    public var name: String
    /// 1-based position among all sheets.
    public var position: Int
    /// What the sheet is.
    public var kind: SheetKind
    /// Tab visibility.
    public var state: SheetState
    /// The sheet's part, resolved through the workbook's relationships; nil when it points nowhere.
    public var part: String?
    /// The `r:id` that names the relationship.
    public var relationshipID: String
}

/// A `<definedName>`.
public struct DefinedName: Sendable, Equatable {
    /// The name (`_xlnm.Print_Area` for built-in names).
    public var name: String
    /// The formula text it stands for.
    public var formula: String
    /// The 0-based sheet position it is local to, nil for workbook scope.
    public var localSheet: Int?
    /// Whether the name is hidden.
    public var isHidden: Bool
}

/// Reads `workbook.xml`: the sheets, the date system and the defined names.
final class WorkbookPart: XMLHandler {
    struct SheetEntry {
        var name: String
        var state: SheetState
        var relationshipID: String
    }

    private(set) var sheets: [SheetEntry] = []
    private(set) var definedNames: [DefinedName] = []
    private(set) var dateSystem = DateSystem.excel1900
    private(set) var externalReferenceCount = 0
    /// The relationship ids of the `<externalReference>` entries, in order (`[1]`, `[2]`, ...).
    private(set) var externalReferenceIDs: [String] = []
    /// `calcPr` with `iterate="1"`: circular references are computed iteratively.
    private(set) var iterativeCalculation: IterativeCalculation?
    /// `calcPr` with `fullCalcOnLoad="1"`.
    private(set) var recalculatesOnLoad = false
    private var text = TextCollector()
    private var pendingName: DefinedName?

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        if name.isSpreadsheet("sheet") {
            let id = attributes.string("id", in: .relationships) ?? attributes.string("id") ?? ""
            let state = attributes.string("state").flatMap(SheetState.init(rawValue:)) ?? .visible
            sheets.append(SheetEntry(name: attributes.string("name") ?? "Sheet\(sheets.count + 1)",
                                     state: state, relationshipID: id))
        } else if name.isSpreadsheet("workbookPr") {
            if attributes.bool("date1904") { dateSystem = .excel1904 }
        } else if name.isSpreadsheet("calcPr") {
            recalculatesOnLoad = attributes.bool("fullCalcOnLoad")
            if attributes.bool("iterate") {
                iterativeCalculation = IterativeCalculation(iterateCount: attributes.int("iterateCount"),
                                                            iterateDelta: attributes.double("iterateDelta"))
            }
        } else if name.isSpreadsheet("definedName") {
            pendingName = DefinedName(name: attributes.string("name") ?? "", formula: "",
                                      localSheet: attributes.int("localSheetId"),
                                      isHidden: attributes.bool("hidden"))
            text.begin()
        } else if name.isSpreadsheet("externalReference") {
            externalReferenceCount += 1
            externalReferenceIDs.append(attributes.string("id", in: .relationships) ?? attributes.string("id") ?? "")
        }
    }

    func endElement(_ name: XMLName) throws {
        if name.isSpreadsheet("definedName"), var pending = pendingName {
            try text.end()
            pending.formula = text.string
            definedNames.append(pending)
            pendingName = nil
        }
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) { self.text.append(text) }
}
