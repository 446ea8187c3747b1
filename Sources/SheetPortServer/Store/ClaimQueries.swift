/// Claims on import jobs: a worker runs a job only while its claim (a random token) is the
/// job's, so a job runs in one place at a time and ends once. On a shared store a claim holds
/// for a lease that the running job renews; a job whose lease ran out (its instance died) is
/// claimed again, its partial sheet removed, and restarts from its sealed staged upload.
extension Database {
    /// Claims a queued job by id (the embedded store's queue names it); false when it is no
    /// longer queued (cancelled while it waited).
    func claim(job id: String, claim: String, leaseMilliseconds: Int) throws -> Bool {
        try query("UPDATE jobs SET status = 'running', claim = ?, lease_until = \(nowMilliseconds) + ? WHERE id = ? AND status = 'queued'",
                  [.text(claim), .integer(Int64(leaseMilliseconds)), .text(id)])
        return changes > 0
    }

    /// Claims the oldest job that waits, or whose lease ran out, skipping those another
    /// instance is claiming at this moment (`FOR UPDATE SKIP LOCKED`); a taken-over job's
    /// partial sheet goes in the same transaction. Nil when there is none. Shared store only.
    func claimNextJob(claim: String, leaseMilliseconds: Int) throws -> JobRecord? {
        try transaction {
            let rows = try query("""
                WITH next AS (
                    SELECT id, sheet_id FROM jobs
                    WHERE status = 'queued' OR (status = 'running' AND lease_until < \(nowMilliseconds))
                    ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED)
                UPDATE jobs SET status = 'running', claim = ?, lease_until = \(nowMilliseconds) + ?, attempts = jobs.attempts + 1,
                    bytes = 0, rows = 0, cells = 0, sheet_id = NULL
                FROM next WHERE jobs.id = next.id
                RETURNING jobs.id, next.sheet_id
                """, [.text(claim), .integer(Int64(leaseMilliseconds))])
            guard let row = rows.first, let id = row[0].string else { return nil }
            if let abandoned = row[1].string { try query("DELETE FROM sheets WHERE id = ? AND visible = 0", [.text(abandoned)]) }
            return try job(id)
        }
    }

    /// Renews a claim's lease; false when the claim no longer holds (the job was cancelled,
    /// or taken over after this instance stalled past its lease).
    func renew(job id: String, claim: String, leaseMilliseconds: Int) throws -> Bool {
        try query("UPDATE jobs SET lease_until = \(nowMilliseconds) + ? WHERE id = ? AND claim = ? AND status = 'running'",
                  [.integer(Int64(leaseMilliseconds)), .text(id), .text(claim)])
        return changes > 0
    }

    /// Ends a claimed job as failed, unless the claim no longer holds; its staged upload goes.
    func fail(job id: String, claim: String, error: String) throws {
        try transaction { try failClaimed(job: id, claim: claim, error: error) }
    }

    /// `fail(job:claim:error:)` in the caller's transaction (with what else must go with it).
    func failClaimed(job id: String, claim: String, error: String) throws {
        try query("UPDATE jobs SET status = 'failed', error = ? WHERE id = ? AND claim = ? AND status = 'running'",
                  [.text(SealedJobText.seal(error, job: id, field: "error", with: jobSealer)), .text(id), .text(claim)])
        if changes > 0 { try deleteStagedUpload(job: id) }
    }

    /// Ends a claimed job as succeeded with its `result` object (sealed with `jobSealer`, its
    /// server's key) and final counts (in the transaction that shows its sheet); false when the claim no longer holds (cancelled or
    /// taken over meanwhile), and then nothing of that transaction may stand.
    func succeed(job id: String, claim: String, result: String, rows: Int, cells: Int, bytes: Int64) throws -> Bool {
        try query("""
            UPDATE jobs SET status = 'succeeded', result = ?, rows = ?, cells = ?, bytes = ?, lease_until = NULL
            WHERE id = ? AND claim = ? AND status = 'running'
            """, [.text(SealedJobText.seal(result, job: id, field: "result", with: jobSealer)), .integer(Int64(rows)), .integer(Int64(cells)), .integer(bytes),
                  .text(id), .text(claim)])
        return changes > 0
    }

    /// How many times a job was claimed (1, or more after takeovers and requeues), nil when
    /// there is no such job. Shared store only (the embedded store's jobs are claimed once).
    func attempts(of job: String) throws -> Int? {
        try query("SELECT attempts FROM jobs WHERE id = ?", [.text(job)]).first?.first?.int
    }

    /// Gives a claimed job back to the queue (the server is stopping), unless the claim no
    /// longer holds; returns whether it was given back.
    @discardableResult
    func release(job id: String, claim: String) throws -> Bool {
        try query("UPDATE jobs SET status = 'queued', claim = NULL, lease_until = NULL, bytes = 0, rows = 0, cells = 0, sheet_id = NULL WHERE id = ? AND claim = ? AND status = 'running'",
                  [.text(id), .text(claim)])
        return changes > 0
    }

    /// Stores a staged upload's sealed bytes as one piece (shared store: any instance may run the job).
    func insertStagedPiece(job id: String, piece: Int, data: [UInt8]) throws {
        try query("INSERT INTO staged_uploads (job_id, piece, data) VALUES (?, ?, ?)", [.text(id), .integer(Int64(piece)), .blob(data)])
    }

    /// A staged upload's pieces from `first`, at most `count`, in order.
    func stagedPieces(job id: String, from first: Int, count: Int) throws -> [(piece: Int, data: [UInt8])] {
        try query("SELECT piece, data FROM staged_uploads WHERE job_id = ? AND piece >= ? ORDER BY piece LIMIT ?",
                  [.text(id), .integer(Int64(first)), .integer(Int64(count))]).map { ($0[0].int ?? 0, $0[1].bytes ?? []) }
    }

    /// Removes a staged upload's pieces.
    func deleteStagedUpload(job id: String) throws {
        try query("DELETE FROM staged_uploads WHERE job_id = ?", [.text(id)])
    }
}
