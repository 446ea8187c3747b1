#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore
import SheetPortClient
import SheetPortServer

/// `sheetport token issue (--data DIR | --database URL --key-file F) --subject S` /
/// `token revoke (--data DIR | --database URL --key-file F) (--subject S | --token-file F)`.
enum TokenCommand {
    static let spec = CommandSpec(
        usage: """
        sheetport token issue (--data DIR | --database URL --key-file F) --subject S
               sheetport token revoke (--data DIR | --database URL --key-file F) (--subject S | --token-file F)
        """,
        about: """
        Issues a session token for a subject (the signed-in person) and prints it on standard
        output, once: the server keeps only its hash; the sign-in page's address (the last
        started server's) goes to standard error beside it. Revokes every token of a subject, or one
        token read from a file (or the SHEETPORT_TOKEN environment variable); a revoked token is
        refused (401) from its next request on. Like `serve`, it refuses (exit 2) to touch a store
        whose sealing key is missing or another key (DIR/seal.key, or --key-file, which --database
        needs as `serve --database` does), naming both keys' fingerprints.
        """,
        groups: [OptionGroup(title: "OPTIONS", options: StoreOptions.options + [
            .valued("--key-file", "F", "the sealing key of `serve --key-file` (required with --database), checked against the store's"),
            .valued("--subject", "S", "who the session belongs to"),
            .valued("--token-file", "F", "a file holding the token to revoke"),
            .help,
        ])])

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        guard let action = options.positionals.first, options.positionals.count == 1, ["issue", "revoke"].contains(action) else {
            throw UsageError("token takes issue or revoke\n\n" + spec.help)
        }
        if action == "issue", options.value("--subject") == nil { throw UsageError("token issue needs --subject S") }
        if let subject = options.value("--subject"), let violation = Subject.violation(of: subject) {
            throw UsageError("--subject: \(violation)")
        }
        if options.value("--data") != nil, options.value("--key-file") != nil {
            throw UsageError("--key-file is for --database; with --data DIR the key is DIR/seal.key")
        }
        umask(0o077)
        let (store, directory) = try StoreOptions.location(options, command: "token")
        // The key the store is sealed with must be there (and be that key) before a session is
        // issued or revoked: the same refusal as `serve`'s, and nothing is created or recorded.
        if let directory {
            try KeyCheck.establish(keyFile: directory.keyFile, store: store, staging: directory.staging, create: false)
        } else {
            // As `serve --database`: no key file, no check, so none is taken as consent.
            guard let keyFile = options.value("--key-file") else {
                throw UsageError("token --database needs --key-file F: the sealing key of `serve --key-file`, checked against the store's")
            }
            try KeyCheck.establish(keyFile: keyFile, store: store, staging: nil, create: false)
        }
        let database = try directory?.openDatabase() ?? store.open()
        if action == "issue" {
            print(try Tokens.issue(subject: options.value("--subject")!, in: database))
            // Standard output stays the token alone; where to use it goes beside it.
            if let address = try database.webAddress() {
                StandardError.write("sign in at \(address.visibleControlCharacters)/ with this token")
            } else {
                StandardError.write("sign in with this token on the page of `sheetport serve` (the address it prints)")
            }
            return 0
        }
        if let subject = options.value("--subject") {
            let count = try Tokens.revoke(subject: subject, in: database)
            StandardError.write("revoked \(count) token\(count == 1 ? "" : "s") of \(subject.visibleControlCharacters)")
            return 0
        }
        // The token the client commands read (`--token-file F` or SHEETPORT_TOKEN, never an argument).
        let token: String
        do {
            token = try ServerConnection.token(file: options.value("--token-file"))
        } catch {
            throw UsageError("token revoke needs --subject S or --token-file F (or SHEETPORT_TOKEN): \(error)")
        }
        guard try Tokens.revoke(token: token, in: database) else {
            StandardError.write("sheetport: no such token")
            return 1
        }
        StandardError.write("revoked 1 token")
        return 0
    }
}
