import Foundation
import SheetPortCore
import SheetPortReader
import SheetPortWriter
import SheetPortConvert

/// The cap on exports at once: each holds a slot from before its workbook is built until its
/// stream is freed, so the server's memory and threads stay bounded whatever the number of
/// clients. Past the cap an export answers 503 with `Retry-After`. It also knows the exports
/// being sent as they are built, to end them when the server stops (libmicrohttpd cannot stop
/// with a connection parked).
package final class ExportSlots: @unchecked Sendable {
    /// The most exports at once.
    package let limit: Int
    private let lock = NSLock()
    private var taken = 0
    private var closed = false
    private var live: [ObjectIdentifier: LiveExport] = [:]
    /// The export builds running, each in from its start to its thread's end.
    private let builds = DispatchGroup()

    /// What a build's sink throws once the server is stopping.
    struct Stopping: Error {}

    /// A cap of `limit` exports (at least one).
    init(limit: Int) { self.limit = max(1, limit) }

    /// A held slot; freeing it gives the slot back.
    final class Slot {
        private let slots: ExportSlots
        fileprivate init(_ slots: ExportSlots) { self.slots = slots }
        deinit { slots.lock.withLock { slots.taken -= 1 } }
    }

    /// A slot, or nil when every one is taken or the server is stopping.
    func take() -> Slot? {
        lock.withLock {
            guard taken < limit, !closed else { return false }
            taken += 1
            return true
        } ? Slot(self) : nil
    }

    /// Slots taken now.
    var inUse: Int { lock.withLock { taken } }

    /// Whether the server is stopping (`close()` was called).
    var isClosed: Bool { lock.withLock { closed } }

    /// Runs an export's build on a thread of its own (1 MiB stack) named `name` (15 bytes are
    /// kept), counted so that `close()` waits for it: the request threads never build.
    func startBuild(named name: String, _ body: @escaping @Sendable () -> Void) {
        builds.enter()
        let thread = Thread { [builds] in
            // Named from inside: Foundation names the system thread only for the current one.
            Thread.current.name = name
            body()
            builds.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Keeps `export` until `forget`, to stop it on `close()`; false when already closed.
    func track(_ export: LiveExport) -> Bool {
        lock.withLock {
            guard !closed else { return false }
            live[ObjectIdentifier(export)] = export
            return true
        }
    }

    /// No longer keeps `export`.
    func forget(_ export: LiveExport) {
        _ = lock.withLock { live.removeValue(forKey: ObjectIdentifier(export)) }
    }

    /// Stops every export being sent (each cut, its build ended at its next buffer) and takes
    /// no more; waits a while for the builds to end, as they use the store.
    func close() {
        let exports = lock.withLock {
            closed = true
            return Array(live.values)
        }
        exports.forEach { $0.stop() }
        _ = builds.wait(timeout: .now() + 10)
    }
}
