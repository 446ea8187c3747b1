import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore
import SheetPortServer
import SheetPortReader
import SheetPortConvert
import SheetPortClient

/// `sheetport serve --data DIR [--listen 127.0.0.1:8080] [--database URL --key-file F]`: the
/// embedded import/export server, alone or one of several on a shared PostgreSQL database.
enum ServeCommand {
    static let spec = CommandSpec(
        usage: """
        sheetport serve --data DIR [--listen HOST:PORT] [options] [limits]
               sheetport serve --data DIR --database postgresql://... --key-file F [--lease SECONDS] ...
        """,
        about: """
        Runs the embedded Sheets import/export server (Docs/Reference/HTTP.md) on libmicrohttpd, with
        its data in DIR (created, mode 0700): a SQLite database in WAL mode whose cells, comments
        and layouts are sealed with XChaCha20-Poly1305 under DIR/seal.key (created on first start,
        mode 0600, on the first start of an empty store; the store records its check value, and a
        missing or other key is refused, exit 2, naming both fingerprints), and uploads staged
        sealed. SIGHUP reads the key file again (see `sheetport key rotate`). Prints `listening on http://HOST:PORT` once bound
        (port 0 picks a free port). SIGINT or SIGTERM stops it cleanly; a running import resumes
        at the next start. Sessions come from `sheetport token issue`.

        With --database, several instances (on one machine or many, behind a load balancer) share
        one PostgreSQL database and one sealing key (--key-file, the same file for all; created
        mode 0600 when missing): sessions, grants, sheets, comments, jobs and the sealed staged
        uploads live in the database, so any instance answers any request and runs any job. A
        job is claimed by one instance at a time under a lease its worker renews; when an
        instance dies, another takes its jobs over once the lease runs out. DIR is then only this
        instance's local scratch (uploads streaming in, exports being built).
        """,
        groups: [
            OptionGroup(title: "OPTIONS", options: [
                .valued("--data", "DIR", "the data directory (required; with --database, local scratch)"),
                .valued("--database", "URL", "a shared PostgreSQL database (postgresql://USER@HOST/DB, libpq syntax)"),
                .valued("--key-file", "F", "the sealing key shared by every instance (required with --database)"),
                .valued("--lease", "SECONDS", """
                    how long a job's claim holds unrenewed before another instance
                    takes it over (default 30; 1 to 3600)
                    """),
                .valued("--listen", "HOST:PORT", "the IPv4 address to listen on (default 127.0.0.1:8080)"),
                .valued("--public-url", "URL", """
                    the address people reach the server at (https://sheets.example): share
                    links' URLs and the page's origin (default the listening address)
                    """),
                .valued("--max-upload-bytes", "SIZE", "the largest upload accepted (default 256M; K, M, G)"),
                .valued("--threads", "N", "HTTP threads, a bounded pool (default 4)"),
                .valued("--workers", "N", "import workers (default 2)"),
                .valued("--exports", "N", "exports built or streamed at once; past it 503 (default 4)"),
                .valued("--connections", "N", "connections served at once (default 512)"),
                .valued("--connections-per-client", "N", "connections at once from one client address (default 256)"),
                .valued("--idle-timeout", "SECONDS", "close a connection silent this long between requests (default 10)"),
                .valued("--event-streams", "N", "event streams open at once (default 256; past it 503)"),
                .valued("--event-streams-per-subject", "N", "event streams open at once per subject (default 16; past it 429)"),
                .valued("--event-heartbeat", "SECONDS", "a `: ping` comment on an idle event stream this often (default 15, at most 30)"),
                .valued("--time-zone", "ZONE", "the time zone NOW and TODAY use (default UTC; an IANA name such as Europe/Berlin)"),
                .valued("--calc-memory", "SIZE", """
                    memory for the calculation graphs of recently used sheets; the least
                    recently used are rebuilt from the store when needed (default 512M; K, M, G)
                    """),
                .valued("--calc-timeout", "SECONDS", """
                    the longest a write may calculate before its answer; past it the write is
                    refused (422 calc-timeout), nothing stored; undo and restore never are
                    (default 30; more than 0, at most 3600, fractions allowed)
                    """),
                .valued("--max-batch-cells", "N", "the most cells one write (cells, clear, copy) may change; past it 413 (default 100000)"),
                .valued("--max-batch-bytes", "SIZE", "the largest body of one write; past it 413 (default 8M; K, M, G)"),
                .valued("--max-window-bytes", "SIZE", "the largest rows window or view answer; past it the answer stops early with next (default 16M; K, M, G)"),
                .help,
            ]),
            LimitOptions.group(with: [LimitOptions.maxCells]),
        ])

