import Foundation
import CMicroHTTPD

/// The cap on exports at once: each holds a slot from before its workbook is built until its
/// stream is freed, so the server's memory and threads stay bounded whatever the number of
/// clients. Past the cap an export answers 503 with `Retry-After`. One subject holds at most
/// half of the slots (rounded up, `share`), so a viewer holding its exports open with slow reads
/// leaves the other half to everyone else; past its share it gets the same 503. It also knows the exports
/// being sent as they are built, to end them when the server stops (libmicrohttpd cannot stop
/// with a connection parked).
package final class ExportSlots: @unchecked Sendable {
    /// The most exports at once.
    package let limit: Int
    /// The most one subject holds at once: half of `limit`, rounded up.
    package var share: Int { (limit + 1) / 2 }
    private let lock = NSLock()
    private var taken = 0
    private var bySubject: [String: Int] = [:]
    private var held: [ObjectIdentifier: Held] = [:]
    private var timer: DispatchSourceTimer?
    private var closed = false
    private var live: [ObjectIdentifier: LiveExport] = [:]
    /// The export builds running, each in from its start to its thread's end.
    private let builds = DispatchGroup()

    /// What a build's sink throws once the server is stopping.
    struct Stopping: Error {}

    /// What a resumed export's stream throws once its access is revoked.
    struct Revoked: Error {}

    /// A cap of `limit` exports (at least one).
    init(limit: Int) { self.limit = max(1, limit) }

    /// Who an export is for: its credential, the credential's subject, the sheet.
    struct Access: Sendable {
        let credential: Credential
        let subject: String
        let sheet: String
    }

    /// A held slot; freeing it gives the slot back. It carries its export's access, which the
    /// recheck timer resolves again; once revoked, `onRevoke` ends the export.
    final class Slot: @unchecked Sendable {
        private let slots: ExportSlots
        let access: Access
        private let lock = NSLock()
        private var revoked = false
        private var revokeAction: (@Sendable () -> Void)?

        fileprivate init(_ slots: ExportSlots, access: Access) {
            self.slots = slots
            self.access = access
        }

        var subject: String { access.subject }

        /// Whether the token, its session or the subject's access to the sheet was revoked.
        var isRevoked: Bool { lock.withLock { revoked } }

        /// `action` ends the export once its access is revoked (at once when it already is).
        func onRevoke(_ action: @escaping @Sendable () -> Void) {
            let now: Bool = lock.withLock {
                revokeAction = action
                return revoked
            }
            if now { action() }
        }

        /// Marks the access revoked and ends the export.
        fileprivate func revoke() {
            let action: (@Sendable () -> Void)? = lock.withLock {
                guard !revoked else { return nil }
                revoked = true
                return revokeAction
            }
            action?()
        }

        deinit {
            slots.lock.withLock {
                slots.taken -= 1
                let left = (slots.bySubject[subject] ?? 1) - 1
                slots.bySubject[subject] = left > 0 ? left : nil
                slots.held[ObjectIdentifier(self)] = nil
            }
        }
    }

    /// A slot held, without keeping it.
    private struct Held {
        weak var slot: Slot?
    }

    /// Why no slot was given.
    enum RequestRefusal: Error {
        /// Every slot is taken, or the server is stopping.
        case full
        /// The subject holds its share already.
        case overShare
    }

    /// A slot for an export of `access.subject`'s, or why not: every one is taken or the
    /// server is stopping, or the subject holds its share.
    func take(for access: Access) -> Result<Slot, RequestRefusal> {
        lock.withLock {
            guard taken < limit, !closed else { return .failure(.full) }
            guard bySubject[access.subject, default: 0] < share else { return .failure(.overShare) }
            taken += 1
            bySubject[access.subject, default: 0] += 1
            let slot = Slot(self, access: access)
            held[ObjectIdentifier(slot)] = Held(slot: slot)
            return .success(slot)
        }
    }

    /// Every `interval` seconds (at most 1), resolves the access of each export held again
    /// (`allowed`: one look at the store per export, not per buffer sent) and ends those whose
    /// token, session or grant is gone, as event streams do.
    func recheck(every interval: Double, _ allowed: @escaping @Sendable (Access) -> Bool) {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "sheetport.exports.recheck"))
        let interval = min(max(interval, 0.05), 1)
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(20))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            let slots = lock.withLock { held.values.compactMap(\.slot) }
            for slot in slots where !slot.isRevoked && !allowed(slot.access) { slot.revoke() }
        }
        timer.resume()
        lock.withLock { self.timer = timer }
    }

    /// Slots taken now.
    var inUse: Int { lock.withLock { taken } }

    /// Whether the server is stopping (`close()` was called).
    var isClosed: Bool { lock.withLock { closed } }

    /// Runs an export's build on a thread of its own (1 MiB stack) named `name` (15 bytes are
    /// kept), counted so that `close()` waits for it: the request threads never build.
    func startBuild(named name: String, _ body: @escaping @Sendable () -> Void) {
        builds.enter()
        let thread = Thread.running {
            // Named from inside, by the kernel's own call: Foundation names the system thread
            // only once the starting thread has stored the new one's handle, which under load it
            // often has not yet (the name was then lost, and the build not found by it).
            Thread.current.name = name
            sp_name_this_thread(name)
            body()
        } then: { [builds] in
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
            timer?.cancel()
            timer = nil
            return Array(live.values)
        }
        exports.forEach { $0.stop() }
        _ = builds.wait(timeout: .now() + 10)
    }
}
