import Foundation

/// The cap on exports at once: each holds a slot from before its workbook is built until its
/// stream is freed, so the server's memory and its sealed scratch files stay bounded whatever
/// the number of clients. Past the cap an export answers 503 with `Retry-After`.
public final class ExportSlots: @unchecked Sendable {
    /// The most exports at once.
    public let limit: Int
    private let lock = NSLock()
    private var taken = 0

    /// A cap of `limit` exports (at least one).
    init(limit: Int) { self.limit = max(1, limit) }

    /// A held slot; freeing it gives the slot back.
    final class Slot {
        private let slots: ExportSlots
        fileprivate init(_ slots: ExportSlots) { self.slots = slots }
        deinit { slots.lock.withLock { slots.taken -= 1 } }
    }

    /// A slot, or nil when every one is taken.
    func take() -> Slot? {
        lock.withLock {
            guard taken < limit else { return false }
            taken += 1
            return true
        } ? Slot(self) : nil
    }

    /// Slots taken now.
    var inUse: Int { lock.withLock { taken } }
}
