/// Facts about the store itself, by name (`meta`): the sealing key's check value and the data
/// key sealed under each key file that opens the store (`KeyCheck`).
extension Database {
    /// The value named `name`, nil when there is none.
    func metaValue(_ name: String) throws -> [UInt8]? {
        try query("SELECT value FROM meta WHERE name = ?", [.text(name)]).first?.first?.bytes
    }

    /// Sets the value named `name`, replacing one there.
    func setMetaValue(_ value: [UInt8], for name: String) throws {
        try query("INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value", [.text(name), .blob(value)])
    }

    /// Sets the value named `name` unless there is one already (another instance starting at
    /// once on a shared store may have set its own: the first one stays).
    func addMetaValue(_ value: [UInt8], for name: String) throws {
        try query("INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING", [.text(name), .blob(value)])
    }

    /// Deletes the value named `name`; returns whether there was one.
    func deleteMetaValue(_ name: String) throws -> Bool {
        try query("DELETE FROM meta WHERE name = ?", [.text(name)])
        return changes > 0
    }

    /// The recorded key check value, nil when none is recorded yet.
    func recordedKeyCheck() throws -> [UInt8]? {
        try metaValue(KeyCheck.metaName)
    }

    /// Records a key check value unless one is recorded already; returns the one recorded.
    func recordKeyCheck(_ value: [UInt8]) throws -> [UInt8] {
        try addMetaValue(value, for: KeyCheck.metaName)
        return try recordedKeyCheck() ?? value
    }
}
