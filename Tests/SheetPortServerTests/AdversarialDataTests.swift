import Foundation
import Synchronization
import Testing
@testable import SheetPortCore
@testable import SheetPortReader
@testable import SheetPortWriter
@testable import SheetPortClient
@testable import SheetPortServer
import SheetPortTestSupport
@testable import SheetPortConvert

/// Issue 12, the server's data boundaries: hostile text, sheet names, error bodies and the log,
/// idempotency and the key file, each against the real server on loopback (a failing standard
/// error and a killed run's leftovers: SheetPortCLITests' `AdversarialDataTests`).
@Suite(.serialized) struct AdversarialDataTests {
    /// Control characters of every kind a boundary must refuse: NUL, C0 (CR, LF, ESC, BEL, TAB),
    /// DEL, C1 (NEL, CSI) and a bidirectional override.
    static let hostile = ["abc\u{0}def", "a\rb", "a\nsheetport serve: forged", "x\u{1B}[31mred", "bell\u{7}", "t\tab",
                          "del\u{7F}", "nel\u{85}", "csi\u{9B}2J", "\u{202E}cod.exe"]

    /// Text is bound to SQLite by byte count: a NUL is stored and compared, never a place to cut.
    @Test func sqliteTextKeepsEveryByte() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try Database(path: folder.appendingPathComponent("t.db").path)
        try database.execute("CREATE TABLE t (name TEXT NOT NULL)")
        for text in ["mallory\u{0}zz", "\u{0}", "", "é\u{0}\u{301}", String(repeating: "x\u{0}", count: 10_000)] {
            try database.query("DELETE FROM t")
            try database.query("INSERT INTO t (name) VALUES (?)", [.text(text)])
            #expect(try database.query("SELECT name FROM t").first?.first == .text(text))
            #expect(try database.query("SELECT count(*) FROM t WHERE name = ?", [.text(String(String.UnicodeScalarView(text.unicodeScalars.prefix { $0 != "\u{0}" })))]).first?.first?.int
                    == (text.unicodeScalars.contains("\u{0}") ? 0 : 1))
        }
    }

    /// Every boundary refuses NUL and control characters with 400 and stores nothing: grant
    /// subjects (no `mallory` access from `mallory\0zz`, no owner-self bypass from `ann\0x`),
    /// renames, comments, X-Filename, Idempotency-Key, path segments, query arguments and token
    /// subjects.
    @Test func controlCharactersAreRefusedAtEveryBoundary() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let (folder, server, api) = (fixture.folder, fixture.server, fixture.api)
        let sheet = try importedSheet(api, folder)
        let mallory = server.api(try server.token("mallory"))

        for text in Self.hostile {
            for subject in ["mallory" + text, "ann" + text, text] {
                let grant = try api.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": subject, "role": "editor"])
                #expect(grant.status == 400 && grant.text.contains("control character"), "\(subject.debugDescription): \(grant.text)")
            }
            let rename = try api.call("PATCH", "/api/sheets/\(sheet)", json: ["name": "abc" + text])
            #expect(rename.status == 400, "\(text.debugDescription): \(rename.text)")
            let comment = try api.call("POST", "/api/sheets/\(sheet)/comments", json: ["ref": "B2", "text": "hi" + text])
            #expect(comment.status == 400, "\(text.debugDescription): \(comment.text)")
            let path = text.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
            let segment = try api.call("GET", "/api/sheets/\(sheet)\(path)")
            #expect(segment.status == 400 || segment.status == 404, "\(text.debugDescription): \(segment.status)")
            let revoke = try api.call("DELETE", "/api/sheets/\(sheet)/grants/mallory\(path)")
            #expect(revoke.status == 400, "\(text.debugDescription): \(revoke.status) \(revoke.text)")
            let query = try api.call("GET", "/api/sheets/\(sheet)/rows?start=1&x=\(path)")
            #expect(query.status == 400, "\(text.debugDescription): \(query.status)")
            // Header fields cannot carry CR, LF or NUL on the wire; the other controls can.
            if !text.unicodeScalars.contains(where: { [0, 0x0A, 0x0D].contains($0.value) }) {
                let workbook = try makeStyledWorkbook(in: folder, name: "h.xlsx", rows: 3)
                let filename = try api.upload(workbook, filename: "book\(text).xlsx")
                #expect(filename.status == 400 && filename.text.contains("X-Filename"), "\(text.debugDescription): \(filename.text)")
                let key = try api.upload(workbook, key: "key\(text)")
                #expect(key.status == 400 && key.text.contains("Idempotency-Key"), "\(text.debugDescription): \(key.text)")
                #expect(throws: ServerError.self, "\(text.debugDescription)") { try server.token("eve" + text) }
            }
        }
        // Nothing got through: no grant, the name and comments unchanged, no job but the first.
        #expect(try mallory.call("GET", "/api/sheets/\(sheet)").status == 404)
        #expect((try api.object("/api/sheets/\(sheet)/grants")["grants"] as? [Any])?.isEmpty == true)
        #expect(try api.object("/api/sheets/\(sheet)")["name"] as? String == "Data")
        #expect((try api.object("/api/sheets/\(sheet)/comments")["comments"] as? [Any])?.count == 1)
        #expect((try api.object("/api/imports")["jobs"] as? [Any])?.count == 1)
        // Huge subjects are refused too.
        let huge = try api.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": String(repeating: "m", count: 5_000), "role": "viewer"])
        #expect(huge.status == 400)
    }

    /// Docs/Reference/HTTP.md's sheet-name rules: each is refused by a rename with 400 naming the
    /// rule; an imported name breaking one is made valid with a `sheet-name-changed` warning,
    /// and the sheet then exports and opens under that name.
    @Test func sheetNamesFollowTheWriterRules() throws {
        // Decided on scalars: a combining mark does not hide a refused character.
        #expect(SheetName.violation(of: "a/\u{301}") == .refusedCharacter("/"))
        #expect(SheetName.violation(of: String(repeating: "é", count: 31)) == nil)
        #expect(SheetName.violation(of: String(repeating: "😀", count: 16)) == .tooLong(32))
        #expect(throws: WriterError.self) { try WorkbookWriter.validateSheetName("a/\u{301}") }

        let fixture = try ServerFixture()
        defer { fixture.close() }
        let (folder, api) = (fixture.folder, fixture.api)
        let sheet = try importedSheet(api, folder)
        let refused = [String(repeating: "n", count: 32), "a/b", "a/\u{301}", "x\\y", "[q]", "a:b", "st*r", "what?", "History",
                       "hIsToRy", "'q", "q'", "", String(repeating: "😀", count: 16)]
        for name in refused {
            let rename = try api.call("PATCH", "/api/sheets/\(sheet)", json: ["name": name])
            #expect(rename.status == 400 && rename.text.contains("invalid-sheet-name"), "\(name.debugDescription): \(rename.text)")
        }
        for name in [String(repeating: "n", count: 31), "Historyx", "a'b", String(repeating: "😀", count: 15) + "x"] {
            let rename = try api.call("PATCH", "/api/sheets/\(sheet)", json: ["name": name])
            #expect(rename.status == 200, "\(name.debugDescription): \(rename.text)")
            #expect(try exportedSheetName(api, sheet) == name)
        }

        // A name stored by an earlier version, before the rule: the export makes it valid.
        // (PostgreSQL text holds no NUL: there the old name has every other fault.)
        let old = fixture.server.databaseURL == nil ? "old/\u{0}name History 0123456789012345678" : "old/\u{1}name History 0123456789012345678"
        try fixture.server.store().query("UPDATE sheets SET name = ? WHERE id = ?", [.text(old), .text(sheet)])
        #expect(try exportedSheetName(api, sheet).map { SheetName.violation(of: $0) == nil } == true)

        // A comment author is a name too: its control characters do not survive the import.
        let authored = folder.appendingPathComponent("authored.xlsx").path
        try makeRawWorkbook(at: authored, sheetName: "A", rows: [1], commentAuthor: "ann&#x9B;2J&#x202E;&#9;x", otherSheet: "other&#x9B;2J")
        let authoredJob = try api.importWorkbook(authored)
        let authoredID = try #require(((authoredJob["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String, "\(authoredJob)")
        let comments = try api.object("/api/sheets/\(authoredID)/comments")["comments"] as? [[String: Any]] ?? []
        // So are the other sheets' names that a warning names.
        let authoredWarnings = (authoredJob["result"] as? [String: Any])?["warnings"] as? [[String: Any]] ?? []
        #expect(authoredWarnings.contains { ($0["message"] as? String ?? "").contains("other\\u{9B}2J") }, "\(authoredWarnings)")
        #expect(authoredWarnings.allSatisfy { !($0["message"] as? String ?? "").containsControlCharacters })
        #expect(comments.count == 1 && (comments.first?["author"] as? String).map { !$0.containsControlCharacters } == true, "\(comments)")

        // Imports: the names as XML text in xl/workbook.xml (a C1 control is well-formed XML).
        let imported = ["0123456789012345678901234567890123456789", "a/b", "History", "&apos;q&apos;", "a/&#x301;",
                        "csi&#x9B;x", "&#x202E;evil", "[]:*?/\\", "&apos;&apos;&apos;", "tab&#9;line&#10;"]
        for (index, name) in imported.enumerated() {
            let path = folder.appendingPathComponent("named\(index).xlsx").path
            try makeRawWorkbook(at: path, sheetName: name, rows: [1, 2])
            let job = try api.importWorkbook(path)
            let result = try #require(job["result"] as? [String: Any], "\(name): \(job)")
            let stored = try #require((result["sheet"] as? [String: Any])?["name"] as? String)
            let id = try #require((result["sheet"] as? [String: Any])?["id"] as? String)
            #expect(SheetName.violation(of: stored) == nil, "\(name) became \(stored.debugDescription)")
            let warnings = result["warnings"] as? [[String: Any]] ?? []
            #expect(warnings.contains { $0["code"] as? String == "sheet-name-changed" && $0["severity"] as? String == "warning" }, "\(name): \(warnings)")
            #expect(try exportedSheetName(api, id) == stored, "\(name)")
        }
    }

    /// The log escapes control characters: a request with CR, LF and ESC in a name forges no
    /// line and sends no escape; a 500's log line carries its incident id and the detail.
    @Test func logLinesEscapeControlCharacters() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let (folder, server, api) = (fixture.folder, fixture.server, fixture.api)
        let sheet = try importedSheet(api, folder)
        let forged = "x\r\nsheetport serve: FORGED \u{1B}[2J\u{9B}31m\u{202E}"
        #expect(try api.call("PATCH", "/api/sheets/\(sheet)", json: ["name": forged]).status == 400)
        #expect(try api.call("POST", "/api/sheets/\(sheet)/grants", json: ["subject": forged, "role": "viewer"]).status == 400)
        try server.store().query("UPDATE row_blocks SET data = ?", [.blob([0])])
        let failure = try api.call("GET", "/api/sheets/\(sheet)/rows")
        let incident = try #require((failure.object["error"] as? [String: Any])?["incident"] as? String, "\(failure.text)")
        server.stop()
        let log = try Data(contentsOf: folder.appendingPathComponent("server.log"))
        #expect(!log.contains(0x1B) && !log.contains(0x0D) && !Array(log).contains(0x07))
        let text = String(decoding: log, as: UTF8.self)
        #expect(!text.unicodeScalars.contains { $0.isUnsafeControl && $0 != "\n" }, "\(text.debugDescription)")
        let lines = text.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("sheetport serve: ") }, "\(text)")
        #expect(!lines.contains { $0.hasPrefix("sheetport serve: FORGED") })
        #expect(text.contains("\\u{D}\\u{A}sheetport serve: FORGED \\u{1B}[2J"), "\(text)")
        #expect(lines.contains { $0.contains("incident \(incident)") && $0.contains("failed authentication") }, "\(text)")
    }

    /// The same Idempotency-Key with the same bytes gives the same job; with other bytes 422
    /// `idempotency-key-reused`; keys are per subject. A data directory made before digests
    /// were kept is migrated.
    @Test(.enabled(if: !PostgresCluster.runsServerSuite, "migrates a SQLite data directory of an earlier version"))
    func idempotencyKeyComparesTheBytes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // An existing data directory of the version without digests, with a job under key "old".
        let data = folder.appendingPathComponent("data").path
        _ = try DataDirectory(path: data)
        let old = try Database(path: data + "/sheetport.db")
        try old.execute("""
            CREATE TABLE jobs (id TEXT PRIMARY KEY, subject TEXT NOT NULL, status TEXT NOT NULL, idempotency_key TEXT,
                filename TEXT NOT NULL, upload_bytes INTEGER NOT NULL, bytes INTEGER NOT NULL DEFAULT 0,
                rows INTEGER NOT NULL DEFAULT 0, cells INTEGER NOT NULL DEFAULT 0, sheet_id TEXT, result TEXT, error TEXT,
                created INTEGER NOT NULL, UNIQUE (subject, idempotency_key));
            INSERT INTO jobs (id, subject, status, idempotency_key, filename, upload_bytes, error, created)
                VALUES ('0123456789abcdef0123456789abcdef', 'ann', 'failed', 'old', 'old.xlsx', 10, '{"code":"x"}', 1);
            """)
        let server = try TestServer(folder: folder)
        defer { server.stop() }
        let api = server.api(try server.token("ann"))
        let bob = server.api(try server.token("bob"))
        let first = try makeStyledWorkbook(in: folder, name: "first.xlsx")
        let second = try makeStyledWorkbook(in: folder, name: "second.xlsx", rows: 41)

        let created = try api.upload(first, key: "k1")
        #expect(created.status == 202, "\(created.text)")
        let id = try #require(API.job(created.body)?["id"] as? String)
        let again = try api.upload(first, key: "k1")
        #expect(again.status == 202 && API.job(again.body)?["id"] as? String == id, "\(again.text)")
        let other = try api.upload(second, key: "k1")
        #expect(other.status == 422 && (other.object["error"] as? [String: Any])?["code"] as? String == "idempotency-key-reused", "\(other.text)")
        // One byte more at the end is other bytes too.
        let longer = folder.appendingPathComponent("longer.xlsx").path
        try (try Data(contentsOf: URL(fileURLWithPath: first)) + Data([0])).write(to: URL(fileURLWithPath: longer))
        #expect(try api.upload(longer, key: "k1").status == 422)
        // Racing uploads under one new key: one job, the other bytes refused, whoever comes first.
        for round in 0..<3 {
            let statuses = Mutex<[Int]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { index in
                let status = (try? api.upload(index % 2 == 0 ? first : second, key: "race\(round)").status) ?? -1
                statuses.withLock { $0.append(status) }
            }
            let sorted = statuses.withLock { $0.sorted() }
            #expect(sorted == [202, 202, 422, 422], "\(sorted)")
        }
        // Another subject's key space is its own.
        let bobs = try bob.upload(second, key: "k1")
        let bobsID = try #require(API.job(bobs.body)?["id"] as? String, "\(bobs.text)")
        #expect(bobs.status == 202 && bobsID != id)
        // The migrated job has no digest: its key still answers with it.
        #expect(API.job(try api.upload(first, key: "old").body)?["id"] as? String == "0123456789abcdef0123456789abcdef")
        #expect(try api.upload(first, key: String(repeating: "k", count: 256)).status == 400)
        let jobs = try api.object("/api/imports")["jobs"] as? [[String: Any]] ?? []
        #expect(jobs.count == 5)
        for job in jobs { _ = try api.wait(for: job["id"] as? String ?? "") }
        #expect(try api.wait(for: id)["status"] as? String == "succeeded")
        #expect(try bob.wait(for: bobsID)["status"] as? String == "succeeded")
        #expect(isEmptySoon(server.data + "/staging"))
    }

    /// An existing seal.key readable or writable by group or others is refused at start, naming
    /// `chmod 600`; once fixed, the server starts.
    @Test func keyFileMustBePrivate() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try TestServer(folder: folder)
        server.stop()
        // With a shared database (the server suite's second run) the key is the --key-file.
        let key = server.databaseURL == nil ? server.data + "/seal.key" : folder.appendingPathComponent("seal.key").path
        for mode: mode_t in [0o640, 0o604, 0o620, 0o602, 0o660, 0o644, 0o610] {
            chmod(key, mode)
            #expect("mode \(String(mode, radix: 8))") { try server.restart() } throws: { error in
                error is ServerError && "\(error)".contains("chmod 600 \(key)")
            }
        }
        chmod(key, 0o600)
        try server.restart()
        #expect(try server.api(nil).call("GET", "/api/limits").status == 200)
        server.stop()
    }
}

/// Imports the styled workbook and returns its sheet's id.
private func importedSheet(_ api: API, _ folder: URL) throws -> String {
    let job = try api.importWorkbook(try makeStyledWorkbook(in: folder))
    return try #require(((job["result"] as? [String: Any])?["sheet"] as? [String: Any])?["id"] as? String, "\(job)")
}

/// The name of the one sheet of `sheet`'s export, read back with the project's reader.
private func exportedSheetName(_ api: API, _ sheet: String) throws -> String? {
    let response = try api.call("GET", "/api/sheets/\(sheet)/export.xlsx")
    #expect(response.status == 200, "\(response.text)")
    guard response.status == 200 else { return nil }
    let disposition = response.header("Content-Disposition") ?? ""
    #expect(disposition.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value < 0x7F } && disposition.filter { $0 == "\"" }.count == 2, "\(disposition)")
    return try Workbook(bytes: response.body, name: "export.xlsx").firstWorksheet?.name
}
