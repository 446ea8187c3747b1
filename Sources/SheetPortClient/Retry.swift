#if canImport(Glibc)
import Glibc
#endif
import Dispatch

/// When and how often a request is tried again: after a dropped connection, a timeout, or a
/// status that says "try later" (408, 425, 429, 5xx), with exponential backoff and jitter.
public struct RetryPolicy: Sendable {
    /// Tries in all, the first included.
    public var attempts: Int
    /// Seconds before the second try; each later wait is `multiplier` times longer.
    public var initialDelay: Double
    /// The longest wait, also for a server's `Retry-After`.
    public var maximumDelay: Double
    /// Growth of the wait from one try to the next.
    public var multiplier: Double
    /// Seconds all tries of one request may take together, waits included (0: no bound but
    /// the tries' own deadlines). A request without a body is ended by this bound whatever the
    /// number of tries left: `--timeout` is what one request may take, its retries included.
    public var budget: Double = 0

    /// 5 tries, waiting about 0.2, 0.4, 0.8 and 1.6 s.
    public init(attempts: Int = 5, initialDelay: Double = 0.2, maximumDelay: Double = 5, multiplier: Double = 2) {
        self.attempts = max(1, attempts)
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.multiplier = multiplier
    }

    /// No retries.
    public static let none = RetryPolicy(attempts: 1)

    /// The wait before try `attempt` (2 for the first retry): the backoff, between half and
    /// all of it at random so that clients retrying together spread out.
    public func delay(before attempt: Int, retryAfter: Double? = nil) -> Double {
        if let retryAfter { return min(max(retryAfter, 0), maximumDelay) }
        let full = min(initialDelay * pow(multiplier, Double(max(attempt - 2, 0))), maximumDelay)
        return full / 2 + Double.random(in: 0...(full / 2))
    }

    /// Whether an answer with this status is worth trying again.
    public static func isRetryable(status: Int) -> Bool {
        status == 408 || status == 425 || status == 429 || (500...599).contains(status) && status != 501
    }

    /// Whether this failure of the connection is worth trying again: it did not connect, timed
    /// out, or broke off; not when the request body cannot be read, the answer is too large, or
    /// we aborted it ourselves.
    package static func isRetryable(_ error: HTTPClientError) -> Bool {
        switch error {
        case .connectionFailed, .timedOut, .transfer: true
        case .unreadableFile, .aborted, .answerTooLarge: false
        }
    }

    /// Runs `body` (given the try's number, from 1) until it returns or throws something that
    /// is not a `RetryableFailure`, or the tries are used up (then the last failure's cause is
    /// thrown). `shouldStop` is asked before each wait (a signal arrived, say).
    public func run<T>(_ body: (Int) throws -> T, shouldStop: () -> Bool = { false }) throws -> T {
        try run({ attempt, _ in try body(attempt) }, budget: 0, shouldStop: shouldStop)
    }

    /// `run`, the tries together bounded by `budget` seconds (0: none): `body` is given the
    /// try's number and the seconds left of the budget (nil without one), and no wait or try
    /// starts once the budget is spent (the last failure's cause is thrown then).
    public func run<T>(_ body: (Int, Double?) throws -> T, budget: Double, shouldStop: () -> Bool = { false }) throws -> T {
        let started = DispatchTime.now().uptimeNanoseconds
        func left() -> Double? {
            guard budget > 0 else { return nil }
            return budget - Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        }
        var attempt = 1
        while true {
            do {
                return try body(attempt, left())
            } catch let failure as RetryableFailure {
                guard attempt < attempts, !shouldStop() else { throw failure.cause }
                let wait = delay(before: attempt + 1, retryAfter: failure.retryAfter)
                // A wait that would spend the budget, or leave too little for a try, is not made.
                if let left = left(), left - wait < 0.1 { throw failure.cause }
                attempt += 1
                Self.sleep(wait, unless: shouldStop)
            }
        }
    }

    /// Sleeps `seconds` in small steps, returning early once `stop()` holds.
    static func sleep(_ seconds: Double, unless stop: () -> Bool) {
        var left = seconds
        while left > 0, !stop() {
            let step = min(left, 0.05)
            usleep(UInt32(step * 1_000_000))
            left -= step
        }
    }
}

/// A failure `RetryPolicy.run` tries again; `cause` is what is thrown when the tries run out.
public struct RetryableFailure: Error {
    /// The error reported if no try succeeds.
    public var cause: any Error
    /// The server's `Retry-After`, in seconds.
    public var retryAfter: Double?

    public init(_ cause: any Error, retryAfter: Double? = nil) {
        self.cause = cause
        self.retryAfter = retryAfter
    }
}
