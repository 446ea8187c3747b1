import Foundation

/// A count shared by the import workers' threads.
final class PassCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    /// The count so far.
    var value: Int { lock.withLock { count } }

    /// Adds `passes`.
    func add(_ passes: Int) { lock.withLock { count += passes } }
}
