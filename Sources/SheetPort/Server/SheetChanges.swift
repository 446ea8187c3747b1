import Dispatch
import Foundation

/// A sheet changed: which one, and the version it is at now.
public struct SheetChange: Sendable, Equatable {
    /// The sheet's id.
    public var sheet: String
    /// Its version after the change.
    public var version: Int

    /// A change of `sheet`, now at `version`.
    public init(sheet: String, version: Int) {
        self.sheet = sheet
        self.version = version
    }
}

/// The server's one "sheet changed (id, version)" signal. Renames, comments, grants and
/// finished imports send it; whatever waits for a sheet watches it: a parked `minVersion`
/// export today, an event stream or a relay from another instance later (each only calls
/// `signal` or `watch`). Watchers are callbacks, never threads, so no thread waits for a
/// change; a watch with a deadline ends with `nil` when the deadline passes first.
public final class SheetChanges: @unchecked Sendable {
    /// A registration, for `cancel(_:)`.
    public final class Watch: @unchecked Sendable {
        fileprivate let sheet: String
        fileprivate let handler: @Sendable (SheetChange?) -> Void
        fileprivate init(sheet: String, handler: @escaping @Sendable (SheetChange?) -> Void) {
            self.sheet = sheet
            self.handler = handler
        }
    }

    private let lock = NSLock()
    private var watches: [String: [ObjectIdentifier: Watch]] = [:]
    private var isClosed = false
    private let timers = DispatchQueue(label: "sheetport.sheet-changes.deadlines")

    /// A hub with no watches.
    public init() {}

    /// Calls `handler` with every later change of `sheet` (on the signalling thread, so it
    /// must not block) until the watch is cancelled; with `nil` once if the hub closes, or if
    /// `deadline` passes while the watch stands. On a closed hub, `handler(nil)` at once.
    @discardableResult
    public func watch(_ sheet: String, until deadline: DispatchTime? = nil,
                      _ handler: @escaping @Sendable (SheetChange?) -> Void) -> Watch {
        let watch = Watch(sheet: sheet, handler: handler)
        lock.lock()
        guard !isClosed else {
            lock.unlock()
            handler(nil)
            return watch
        }
        watches[sheet, default: [:]][ObjectIdentifier(watch)] = watch
        lock.unlock()
        if let deadline {
            timers.asyncAfter(deadline: deadline) { [weak self, weak watch] in
                guard let self, let watch, self.remove(watch) else { return }
                watch.handler(nil)
            }
        }
        return watch
    }

    /// Ends a watch: its handler is not called again (a call already under way may finish).
    public func cancel(_ watch: Watch) { _ = remove(watch) }

    /// Tells every watch of `change.sheet`.
    public func signal(_ change: SheetChange) {
        lock.lock()
        let current = watches[change.sheet].map { Array($0.values) } ?? []
        lock.unlock()
        for watch in current { watch.handler(change) }
    }

    /// Ends every watch with `nil` and answers later ones the same way at once (the server is
    /// stopping: nothing parked may outlive it).
    public func close() {
        lock.lock()
        isClosed = true
        let all = watches.values.flatMap(\.values)
        watches = [:]
        lock.unlock()
        for watch in all { watch.handler(nil) }
    }

    /// Removes a watch; whether it was still registered.
    private func remove(_ watch: Watch) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard watches[watch.sheet]?.removeValue(forKey: ObjectIdentifier(watch)) != nil else { return false }
        if watches[watch.sheet]?.isEmpty == true { watches[watch.sheet] = nil }
        return true
    }
}
