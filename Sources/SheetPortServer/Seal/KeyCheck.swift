import CSodium
#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore

/// Which key a store is sealed with: a key check value (a keyed BLAKE2b of a fixed label,
/// never the key itself) recorded in the store's `meta` table. `serve` and `token` compare the
/// key they are given with it before anything else touches the store, so an instance started
/// with a missing, replaced or different key refuses to start (exit 2, naming both keys'
/// fingerprints) instead of failing jobs, deleting staged uploads or sealing records that no
/// correctly keyed instance can open.
///
/// A store from before key checks were recorded gets its check on the first start whose key
/// opens one of its sealed records; a new key is created only for an empty store.
///
/// Envelope keys: a new store's records are sealed with a random data key, which the store keeps
/// sealed under each key file that may open it (`data_key:<check value>` in `meta`). Rotation
/// (`sheetport key rotate`) seals that small data key under the new key file too and records the
/// new key as the store's; until the old key is retired (`sheetport key retire`), either opens
/// the store. A store whose records were sealed with the key file itself (before envelope keys)
/// keeps that key as its data key.
package enum KeyCheck {
    /// The `meta` entry that holds the check value.
    static let metaName = "seal_key_check"
    private static let label = Array("SheetPort sealing key check, version 1".utf8)

    /// The check value of `key`: BLAKE2b-256 of a fixed label keyed with `key`.
    package static func value(of key: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        crypto_generichash(&output, 32, label, UInt64(label.count), key, key.count)
        return output
    }

    /// A key's fingerprint as people compare it: the first 8 bytes of its check value in hex,
    /// in groups of four digits (`3f2a-9c1b-0d4e-5f67`).
    package static func fingerprint(of key: [UInt8]) -> String { fingerprint(check: value(of: key)) }

    /// The fingerprint of a recorded check value.
    package static func fingerprint(check: [UInt8]) -> String {
        let digits = Array(Sodium.hex(Array(check.prefix(8))))
        return stride(from: 0, to: digits.count, by: 4).map { String(digits[$0..<min($0 + 4, digits.count)]) }.joined(separator: "-")
    }

    /// The `meta` entry of the data key sealed under the key whose check value is `check`.
    static func dataKeyName(_ check: [UInt8]) -> String { "data_key:" + Sodium.hex(check) }

    private static func dataKeyContext(_ check: [UInt8]) -> [UInt8] { Sealer.context("data key", Sodium.hex(check)) }

    /// The store's data key as sealed under `key`, nil when the store keeps none for it.
    static func dataKey(for key: [UInt8], in database: Database) throws -> [UInt8]? {
        let check = value(of: key)
        guard let sealed = try database.metaValue(dataKeyName(check)) else { return nil }
        return try Sealer(key: key).open(sealed, context: dataKeyContext(check), what: "the store's data key")
    }

    /// Upserts the data key sealed under `key`.
    private static func storeDataKey(_ dataKey: [UInt8], under key: [UInt8], in database: Database) throws {
        let check = value(of: key)
        try database.setMetaValue(try Sealer(key: key).seal(dataKey, context: dataKeyContext(check)), for: dataKeyName(check))
    }

    /// Opens (creating or migrating) the store and checks `keyFile` against it. With `create`
    /// (`serve`), the key is created when missing and the store is empty, and the check value
    /// is recorded when the store has none yet; returns the sealer. Without (`token`), nothing
    /// is created or recorded; returns the sealer when there is a key.
    /// `staging`: the embedded store's folder of staged uploads (a queued job's upload is
    /// sealed data too).
    @discardableResult
    package static func establish(keyFile: String, store: StoreLocation, staging: String?, create: Bool) throws -> Sealer? {
        let database = try store.open()
        let given = try KeyFile.load(at: keyFile)
        let shown = keyFile.visibleControlCharacters
        if let recorded = try database.recordedKeyCheck() {
            guard let key = given else {
                throw refusal("the sealing key \(shown) is missing, and the store is sealed with the key of fingerprint "
                    + "\(fingerprint(check: recorded)): restore that key file (a new key would open none of its data)")
            }
            // The store's key, or one being rotated from or to: it opens the data key.
            if let dataKey = try dataKey(for: key, in: database) { return try Sealer(key: dataKey) }
            guard value(of: key) == recorded else {
                throw refusal("the sealing key \(shown) has fingerprint \(fingerprint(of: key)), but the store is sealed with the key "
                    + "of fingerprint \(fingerprint(check: recorded)): start with the key file the store was sealed with")
            }
            return try Sealer(key: key)
        }
        // No check recorded: a new store, or one from before checks were kept.
        if let probe = try SealedProbe.first(database, staging: staging) {
            guard let key = given else {
                throw refusal("the sealing key \(shown) is missing, and the store holds sealed data (recorded before key "
                    + "fingerprints were kept): restore the key file it was sealed with (a new key would open none of it)")
            }
            let sealer = try Sealer(key: key)
            guard probe.opens(with: sealer) else {
                throw refusal("the sealing key \(shown) (fingerprint \(fingerprint(of: key))) does not open the store's sealed "
                    + "data: start with the key file the store was sealed with")
            }
            if create { try record(key, in: database, shown) }
            return sealer
        }
        guard create else { return try given.map(Sealer.init(key:)) }
        let key = try given ?? KeyFile.create(at: keyFile)
        // A new store: a random data key, sealed under the key file's key, recorded with its check
        // (another instance starting at once may have recorded its own: that one is used).
        try database.transaction {
            try database.addMetaValue(try Sealer(key: key).seal(Sodium.randomBytes(Sealer.keyLength), context: dataKeyContext(value(of: key))),
                                      for: dataKeyName(value(of: key)))
            try record(key, in: database, shown)
        }
        guard let dataKey = try dataKey(for: key, in: database) else { throw refusal("the store's data key is missing") }
        return try Sealer(key: dataKey)
    }

    /// `sheetport key rotate`: the store's data key sealed under the key in `newFile` (created
    /// when missing, mode 0600) as well, and the new key recorded as the store's. The key in
    /// `oldFile` must open the store, and keeps opening it until retired. Returns both
    /// fingerprints.
    package static func rotate(store: StoreLocation, staging: String?, old oldFile: String, new newFile: String) throws -> (old: String, new: String) {
        let database = try store.open()
        guard let oldKey = try KeyFile.load(at: oldFile) else {
            throw refusal("the old sealing key \(oldFile.visibleControlCharacters) is missing")
        }
        let dataKey: [UInt8]
        if let sealed = try self.dataKey(for: oldKey, in: database) {
            dataKey = sealed
        } else if let recorded = try database.recordedKeyCheck() {
            guard recorded == value(of: oldKey) else {
                throw refusal("the old sealing key \(oldFile.visibleControlCharacters) has fingerprint \(fingerprint(of: oldKey)), but the "
                    + "store is sealed with the key of fingerprint \(fingerprint(check: recorded)): rotate from that key")
            }
            dataKey = oldKey // records sealed with the key itself (before envelope keys)
        } else if let probe = try SealedProbe.first(database, staging: staging) {
            guard probe.opens(with: try Sealer(key: oldKey)) else {
                throw refusal("the old sealing key \(oldFile.visibleControlCharacters) (fingerprint \(fingerprint(of: oldKey))) does not open the store's sealed data")
            }
            dataKey = oldKey
        } else {
            throw refusal("the store holds nothing sealed yet: start the server with the new key instead")
        }
        let newKey = try KeyFile.loadOrCreate(at: newFile)
        guard newKey != oldKey else { throw refusal("the old and the new key files hold the same key") }
        try database.transaction {
            try storeDataKey(dataKey, under: oldKey, in: database)
            try storeDataKey(dataKey, under: newKey, in: database)
            try database.setMetaValue(value(of: newKey), for: metaName)
        }
        return (fingerprint(of: oldKey), fingerprint(of: newKey))
    }

    /// `sheetport key retire`: the key in `oldFile` no longer opens the store (its sealed copy of
    /// the data key is removed). Refuses the store's current key. Returns its fingerprint.
    package static func retire(store: StoreLocation, old oldFile: String) throws -> String {
        let database = try store.open()
        guard let oldKey = try KeyFile.load(at: oldFile) else {
            throw refusal("the sealing key to retire, \(oldFile.visibleControlCharacters), is missing")
        }
        guard try database.recordedKeyCheck() != value(of: oldKey) else {
            throw refusal("the key of fingerprint \(fingerprint(of: oldKey)) is the store's current key: rotate to another first")
        }
        guard try database.deleteMetaValue(dataKeyName(value(of: oldKey))) else {
            throw refusal("the key of fingerprint \(fingerprint(of: oldKey)) does not open the store: nothing to retire")
        }
        return fingerprint(of: oldKey)
    }

    /// Records `key`'s check value unless one is there already (another instance starting at
    /// once on the shared store), which must then be the same.
    private static func record(_ key: [UInt8], in database: Database, _ shown: String) throws {
        let stored = try database.recordKeyCheck(value(of: key))
        guard stored == value(of: key) else {
            throw refusal("the sealing key \(shown) has fingerprint \(fingerprint(of: key)), but another instance has just "
                + "sealed the store with the key of fingerprint \(fingerprint(check: stored)): every instance needs the same key file")
        }
    }

    private static func refusal(_ message: String) -> ServerError { .configuration(message) }
}

