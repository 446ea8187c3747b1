import Foundation

/// A sheet changed: which one, and the version it is at now.
package struct SheetChange: Sendable, Equatable {
    /// The sheet's id.
    package var sheet: String
    /// Its version after the change.
    package var version: Int
}

/// The server's one "sheet changed (id, version)" signal, and "job advanced (id)" too.
/// Renames, comments, grants and finished imports send the first, import workers and cancels
/// the second; whatever waits watches it: a parked `minVersion` export, an event stream, a
/// relay from another instance later (each only calls `signal` or `watch`). Watchers are
/// callbacks, never threads, so no thread waits for a change; a watch with a deadline ends
/// with `nil` when the deadline passes first. A job's watchers get a `SheetChange` whose
/// `sheet` is the job's id and `version` 0: what changed is read from the store.
package final class SheetChanges: @unchecked Sendable {
    /// A registration, for `cancel(_:)`.
    package final class Watch: @unchecked Sendable {
        fileprivate let topic: Topic
        fileprivate let handler: @Sendable (SheetChange?) -> Void
        fileprivate init(topic: Topic, handler: @escaping @Sendable (SheetChange?) -> Void) {
            self.topic = topic
            self.handler = handler
        }
    }

    private let lock = NSLock()
    /// What a watch follows: a sheet or an import job (ids of both are random, but kept apart).
    fileprivate enum Topic: Hashable {
        case sheet(String)
        case job(String)
    }

    private var watches: [Topic: [ObjectIdentifier: Watch]] = [:]
    private var isClosed = false
    private let timers = DispatchQueue(label: "sheetport.sheet-changes.deadlines")

    /// A hub with no watches.
    package init() {}

    /// Calls `handler` with every later change of `sheet` (on the signalling thread, so it
    /// must not block) until the watch is cancelled; with `nil` once if the hub closes, or if
    /// `deadline` passes while the watch stands. On a closed hub, `handler(nil)` at once.
    @discardableResult
    package func watch(_ sheet: String, until deadline: DispatchTime? = nil,
                      _ handler: @escaping @Sendable (SheetChange?) -> Void) -> Watch {
        watch(.sheet(sheet), until: deadline, handler)
    }

    /// Calls `handler` each time the import job `id` advances (progress, its end), as
    /// `watch(_:until:_:)` does for a sheet.
    @discardableResult
    package func watch(job id: String, _ handler: @escaping @Sendable (SheetChange?) -> Void) -> Watch {
        watch(.job(id), until: nil, handler)
    }

    private func watch(_ topic: Topic, until deadline: DispatchTime?, _ handler: @escaping @Sendable (SheetChange?) -> Void) -> Watch {
        let watch = Watch(topic: topic, handler: handler)
        lock.lock()
        guard !isClosed else {
            lock.unlock()
            handler(nil)
            return watch
        }
        watches[topic, default: [:]][ObjectIdentifier(watch)] = watch
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
    package func cancel(_ watch: Watch) { _ = remove(watch) }

    /// Tells every watch of `change.sheet`.
    package func signal(_ change: SheetChange) { signal(.sheet(change.sheet), change) }

    /// Tells every watch of the import job `id` that it advanced.
    package func signal(job id: String) { signal(.job(id), SheetChange(sheet: id, version: 0)) }

    private func signal(_ topic: Topic, _ change: SheetChange) {
        lock.lock()
        let current = watches[topic].map { Array($0.values) } ?? []
        lock.unlock()
        for watch in current { watch.handler(change) }
    }

    /// Ends every watch with `nil` and answers later ones the same way at once (the server is
    /// stopping: nothing parked may outlive it).
    package func close() {
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
        guard watches[watch.topic]?.removeValue(forKey: ObjectIdentifier(watch)) != nil else { return false }
        if watches[watch.topic]?.isEmpty == true { watches[watch.topic] = nil }
        return true
    }
}
