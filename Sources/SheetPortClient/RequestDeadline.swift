/// The time limits of one HTTP request, checked by `HTTPClient` every time it wakes (at least
/// every `pollInterval`): nothing a server does (never answering, answering late, trickling)
/// holds a request past them.
///
/// - `timeout` bounds the whole request; for a request with a body it counts from the moment
///   the body has been sent, so that a large upload is bounded by the speed limit while it flows.
/// - `answerTimeout` bounds the wait for the answer to begin (after connecting and sending):
///   long enough for a server that builds an export before sending it.
/// - While bytes flow (the body being sent, the answer being received) the average over each
///   `lowSpeedTime` seconds must reach `lowSpeedLimit` bytes a second.
struct RequestDeadline {
    var timeout: Double
    var answerTimeout: Double
    var lowSpeedLimit: Int
    var lowSpeedTime: Double

    private var start: Double
    private var windowStart: Double?
    private var windowBytes: Int64 = 0

    init(timeout: Double, answerTimeout: Double, lowSpeedLimit: Int, lowSpeedTime: Double, start: Double) {
        self.timeout = timeout
        self.answerTimeout = answerTimeout
        self.lowSpeedLimit = lowSpeedLimit
        self.lowSpeedTime = lowSpeedTime
        self.start = start
    }

    /// Why the request must end now, or nil. `hasBody`: the request has a body; `bodySentAt`:
    /// when it was all sent (nil before); `sending`: the body is flowing; `answerStarted`: the
    /// answer's first bytes arrived; `moved`: bytes sent and received so far.
    mutating func check(now: Double, hasBody: Bool = false, bodySentAt: Double?, sending: Bool, answerStarted: Bool,
                        moved: Int64) -> String? {
        let waitingSince = bodySentAt ?? start
        // A body on its way is bounded by the speed limit alone: a large upload may take long.
        let waiting = !hasBody || bodySentAt != nil
        if waiting, timeout > 0, now - waitingSince > timeout {
            return "no complete answer within \(Self.seconds(timeout))" + (bodySentAt == nil ? "" : " of sending the request") + " (timed out)"
        }
        if waiting, !answerStarted, answerTimeout > 0, now - waitingSince > answerTimeout {
            return "no answer began within \(Self.seconds(answerTimeout)) (timed out)"
        }
        guard lowSpeedLimit > 0, lowSpeedTime > 0, sending || answerStarted else {
            windowStart = nil
            return nil
        }
        guard let since = windowStart else {
            windowStart = now
            windowBytes = moved
            return nil
        }
        guard now - since >= lowSpeedTime else { return nil }
        let speed = Double(moved - windowBytes) / (now - since)
        if speed < Double(lowSpeedLimit) {
            return "too slow: less than \(lowSpeedLimit) bytes a second over the last \(Self.seconds(lowSpeedTime)) (timed out)"
        }
        windowStart = now
        windowBytes = moved
        return nil
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
