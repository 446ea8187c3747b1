import Foundation

/// Renews the leases of the jobs this instance runs, on a thread and a connection of its own,
/// three times a lease: a job whose worker is busy for a while between batches (a long
/// pre-flight, a large shared-strings part) keeps its claim, and only a dead or stalled
/// instance loses it. The workers' batches still check the claim (`ServerContext.hold`).
final class LeaseKeeper: @unchecked Sendable {
    private let store: StoreLocation
    private let lease: Double
    private let log: ServerLog
    private let condition = NSCondition()
    private var claims: [String: String] = [:] // job id: claim token
    private var stopping = false
    private let thread = JoinableThread()

    /// A keeper of leases of `lease` seconds on `store`.
    init(store: StoreLocation, lease: Double, log: ServerLog) {
        self.store = store
        self.log = log
        self.lease = lease
    }

    /// Keeps `claim` alive until `release`.
    func keep(_ claim: JobClaim) {
        condition.lock()
        claims[claim.job.id] = claim.token
        condition.unlock()
    }

    /// Stops renewing a claim.
    func release(_ claim: JobClaim) {
        condition.lock()
        claims[claim.job.id] = nil
        condition.unlock()
    }

    /// Starts the thread.
    func start() {
        thread.start(named: "lease keeper") { [self] in
            var database: Database?
            let interval = lease / 3
            while true {
                condition.lock()
                if !stopping { _ = condition.wait(until: Date().addingTimeInterval(interval)) }
                let current = claims, stop = stopping
                condition.unlock()
                if stop { return }
                do {
                    let connection = try database ?? store.connect()
                    database = connection
                    for (job, token) in current {
                        _ = try connection.renew(job: job, claim: token, leaseMilliseconds: Int(lease * 1000))
                    }
                } catch {
                    database = nil // connected again on the next round
                    log.write("cannot renew job leases yet, retrying: \(error)")
                }
            }
        }
    }

    /// Stops the thread and waits for it.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        thread.join()
    }
}
