#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file whose name came from a workbook or a server (a sheet's name), inside a folder the
/// user named (`convert --all -o DIR`, `export --out DIR`). Such a name never leads outside
/// the folder and never writes into anything but a regular file: the entry is looked at
/// relative to the folder's descriptor without following it (`fstatat`, `AT_SYMLINK_NOFOLLOW`),
/// the file is built under a new name made there (`openat`, `O_EXCL | O_NOFOLLOW`) and renamed
/// over the entry (`renameat`, which replaces a directory entry and never follows it). A
/// symbolic link (dangling or not), a FIFO, a device, a socket or a directory of that name is
/// refused at once, naming the entry and what it is; nothing is opened, so nothing waits.
///
/// A path the user names itself (`convert -o FILE`) keeps `PublishTarget`'s rules: a link given
/// explicitly is followed, a device written through.
package enum FolderEntry {
    /// Why an entry cannot be written: a sentence for a person.
    package struct Refusal: Error {
        package let message: String
    }

    /// What a file of `mode` is, in words ("a FIFO (named pipe)", "a symbolic link", ...).
    package static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: return "a regular file"
        case S_IFDIR: return "a directory"
        case S_IFLNK: return "a symbolic link"
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a regular file"
        }
    }

    /// Opens `folder` (following links: the user named it) as a directory descriptor.
    static func openFolder(_ folder: String) throws(Refusal) -> Int32 {
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw Refusal(message: "cannot open the folder: \(String(cString: strerror(errno)))")
        }
        return descriptor
    }

    /// Refuses `name` in the folder of `descriptor` unless it is nothing yet or a regular file.
    static func check(_ name: String, in descriptor: Int32) throws(Refusal) {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.utf8.contains(0) else {
            throw Refusal(message: "is not a file name inside the folder")
        }
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            guard errno == ENOENT else { throw Refusal(message: "cannot look at it: \(String(cString: strerror(errno)))") }
            return // a new name
        }
        let type = status.st_mode & S_IFMT
        guard type != S_IFREG else { return }
        throw Refusal(message: "is \(kind(status.st_mode)) already; a file named after a sheet is written only "
            + "as a regular file inside the folder (never through a link, a FIFO, a device or a socket): remove it or choose another folder")
    }

    /// Checks `name` in `folder` (see `check(_:in:)`); for a look before any work is done.
    package static func check(_ name: String, inFolder folder: String) throws(Refusal) {
        let descriptor = try openFolder(folder)
        defer { close(descriptor) }
        try check(name, in: descriptor)
    }

    /// Creates a new hidden file `.<name>.sheetport-XXXXXX` (mode 0600) in the folder of
    /// `descriptor`; its name and descriptor.
    static func createTemporary(for name: String, in descriptor: Int32) throws(Refusal) -> (name: String, descriptor: Int32) {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        for _ in 0..<100 {
            let suffix = String((0..<6).map { _ in letters.randomElement()! })
            let temporary = "." + name + ".sheetport-" + suffix
            let file = openat(descriptor, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if file >= 0 { return (temporary, file) }
            guard errno == EEXIST else {
                throw Refusal(message: "cannot create a file beside it: \(String(cString: strerror(errno)))")
            }
        }
        throw Refusal(message: "cannot create a file beside it: no free temporary name")
    }

    /// `folder/name`, as messages show it.
    package static func path(_ name: String, in folder: String) -> String {
        folder.isEmpty ? name : (folder.hasSuffix("/") ? folder + name : folder + "/" + name)
    }
}
