import SheetPortServer

/// The store the offline administration commands (`key`, `token`) work on: a data directory
/// or the shared PostgreSQL database, exactly one; declared once for both.
enum StoreOptions {
    /// The options, with their help.
    static let options: [Option] = [
        .valued("--data", "DIR", "the server's data directory (its store)"),
        .valued("--database", "URL", "the shared PostgreSQL database of `serve --database` (every instance's store at once)"),
    ]

    /// The store the options name, with its data directory when it is one (created as `serve`
    /// creates it, owner-only); `command` names the command in the usage error.
    static func location(_ options: Arguments, command: String) throws -> (store: StoreLocation, directory: DataDirectory?) {
        let data = options.value("--data"), url = options.value("--database")
        guard (data == nil) != (url == nil) else { throw UsageError("\(command) needs --data DIR or --database URL (one of them)") }
        if let url { return (.postgres(url: try ServeCommand.databaseURL(url)), nil) }
        let directory = try DataDirectory(path: data!)
        return (.sqlite(path: directory.database), directory)
    }
}
