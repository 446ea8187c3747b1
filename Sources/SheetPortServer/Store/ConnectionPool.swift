import Foundation

/// A fixed set of connections handed out one thread at a time, so readers run in parallel
/// (under WAL with SQLite) while a worker writes.
package final class ConnectionPool: @unchecked Sendable {
    private var idle: [Database]
    private let condition = NSCondition()

    /// `count` connections, each made by `connect`.
    package init(count: Int, _ connect: () throws -> Database) throws {
        idle = try (0..<max(1, count)).map { _ in try connect() }
    }

    /// Runs `body` with a connection of its own.
    package func with<T>(_ body: (Database) throws -> T) throws -> T {
        condition.lock()
        while idle.isEmpty { condition.wait() }
        let database = idle.removeLast()
        condition.unlock()
        defer {
            condition.lock()
            idle.append(database)
            condition.signal()
            condition.unlock()
        }
        return try body(database)
    }
}
