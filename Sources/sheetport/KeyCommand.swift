#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore
import SheetPortServer

/// `sheetport key rotate (--data DIR | --database URL) --old F --new G`,
/// `key retire (--data DIR | --database URL) --old F`, `key fingerprint F`.
enum KeyCommand {
    static let spec = CommandSpec(
        usage: """
        sheetport key rotate (--data DIR | --database URL) --old F --new G
               sheetport key retire (--data DIR | --database URL) --old F
               sheetport key fingerprint F
        """,
        about: """
        Rotates the server's sealing key. Records are sealed with a data key that the store keeps
        sealed under each key file that may open it, so a rotation re-seals only that small data
        key: `rotate` seals it under the key in G as well (G is created, mode 0600, when missing)
        and records G as the store's key. Until `retire --old F`, either key opens the store, so
        instances may be restarted (or sent SIGHUP, which reads their key file again) one at a
        time. A store sealed before envelope keys keeps its old key's bytes as its data key:
        rotating changes which file opens it, but the old bytes still open its records.
        `fingerprint` prints a key file's fingerprint, as the server's messages name it.
        """,
        groups: [OptionGroup(title: "OPTIONS", options: StoreOptions.options + [
            .valued("--old", "F", "the key file the store is sealed with now"),
            .valued("--new", "G", "the key file to rotate to (created when missing)"),
            .help,
        ])])

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        guard let action = options.positionals.first, ["rotate", "retire", "fingerprint"].contains(action) else {
            throw UsageError("key takes rotate, retire or fingerprint\n\n" + spec.help)
        }
        umask(0o077)
        if action == "fingerprint" {
            guard options.positionals.count == 2 else { throw UsageError("key fingerprint takes one key file") }
            let file = options.positionals[1]
            guard let key = try KeyFile.load(at: file) else { throw UsageError("no key file \(file.visibleControlCharacters)") }
            print(KeyCheck.fingerprint(of: key))
            return 0
        }
        guard options.positionals.count == 1 else { throw UsageError("key \(action) takes no file arguments; use --old and --new") }
        guard let old = options.value("--old") else { throw UsageError("key \(action) needs --old F") }
        let (store, directory) = try StoreOptions.location(options, command: "key \(action)")
        let staging = directory?.staging
        if action == "retire" {
            let fingerprint = try KeyCheck.retire(store: store, old: old)
            StandardError.write("retired the key of fingerprint \(fingerprint): it no longer opens the store")
            return 0
        }
        guard let new = options.value("--new") else { throw UsageError("key rotate needs --new G") }
        let (from, to) = try KeyCheck.rotate(store: store, staging: staging, old: old, new: new)
        StandardError.write("rotated the store's key from \(from) to \(to): both open it until `sheetport key retire --old` \(old.visibleControlCharacters)")
        return 0
    }
}
