import Foundation
import SheetPortCore

/// A worker's claim on an import job: the job as claimed and the claim's random token, which
/// every write of the job checks (`Database.renew`), so a job runs in one place at a time and
/// ends once.
struct JobClaim {
    /// The job.
    let job: JobRecord
    /// The claim's token (32 hexadecimal digits).
    let token: String
}

extension ServerContext {
    /// How often a shared store's idle workers look for a job to claim (also how soon one
    /// whose lease ran out is seen).
    static let claimPollSeconds = 0.5

    /// The lease in milliseconds.
    var leaseMilliseconds: Int { Int(configuration.lease * 1000) }

    /// Waits for the next job and claims it; nil when the server stops. The embedded store's
    /// jobs come from the in-process queue; a shared store's are claimed from the database,
    /// the oldest waiting one first, or one whose instance died.
    func nextClaim(_ database: Database) -> JobClaim? {
        let token = Sodium.identifier()
        if !database.isShared {
            while let id = imports.next() {
                if (try? database.claim(job: id, claim: token, leaseMilliseconds: leaseMilliseconds)) == true,
                   let job = try? database.job(id) {
                    return JobClaim(job: job, token: token)
                }
                unlink(directory.stagingFile(job: id)) // cancelled while waiting, or gone
                imports.finished(id)
            }
            return nil
        }
        while !imports.isStopping {
            do {
                if let job = try database.claimNextJob(claim: token, leaseMilliseconds: leaseMilliseconds) {
                    imports.running(job.id)
                    return JobClaim(job: job, token: token)
                }
            } catch {
                log.write("cannot claim an import job yet, retrying: \(error)")
            }
            guard imports.waitForWork(timeout: Self.claimPollSeconds) else { return nil }
        }
        return nil
    }

    /// Stops the job unless its claim still holds: renews the lease (in the caller's
    /// transaction, with the writes it guards); throws why it must stop.
    func hold(_ claim: JobClaim, _ database: Database) throws {
        if let reason = imports.stopReason(claim.job.id) { throw reason }
        guard try database.renew(job: claim.job.id, claim: claim.token, leaseMilliseconds: leaseMilliseconds) else {
            throw try database.job(claim.job.id)?.status == .cancelled ? ImportInterruption.cancelled : ImportInterruption.claimLost
        }
    }
}
