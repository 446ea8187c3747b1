import Dispatch

/// When a recalculation must give up (`CalcEngine.deadline`): a server refuses a write whose
/// calculation runs past its time, so the engine stops computing soon after the deadline
/// instead of finishing work nobody will keep. The clock is read every few cells and every slice
/// of a long formula's steps, never per instruction.
public struct CalcDeadline: Sendable, Hashable {
    /// The instant, in `DispatchTime` uptime nanoseconds.
    public let uptimeNanoseconds: UInt64

    /// The deadline `seconds` from now: 0 or less is now; NaN, infinity or more than 10^9 s
    /// (31 years) is none in practice.
    public init(seconds: Double) {
        let now = DispatchTime.now().uptimeNanoseconds
        let span = seconds.isNaN || seconds > 1e9 ? 1e18 : max(0, seconds) * 1e9
        uptimeNanoseconds = now &+ UInt64(span)
    }

    /// True once the deadline has passed.
    public var hasPassed: Bool { DispatchTime.now().uptimeNanoseconds >= uptimeNanoseconds }
}
