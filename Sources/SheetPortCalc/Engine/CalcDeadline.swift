import Dispatch

/// When a recalculation must give up (`CalcEngine.deadline`): a server refuses a write whose
/// calculation runs past its time, so the engine stops computing soon after the deadline
/// instead of finishing work nobody will keep. The clock is read every few cells and every slice
/// of a long formula's steps, never per instruction.
public struct CalcDeadline: Sendable, Hashable {
    /// The instant, in `DispatchTime` uptime nanoseconds.
    public let uptimeNanoseconds: UInt64

    /// The deadline `seconds` from now (a non-finite or huge span is no deadline in practice).
    public init(seconds: Double) {
        let now = DispatchTime.now().uptimeNanoseconds
        let span = seconds.isFinite ? max(0, min(seconds, 1e9)) * 1e9 : 1e18
        uptimeNanoseconds = now &+ UInt64(span)
    }

    /// True once the deadline has passed.
    public var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds }
}
