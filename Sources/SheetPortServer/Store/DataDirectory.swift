import Foundation

/// The server's data directory (mode 0700): the SQLite database, the sealing key, the
/// staging folder of uploads (each a sealed block file) and the folder where exports are
/// built (sealed too, unlinked once open).
package struct DataDirectory: Sendable {
    /// The directory.
    package let path: String

    /// Creates the directory (mode 0700) and its staging and export folders when missing.
    package init(path: String) throws {
        self.path = path
        for folder in [path, path + "/staging", path + "/exports"] {
            var status = stat()
            if stat(folder, &status) != 0 {
                guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                    throw ServerError.io(path: folder, message: "cannot create: \(String(cString: strerror(errno)))")
                }
            }
            chmod(folder, 0o700)
        }
    }

    /// The database file.
    package var database: String { path + "/sheetport.db" }
    /// Where uploads are staged.
    package var staging: String { path + "/staging" }
    /// Where exports are built.
    package var exports: String { path + "/exports" }

    /// The staged upload of a job.
    package func stagingFile(job: String) -> String { staging + "/" + job + ".sealed" }

    /// Opens a connection to the database, creating the tables.
    package func openDatabase() throws -> Database {
        try StoreLocation.sqlite(path: database).open()
    }

    /// The directory's sealing key file.
    package var keyFile: String { path + "/" + KeyFile.name }

    /// The sealer with the directory's key (created on first use).
    package func sealer() throws -> Sealer { try Sealer(key: KeyFile.loadOrCreate(in: path)) }
}
