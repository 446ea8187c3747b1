#if canImport(Glibc)
import Glibc
#endif
import SheetPortCore
import SheetPortReader
import SheetPortWriter

/// The private staging file of one export (Docs/Reference/CLI.md, "sheetport export"): `workbook.xlsx` (mode 0600)
/// in a directory of its own (mode 0700) under `$TMPDIR`, named with our pid so that the next
/// run sweeps it if this process is killed. The download is written here; once complete it is
/// verified with the reader and published to the destination atomically (temporary name in the
/// destination's folder, fsync, rename). `discard()`, deinit, SIGINT and SIGTERM (through
/// `PendingFiles`) remove it, leaving the destination as it was.
package final class ExportStaging {
    /// Where the workbook is published.
    package let destination: String
    /// The staging file.
    package let path: String
    private let staging: Staging
    private var descriptor: Int32
    /// The folder and the name in it, when the name came from the server (`init(entry:in:)`).
    private let entry: (folder: String, name: String)?
    /// Bytes written so far.
    package private(set) var size: Int64 = 0

    /// Creates the staging directory and file for `destination`, a path the user named
    /// (`PublishTarget`'s rules: a link is followed, a device written through).
    package convenience init(destination: String) throws {
        try self.init(destination: destination, entry: nil)
    }

    /// Creates the staging directory and file for the file `name` in `folder`, a name that
    /// came from the server (a sheet's): refused at once, before anything is downloaded, when
    /// `name` is a symbolic link, a FIFO, a device, a socket or a directory in the folder
    /// (`FolderEntry`), and published by a rename relative to the folder.
    package convenience init(entry name: String, in folder: String) throws {
        let destination = FolderEntry.path(name, in: folder)
        do throws(FolderEntry.Refusal) { try FolderEntry.check(name, inFolder: folder) } catch {
            throw ClientError.io(file: destination, message: error.message)
        }
        try self.init(destination: destination, entry: (folder, name))
    }

    private init(destination: String, entry: (folder: String, name: String)?) throws {
        self.destination = destination
        self.entry = entry
        do {
            staging = try Staging(temporaryFor: "export")
        } catch let WriterError.io(file, message) {
            throw ClientError.io(file: file, message: message) // Staging's own reason: errno has moved on
        }
        path = staging.path(String(describing: PendingFiles.stagedFileNames.0))
        descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            staging.remove()
            throw ClientError.io(file: path, message: "cannot create the staging file: \(reason)")
        }
    }

    deinit { discard() }

    /// Appends downloaded bytes.
    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw ClientError.io(file: path, message: "cannot write the download: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
        size += Int64(bytes.count)
    }

    /// Drops what was written (a server that does not resume sends the whole file again).
    package func truncate() throws {
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw ClientError.io(file: path, message: "cannot truncate: \(String(cString: strerror(errno)))")
        }
        size = 0
    }

    /// Opens the download with the reader and reads every worksheet's rows (so a truncated
    /// or corrupt entry shows) within `limits`; throws `ClientError.verificationFailed` naming `sheet`.
    package func verify(sheet: String, limits: ArchiveLimits = ArchiveLimits()) throws {
        do {
            let workbook = try Workbook(path: path, limits: limits)
            guard workbook.firstWorksheet != nil else {
                throw ClientError.verificationFailed(sheet: sheet, reason: "it has no worksheet")
            }
            for candidate in workbook.sheets where candidate.kind == .worksheet {
                let rows = try workbook.rows(of: candidate)
                while try rows.nextRow() != nil {}
            }
        } catch let error as ReaderError {
            throw ClientError.verificationFailed(sheet: sheet, reason: error.description)
        }
    }

    /// Copies the staging file to a temporary name beside the destination, flushes it, renames
    /// it into place and removes the staging directory.
    package func publish() throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw ClientError.io(file: path, message: "cannot rewind: \(String(cString: strerror(errno)))")
        }
        let file = try entry.map { try AtomicFile(entry: $0.name, in: $0.folder) } ?? AtomicFile(destination: destination)
        do {
            try ByteOutput(descriptor: file.descriptor, name: destination).copy(from: descriptor, name: path)
            try file.publish()
        } catch {
            file.discard()
            throw error
        }
        discard()
    }

    /// Removes the staging file and directory; the destination is left as it was.
    package func discard() {
        if descriptor >= 0 { close(descriptor); descriptor = -1 }
        staging.remove()
    }
}
