/// Features of a package that the import does not carry over, counted from its part names.
struct PackageFeature: Sendable {
    /// What the user calls one of them ("chart").
    let singular: String
    /// What the user calls several ("charts").
    let name: String
    /// Whether it is a macro (reported as `macros-dropped`, not `unsupported-feature`).
    let isMacro: Bool
    /// Whether a (folded, lower-case, `/`-separated) part name is one of these.
    let matches: @Sendable (String) -> Bool

    /// The features looked for, in report order.
    static let all: [PackageFeature] = [
        PackageFeature(singular: "VBA project", name: "VBA projects", isMacro: true) { $0.hasSuffix("vbaproject.bin") },
        PackageFeature(singular: "macro sheet", name: "macro sheets", isMacro: true) { $0.contains("/macrosheets/") && $0.hasSuffix(".xml") },
        PackageFeature(singular: "dialog sheet", name: "dialog sheets", isMacro: true) { $0.contains("/dialogsheets/") && $0.hasSuffix(".xml") },
        PackageFeature(singular: "chart", name: "charts", isMacro: false) { xml($0, in: "/charts/", prefix: "chart") },
        PackageFeature(singular: "image", name: "images", isMacro: false) { $0.contains("/media/") },
        PackageFeature(singular: "pivot table", name: "pivot tables", isMacro: false) { xml($0, in: "/pivottables/", prefix: "") },
        PackageFeature(singular: "external link", name: "external links", isMacro: false) { xml($0, in: "/externallinks/", prefix: "") },
        PackageFeature(singular: "slicer", name: "slicers", isMacro: false) { xml($0, in: "/slicers/", prefix: "") },
        PackageFeature(singular: "timeline", name: "timelines", isMacro: false) { xml($0, in: "/timelines/", prefix: "") },
        PackageFeature(singular: "embedded object", name: "embedded objects", isMacro: false) { $0.contains("/embeddings/") },
        PackageFeature(singular: "ActiveX control", name: "ActiveX controls", isMacro: false) { xml($0, in: "/activex/", prefix: "") },
        PackageFeature(singular: "form control", name: "form controls", isMacro: false) { xml($0, in: "/ctrlprops/", prefix: "") },
    ]

    /// An XML part directly in a folder named `folder` (`/charts/`), its file name starting with `prefix`.
    private static func xml(_ name: String, in folder: String, prefix: String) -> Bool {
        let components = name.split(separator: "/")
        guard name.hasSuffix(".xml"), components.count >= 2 else { return false }
        return "/" + components[components.count - 2] + "/" == folder && components[components.count - 1].hasPrefix(prefix)
    }
}

/// An entry name that would escape the folder it is extracted to, or names no file.
enum UnsafeEntryName {
    /// Why `name` is unsafe, or nil when it is not.
    static func reason(_ name: String) -> String? {
        let unified = String(name.map { $0 == "\\" ? "/" : $0 })
        if unified.hasPrefix("/") { return "is an absolute path" }
        let bytes = Array(unified.utf8)
        if bytes.count >= 2, bytes[1] == UInt8(ascii: ":") { return "names a drive" }
        if unified.split(separator: "/", omittingEmptySubsequences: false).contains("..") { return "climbs out with \"..\"" }
        if name.utf8.contains(0) { return "contains a NUL byte" }
        return nil
    }
}

/// "1 chart", "3 charts".
func quantity(_ count: Int, _ singular: String, _ plural: String) -> String {
    "\(count) " + (count == 1 ? singular : plural)
}
