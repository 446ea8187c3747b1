import Foundation
import SheetPortCore

/// A job's `result` and `error` objects are sealed in the store: their warnings and findings
/// name the workbook's other sheets (`extra-worksheets`), its parts and what they hold, none
/// of which may be stored in plaintext. Each is sealed with the server's key, bound to its job
/// and field, and kept in the same text column as `sealed:1:` and the record in base64, so no
/// schema changes; a row written before (plaintext JSON) is still read, and sealed at start
/// (`Database.sealPlaintextJobTexts`).
enum SealedJobText {
    /// What a sealed value starts with.
    static let prefix = "sealed:1:"

    /// The associated data of `field` (`result`, `error`) of job `job`.
    static func context(job: String, field: String) -> [UInt8] { Sealer.context("job-" + field, job) }

    /// `text` as stored: sealed with `sealer` (a server's), as it is without one (a store
    /// opened by `sheetport token`, a test).
    static func seal(_ text: String, job: String, field: String, with sealer: Sealer?) -> String {
        guard let sealer else { return text }
        return prefix + Data(sealer.seal(Array(text.utf8), context: context(job: job, field: field))).base64EncodedString()
    }

    /// The text of a stored value: opened when sealed, as it is when written before sealing.
    /// One that does not open (another key, tampered with) reads as an error object saying so.
    static func open(_ stored: String?, job: String, field: String, with sealer: Sealer?) -> String? {
        guard let stored, stored.hasPrefix(prefix) else { return stored }
        guard let sealer, let data = Data(base64Encoded: String(stored.dropFirst(prefix.count))),
              let plaintext = try? sealer.open(Array(data), context: context(job: job, field: field), what: "job \(field)") else {
            return field == "error" ? ImportWorker.errorJSON(code: .internal, message: "the job's stored outcome cannot be read") : nil
        }
        return String(decoding: plaintext, as: UTF8.self)
    }
}

extension Database {
    /// Seals the results and errors of jobs written before they were sealed; returns how many
    /// jobs it sealed. Run at start, once the key is known.
    @discardableResult
    func sealPlaintextJobTexts() throws -> Int {
        let pattern = SealedJobText.prefix + "%"
        let rows = try query("SELECT id, result, error FROM jobs WHERE (result IS NOT NULL AND result NOT LIKE ?) OR (error IS NOT NULL AND error NOT LIKE ?)",
                             [.text(pattern), .text(pattern)])
        for row in rows {
            guard let id = row[0].string else { continue }
            func sealed(_ value: SQLValue, _ field: String) -> SQLValue {
                guard let text = value.string else { return .null }
                return .text(text.hasPrefix(SealedJobText.prefix) ? text : SealedJobText.seal(text, job: id, field: field, with: jobSealer))
            }
            try query("UPDATE jobs SET result = ?, error = ? WHERE id = ?", [sealed(row[1], "result"), sealed(row[2], "error"), .text(id)])
        }
        return rows.count
    }
}
