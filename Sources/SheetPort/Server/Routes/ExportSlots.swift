import Foundation

/// The cap on exports at once: each holds a slot from before its workbook is built until its
/// stream is freed, so the server's memory and threads stay bounded whatever the number of
/// clients. Past the cap an export answers 503 with `Retry-After`. One subject holds at most
/// half of the slots (rounded up, `share`), so a viewer holding its exports open with slow reads
/// leaves the other half to everyone else; past its share it gets the same 503. It also knows the exports
/// being sent as they are built, to end them when the server stops (libmicrohttpd cannot stop
/// with a connection parked).
public final class ExportSlots: @unchecked Sendable {
    /// The most exports at once.
    public let limit: Int
    /// The most one subject holds at once: half of `limit`, rounded up.
    public var share: Int { (limit + 1) / 2 }
    private let lock = NSLock()
    private var taken = 0
    private var bySubject: [String: Int] = [:]
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
        let subject: String
        fileprivate init(_ slots: ExportSlots, subject: String) {
            self.slots = slots
            self.subject = subject
        }
        deinit {
            slots.lock.withLock {
                slots.taken -= 1
                let left = (slots.bySubject[subject] ?? 1) - 1
                slots.bySubject[subject] = left > 0 ? left : nil
            }
        }
    }

    /// Why no slot was given.
    enum Refusal: Error {
        /// Every slot is taken, or the server is stopping.
        case full
        /// The subject holds its share already.
        case overShare
    }

    /// A slot for an export of `subject`'s, or why not: every one is taken or the server is
    /// stopping, or the subject holds its share.
    func take(for subject: String) -> Result<Slot, Refusal> {
        let refusal: Refusal? = lock.withLock {
            guard taken < limit, !closed else { return .full }
            guard bySubject[subject, default: 0] < share else { return .overShare }
            taken += 1
            bySubject[subject, default: 0] += 1
            return nil
        }
        if let refusal { return .failure(refusal) }
        return .success(Slot(self, subject: subject))
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