    static func run(_ arguments: [String]) throws -> Int32 {
        let options = try spec.parse(arguments)
        if options.has("--help") { print(spec.help); return 0 }
        guard options.positionals.isEmpty else { throw UsageError("serve takes no file arguments\n\n" + spec.help) }
        guard let data = options.value("--data") else { throw UsageError("serve needs --data DIR\n\n" + spec.help) }
        let listen = options.value("--listen") ?? "127.0.0.1:8080"
        guard let address = try? ListenAddress(parsing: listen) else {
            throw UsageError("--listen takes HOST:PORT, such as 127.0.0.1:8080, not \"\(listen.visibleControlCharacters)\"")
        }
        var configuration = ServerConfiguration(dataDirectory: data, address: address)
        configuration.archiveLimits = try LimitOptions.limits(options)
        if let value = options.value("--max-upload-bytes") { configuration.maxUploadBytes = Int(try LimitOptions.size(value, "--max-upload-bytes")) }
        if let value = options.value("--max-cells") { configuration.maxCells = Int(try LimitOptions.count(value, "--max-cells")) }
        if let value = options.value("--threads") { configuration.threads = try positive(value, "--threads") }
        if let value = options.value("--workers") { configuration.workers = try positive(value, "--workers") }
        if let value = options.value("--exports") { configuration.exportsAtOnce = try positive(value, "--exports") }
        if let value = options.value("--connections") { configuration.connections = try positive(value, "--connections") }
        if let value = options.value("--connections-per-client") {
            configuration.http.connectionsPerClient = try positive(value, "--connections-per-client")
        }
        if let value = options.value("--idle-timeout") { configuration.http.idleTimeout = try positive(value, "--idle-timeout") }
        if let value = options.value("--event-streams") { configuration.eventStreams.total = try positive(value, "--event-streams") }
        if let value = options.value("--event-streams-per-subject") {
            configuration.eventStreams.perSubject = try positive(value, "--event-streams-per-subject")
        }
        if let value = options.value("--event-heartbeat") {
            configuration.eventStreams.heartbeat = Double(try positive(value, "--event-heartbeat"))
        }
        if let value = options.value("--time-zone") {
            guard let zone = TimeZone(identifier: value) else {
                throw UsageError("--time-zone takes a time zone name such as UTC or Europe/Berlin, not \"\(value.visibleControlCharacters)\"")
            }
            configuration.timeZone = zone
        }
        if let value = options.value("--calc-memory") { configuration.calcMemory = Int(try LimitOptions.size(value, "--calc-memory")) }
        if let value = options.value("--calc-timeout") {
            guard let seconds = Double(value), seconds.isFinite, seconds > 0, seconds <= 3600 else {
                throw UsageError("--calc-timeout takes seconds, more than 0 and at most 3600 (such as 30 or 0.5), not \"\(value.visibleControlCharacters)\"")
            }
            configuration.calcTimeout = seconds
        }
        if let value = options.value("--max-batch-cells") { configuration.maxBatchCells = Int(try LimitOptions.count(value, "--max-batch-cells")) }
        if let value = options.value("--max-batch-bytes") { configuration.maxBatchBytes = Int(try LimitOptions.size(value, "--max-batch-bytes")) }
        if let value = options.value("--max-window-bytes") { configuration.maxWindowBytes = Int(try LimitOptions.size(value, "--max-window-bytes")) }
        configuration.publicURL = try options.value("--public-url").map(publicURL)
        configuration.databaseURL = try options.value("--database").map(databaseURL)
        configuration.keyFile = options.value("--key-file")
        if configuration.databaseURL != nil, configuration.keyFile == nil {
            throw UsageError("serve --database needs --key-file F: every instance seals with the same key")
        }
        if let value = options.value("--lease") {
            guard let seconds = Double(value), seconds.isFinite, seconds >= 1, seconds <= 3600 else {
                throw UsageError("--lease takes seconds from 1 to 3600")
            }
            configuration.lease = seconds
        }

        // Signals are taken synchronously by this thread, so none interrupts the server's threads.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGHUP) // reload the key file (key rotation)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN) // a write to a closed socket or log fails with EPIPE instead of killing the server
        // Every connection is a descriptor: allow as many as the system lets this process have.
        var files = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &files) == 0, files.rlim_cur < files.rlim_max {
            files.rlim_cur = files.rlim_max
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &files)
        }

        umask(0o077) // the database, its WAL and every staged file: owner only
        // Start-up (the key, the store, recovery) runs on a thread of its own while this one
        // waits for signals: SIGINT or SIGTERM ends a start that is stuck (a database that does
        // not answer) at once, instead of being held until the server is up.
        let startup = StartUp()
        let thread = Thread { [configuration] in startup.finish(Result { try SheetServer(configuration: configuration) }) }
        thread.name = "start-up"
        thread.start()
        var received: Int32 = 0
        var pause = timespec(tv_sec: 0, tv_nsec: 50_000_000)
        while startup.result == nil {
            let taken = sigtimedwait(&signals, nil, &pause)
            if taken == SIGINT || taken == SIGTERM {
                ServerLog.standardError.write("stopped during start-up")
                ServerLog.standardError.flush(timeout: 1)
                return taken == SIGINT ? 130 : 143
            }
        }
        let server = try startup.result!.get()
        print("listening on http://\(configuration.address.host):\(server.port)")
        fflush(nil) // all streams: the address must reach a pipe at once
        while sigwait(&signals, &received) == 0 && received == SIGHUP { server.reloadKey() }
        ServerLog.standardError.write("stopping")
        server.stop()
        ServerLog.standardError.flush(timeout: 1)
        return received == SIGINT ? 130 : 143
    }

    /// A PostgreSQL URL or connection string: text without control characters (it reaches
    /// libpq and, on an error, the log).
    /// `--public-url`: an http or https URL of a host, without user, query or fragment, its path at most `/`.
    static func publicURL(_ value: String) throws -> String {
        let refusal = UsageError("--public-url takes the address people reach the server at, such as https://sheets.example or http://10.0.0.5:8080, not \"\(value.visibleControlCharacters)\"")
        guard value.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F }), let url = URLComponents(string: value),
              let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host, !host.isEmpty,
              url.user == nil, url.password == nil, url.query == nil, url.fragment == nil, ["", "/"].contains(url.path) else { throw refusal }
        return value.hasSuffix("/") ? String(value.dropLast()) : value
    }

    static func databaseURL(_ text: String) throws -> String {
        guard !text.isEmpty, !text.containsControlCharacters else { throw UsageError("--database takes a postgresql:// URL without control characters") }
        guard text.hasPrefix("postgresql://") || text.hasPrefix("postgres://") || text.contains("=") else {
            throw UsageError("--database takes a postgresql:// URL (or a libpq key=value connection string)")
        }
        return text
    }

    /// The outcome of the start-up thread, read by the signal-waiting one.
    private final class StartUp: @unchecked Sendable {
        private let lock = NSLock()
        private var outcome: Result<SheetServer, any Error>?

        var result: Result<SheetServer, any Error>? { lock.withLock { outcome } }
        func finish(_ result: Result<SheetServer, any Error>) { lock.withLock { outcome = result } }
    }

    private static func positive(_ text: String, _ option: String) throws -> Int {
        guard let value = Int(text), value >= 1, value <= 4096 else { throw UsageError("\(option) takes a whole number from 1 to 4096") }
        return value
    }
}
