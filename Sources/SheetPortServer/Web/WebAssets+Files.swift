extension WebAssets {
    /// Every file of Sources/SheetPortServer/Web/Assets, by file name. SwiftPM generates one
    /// static a file (`name_ext`) and no list, so a file added there is named here too, in the
    /// same change (a test fails on a file missing from this list). This list is the page's:
    /// its owner edits it with the assets.
    static let files: [(name: String, bytes: [UInt8])] = [
        ("app.js", PackageResources.app_js),
        ("app.css", PackageResources.app_css),
        ("api.js", PackageResources.api_js),
        ("commands.js", PackageResources.commands_js),
        ("dom.js", PackageResources.dom_js),
        ("geometry.js", PackageResources.geometry_js),
        ("grid.js", PackageResources.grid_js),
        ("header.js", PackageResources.header_js),
        ("import.js", PackageResources.import_js),
        ("live.js", PackageResources.live_js),
        ("model.js", PackageResources.model_js),
        ("panels.js", PackageResources.panels_js),
        ("refs.js", PackageResources.refs_js),
        ("sheets.js", PackageResources.sheets_js),
        ("signin.js", PackageResources.signin_js),
        ("status.js", PackageResources.status_js),
        ("theme.js", PackageResources.theme_js),
        ("toolbar.js", PackageResources.toolbar_js),
        ("tsv.js", PackageResources.tsv_js),
        ("view.js", PackageResources.view_js),
        ("writes.js", PackageResources.writes_js),
    ]
}
