extension WebAssets {
    /// Every file of Sources/SheetPortServer/Web/Assets, by file name. SwiftPM generates one
    /// static a file (`name_ext`) and no list, so a file added there is named here too, in the
    /// same change (a test fails on a file missing from this list). This list is the page's:
    /// its owner edits it with the assets.
    static let files: [(name: String, bytes: [UInt8])] = [
        ("app.js", PackageResources.app_js),
        ("hello.js", PackageResources.hello_js),
        ("app.css", PackageResources.app_css),
    ]
}