/// One sealed record of a store and the context it is bound to: what proves which key opens it.
struct SealedProbe {
    let sealed: [UInt8]
    /// The contexts it may be bound to (a staged upload's first block is sealed as the last
    /// one when it is the only one).
    let contexts: [[UInt8]]

    func opens(with sealer: Sealer) -> Bool {
        contexts.contains { (try? sealer.open(sealed, context: $0, what: "a sealed record")) != nil }
    }

    /// The first sealed record found: a row block, a comment, a layout or a queued job's
    /// staged upload; nil when the store holds none (it is empty).
    static func first(_ database: Database, staging: String?) throws -> SealedProbe? {
        if let block = try database.anyRowBlock() {
            return SealedProbe(sealed: block.data, contexts: [RowBlock.context(sheet: block.sheet, block: block.block)])
        }
        if let comment = try database.anyComment() {
            return SealedProbe(sealed: comment.data, contexts: [Sealer.context("comment", comment.sheet, comment.seq)])
        }
        if let layout = try database.anyLayout() {
            return SealedProbe(sealed: layout.data, contexts: [Sealer.context("layout", layout.sheet)])
        }
        if database.isShared {
            if let piece = try database.anyStagedUploadStart() {
                return stagedBlock(Array(piece.data.prefix(SealedBlockFile.slotSize)), job: piece.job)
            }
        } else if let staging {
            for status in [JobRecord.Status.running, .queued] {
                for job in try database.jobs(in: status) {
                    if let block = firstSlot(of: staging + "/" + job.id + ".sealed"), !block.isEmpty {
                        return stagedBlock(block, job: job.id)
                    }
                }
            }
        }
        return nil
    }

    private static func stagedBlock(_ block: [UInt8], job: String) -> SealedProbe {
        SealedProbe(sealed: block, contexts: [Sealer.context("block", job, 0), Sealer.context("last block", job, 0)])
    }

    /// The first slot of a staged block file (a regular file only, opened without waiting).
    private static func firstSlot(of path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes = [UInt8](repeating: 0, count: SealedBlockFile.slotSize)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Array(bytes.prefix(count)) : nil
    }
}
