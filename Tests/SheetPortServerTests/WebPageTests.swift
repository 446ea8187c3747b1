import Foundation
import Testing
@testable import SheetPortClient
import SheetPortTestSupport
@testable import SheetPortCore
@testable import SheetPortServer

/// The web page's server side on the real server: pages, sign-in, the cookie session on the
/// API, the CSRF rule, the hashed assets.
@Suite struct WebPageTests {
    /// Signing in with the form sets an HttpOnly, SameSite=Lax cookie holding no token and
    /// sends the browser to `/`, which is then the sheet list; the cookie works on every API
    /// route as a bearer token does, and a change needs the page's CSRF value.
    @Test func signInThenUseTheAPIWithTheCookie() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let token = try fixture.server.token("ann")
        let sheet = try fixture.api.importSheet(try makeStyledWorkbook(in: fixture.folder, rows: 3))
        let browser = WebBrowser(base: fixture.server.base)

        let signInPage = try browser.call("GET", "/")
        #expect(signInPage.status == 200 && signInPage.text.contains("data-page=\"signin\"") && signInPage.text.contains("action=\"/session\""))
        #expect(!signInPage.text.contains("csrf-token"))

        let signedIn = try browser.signIn(token)
        #expect(signedIn.status == 303 && signedIn.header("Location") == "/")
        let setCookie = try #require(signedIn.header("Set-Cookie"))
        #expect(setCookie.hasPrefix("sheetport_session_") && setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax")
            && setCookie.contains("Path=/") && !setCookie.contains("Secure") && !setCookie.contains(token))

        let list = try browser.call("GET", "/")
        #expect(list.status == 200 && list.text.contains("data-page=\"sheets\"") && list.text.contains("data-subject=\"ann\""))
        let csrf = try #require(try browser.csrf())
        #expect(csrf.count == 64)

        // The API with the cookie alone.
        let sheets = try browser.api("GET", "/api/sheets", csrf: nil)
        #expect(sheets.status == 200 && (sheets.object["sheets"] as? [[String: Any]])?.first?["id"] as? String == sheet)
        let write = try browser.api("POST", "/api/sheets/\(sheet)/cells", json: ["cells": [["ref": "A1", "input": "42"]]], csrf: csrf)
        #expect(write.status == 200, "\(write.text)")
        // Without the CSRF value, or with another, nothing is done.
        for sent in [nil, String(repeating: "0", count: 64)] {
            let refused = try browser.api("POST", "/api/sheets/\(sheet)/cells", json: ["cells": [["ref": "A1", "input": "7"]]], csrf: sent)
            #expect(refused.status == 403 && refused.text.contains("\"csrf\""), "\(refused.text)")
        }
        let rows = try fixture.api.object("/api/sheets/\(sheet)/rows?start=1&count=1")
        let first = ((rows["rows"] as? [[String: Any]])?.first?["cells"] as? [[String: Any]])?.first
        #expect(first?["input"] as? String == "42")

        // The grid page names the sheet, the role and the version.
        let grid = try browser.call("GET", "/sheets/\(sheet)")
        #expect(grid.status == 200 && grid.text.contains("data-page=\"grid\"") && grid.text.contains("data-sheet-id=\"\(sheet)\"")
            && grid.text.contains("data-role=\"owner\""))
        #expect(grid.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        #expect(grid.header("Vary") == "Accept" && grid.header("Cache-Control") == "no-store")
    }

    /// Assets are served at their hashed names only, with a year's caching; the page links
    /// them, and a module's imports are rewritten to the hashed names.
    @Test func hashedAssets() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let browser = WebBrowser(base: fixture.server.base)
        let page = try browser.call("GET", "/").text
        let script = try #require(page.range(of: "src=\"/assets/app.").map { page[$0.lowerBound...].dropFirst(5).prefix { $0 != "\"" } })
        let answer = try browser.call("GET", String(script))
        #expect(answer.status == 200 && answer.header("Cache-Control") == "public, max-age=31536000, immutable")
        #expect(answer.header("Content-Type") == "text/javascript; charset=utf-8" && answer.header("X-Content-Type-Options") == "nosniff")
        for asset in WebAssets.shared.all {
            #expect(asset.servedName.count == asset.name.count + 17)
            #expect(WebAssets.hashedName(asset.name, asset.bytes) == asset.servedName, "the hash is of the bytes served")
            let text = String(decoding: asset.bytes, as: UTF8.self)
            for other in WebAssets.shared.all where other.name.hasSuffix(".js") {
                #expect(!text.contains("'./\(other.name)'"), "\(asset.name) imports \(other.name) by its unhashed name")
            }
        }
        for path in ["/assets/app.js", "/assets/app.css", "/assets/app.0000000000000000.js", "/assets/../../etc/passwd",
                     "/assets/%2e%2e/%2e%2e/etc/passwd", "/assets/", "/assets"] {
            #expect(try browser.call("GET", path).status == 404, "\(path)")
        }
    }

    /// Every file of Web/Assets is embedded and served (`WebAssets.files` names each), and the
    /// page's script and styles stay under 200 KB.
    @Test func everyAssetFileIsServedAndTheyAreSmall() throws {
        let folder = Project.root.appendingPathComponent("Sources/SheetPortServer/Web/Assets")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(Set(files) == Set(WebAssets.files.map(\.name)), "WebAssets.files names every file of Web/Assets")
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(file)))
            #expect(WebAssets.files.first { $0.name == file }?.bytes == bytes, "\(file) is embedded as it is on disk")
        }
        #expect(WebAssets.files.reduce(0) { $0 + $1.bytes.count } < 200 * 1024)
    }

    /// The import rewrite: leaves are hashed first, so a change in a leaf changes the name of
    /// every module above it; only `import ... from './x.js';` lines of known modules change;
    /// a cycle ends (its back edge is left as written).
    @Test func importsAreRewrittenLeavesFirst() throws {
        func assets(util: String) -> WebAssets {
            WebAssets(files: [
                ("app.js", Array("import { grid } from './grid.js';\n  import './side.js';\nconst s = \"import { x } from './grid.js';\";\nimport { u } from './missing.js';\nimport { v } from '../grid.js';\n".utf8)),
                ("grid.js", Array("import { util } from './util.js';\nexport const grid = util;\n".utf8)),
                ("util.js", Array(util.utf8)),
                ("side.js", Array("export {};\n".utf8)),
                ("a.js", Array("import { b } from './b.js';\n".utf8)),
                ("b.js", Array("import { a } from './a.js';\n".utf8)),
                ("app.css", Array("@import './grid.js';\n".utf8)),
            ])
        }
        let first = assets(util: "export const util = 1;\n"), second = assets(util: "export const util = 2;\n")
        let app = String(decoding: try #require(first.asset(served: String(first.path(of: "app.js").dropFirst(8))))
            .bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let grid = String(first.path(of: "grid.js").dropFirst(8)), side = String(first.path(of: "side.js").dropFirst(8))
        #expect(app[0] == "import { grid } from './\(grid)';")
        #expect(app[1] == "  import './\(side)';")
        #expect(app[2] == "const s = \"import { x } from './grid.js';\";", "not an import line")
        #expect(app[3] == "import { u } from './missing.js';" && app[4] == "import { v } from '../grid.js';")
        for name in ["util.js", "grid.js", "app.js"] { #expect(first.path(of: name) != second.path(of: name), "\(name) changes with util.js") }
        #expect(first.path(of: "side.js") == second.path(of: "side.js"))
        #expect(first.path(of: "a.js").hasPrefix("/assets/a.") && first.path(of: "b.js").hasPrefix("/assets/b."))
        #expect(first.path(of: "app.css").hasPrefix("/assets/app.") && String(decoding: first.all.first { $0.name == "app.css" }!.bytes, as: UTF8.self) == "@import './grid.js';\n")
    }
}
