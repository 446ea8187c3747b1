import Foundation
import Testing
import SheetPortTestSupport
import SheetPortClient

/// `sheetport token issue` and `token revoke` on a running server's store, end to end: the
/// server tests issue and revoke through the library (`Tokens`), the command is tested here.
@Suite struct TokenCommandTests {
    /// `--data DIR`, or `--database URL --key-file F` on the server suite's PostgreSQL run.
    private func storeArguments(_ server: TestServer) -> [String] {
        server.databaseURL.map { ["--database", $0, "--key-file", server.keyFile] } ?? ["--data", server.data]
    }

    private func issue(_ subject: String, _ server: TestServer) throws -> (status: Int32, token: String, stderr: String) {
        let result = try runSheetport(["token", "issue"] + storeArguments(server) + ["--subject", subject])
        return (result.status, String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines), result.stderr)
    }

    @Test func issuedTokensServeUntilRevokedByFileOrSubject() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let server = fixture.server
        let first = try issue("bob", server)
        #expect(first.status == 0 && !first.token.isEmpty, "\(first.stderr)")
        #expect(try server.api(first.token).call("GET", "/api/sheets").status == 200)
        let tokenFile = fixture.folder.appendingPathComponent("bob.token").path
        try first.token.write(toFile: tokenFile, atomically: true, encoding: .utf8)
        let byFile = try runSheetport(["token", "revoke"] + storeArguments(server) + ["--token-file", tokenFile])
        #expect(byFile.status == 0, "\(byFile.stderr)")
        #expect(try server.api(first.token).call("GET", "/api/sheets").status == 401)
        // A token already revoked is no token.
        #expect(try runSheetport(["token", "revoke"] + storeArguments(server) + ["--token-file", tokenFile]).status == 1)

        let second = try issue("bob", server), third = try issue("bob", server)
        #expect(try server.api(second.token).call("GET", "/api/sheets").status == 200)
        let bySubject = try runSheetport(["token", "revoke"] + storeArguments(server) + ["--subject", "bob"])
        #expect(bySubject.status == 0 && bySubject.stderr.contains("revoked 2 tokens"), "\(bySubject.stderr)")
        for token in [second.token, third.token] { #expect(try server.api(token).call("GET", "/api/sheets").status == 401) }
        #expect(try fixture.api.call("GET", "/api/sheets").status == 200) // ann's session is hers
    }

    /// Control characters and the share links' reserved subjects are refused, nothing printed
    /// (a NUL cannot be an argument: argv ends each argument there).
    @Test func hostileAndReservedSubjectsAreRefused() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        for subject in ["eve\r\nforged", "eve\u{1B}[31m", "eve\u{9B}2J", "\u{202E}eve"] {
            let refused = try issue(subject, fixture.server)
            #expect(refused.status != 0 && refused.token.isEmpty, "\(subject.debugDescription)")
            #expect(!refused.stderr.contains("\u{1B}"))
        }
        let link = try issue("link:0123456789abcdef", fixture.server)
        #expect(link.status != 0 && link.token.isEmpty && link.stderr.contains("share links"), "\(link.stderr)")
    }

    /// `token issue` keeps standard output the token alone and says on standard error where to
    /// sign in: the address of the server last started on the store.
    @Test func issuePrintsTheSignInAddressBesideTheToken() throws {
        let fixture = try ServerFixture()
        defer { fixture.close() }
        let issued = try issue("carol", fixture.server)
        #expect(issued.status == 0 && issued.token.count == 64 && issued.token.allSatisfy(\.isHexDigit), "\(issued.token)")
        #expect(issued.stderr.contains("sign in at \(fixture.server.base)/ with this token"), "\(issued.stderr)")
    }

    /// `serve --public-url` takes an http or https address of a host and nothing else (exit 2).
    @Test func servePublicURLRefusesWhatIsNoAddress() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data").path
        for value in ["javascript:alert(1)", "ftp://sheets.example", "https://", "https://user@sheets.example", "https://sheets.example/x",
                      "https://sheets.example/?q=1", "https://sheets.example/#f", "https://sheets.example\u{1B}[31m", "sheets.example", ""] {
            let result = try runWithDeadline(["serve", "--data", data, "--listen", "127.0.0.1:0", "--public-url", value], seconds: 20)
            #expect(result.status == 2 && result.stderr.contains("--public-url"), "\(value.debugDescription): \(result.stderr)")
            #expect(!result.stderr.contains("\u{1B}"))
        }
    }
}
