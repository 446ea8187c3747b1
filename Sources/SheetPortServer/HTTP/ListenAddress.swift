import SheetPortCore

/// Where the server listens: an IPv4 address and a port.
public struct ListenAddress: Sendable, Equatable {
    /// An IPv4 address, such as `127.0.0.1`.
    public var host: String
    /// The port; 0 lets the system choose.
    public var port: UInt16

    /// The address `host`, port `port`.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT` (`127.0.0.1:8080`, `0.0.0.0:0`).
    public init(parsing text: String) throws {
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else {
            throw ServerError.configuration(
                "a listening address is HOST:PORT, such as 127.0.0.1:8080, not \"\(text.visibleControlCharacters)\"")
        }
        host = String(text[..<colon])
        self.port = port
    }
}

/// How many connections the server keeps, and how long.
public struct ConnectionLimits: Sendable {
    /// Polling threads (the request thread pool).
    public var threads = 4
    /// Connections at once.
    public var connections = 512
    /// Connections at once from one client address (waiting for their request head or
    /// being served); more are closed as they come, so one client cannot take them all.
    public var connectionsPerClient = 256
    /// Seconds a connection may take to send its request head, and may stay silent in a
    /// small request body: a storm of silent connections is soon closed.
    public var idleTimeout = 10
    /// Seconds an upload or a streamed answer may stall before its connection is closed.
    public var transferTimeout = 60

    /// The defaults.
    public init() {}
}
