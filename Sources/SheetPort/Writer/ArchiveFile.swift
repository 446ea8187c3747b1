import CLibZip
#if canImport(Glibc)
import Glibc
#endif

/// The package file as a libzip source that libzip both reads (the previous pass) and
/// writes (the next pass), with file names of our choosing: libzip's own file source
/// writes to a randomly named temporary file, which a signal handler could not find.
/// A pass writes `nextPath`; committing it renames that over `path`.
final class ArchiveFile {
    /// The finished passes.
    let path: String
    /// The pass being written.
    let nextPath: String
    /// The file name used in errors (the destination).
    let name: String
    private var readFD: Int32 = -1
    private var writeFD: Int32 = -1
    private var lastError = zip_error_t()

    init(path: String, nextPath: String, name: String) {
        self.path = path
        self.nextPath = nextPath
        self.name = name
        zip_error_init(&lastError)
    }

    deinit {
        if readFD >= 0 { close(readFD) }
        if writeFD >= 0 { close(writeFD) }
        zip_error_fini(&lastError)
    }

    /// Opens the package for another pass (creating it on the first).
    func openArchive() throws -> OpaquePointer {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_function_create(archiveCallback, Unmanaged.passUnretained(self).toOpaque(), &error) else {
            throw WriterError.io(file: name, message: "libzip: \(String(cString: zip_error_strerror(&error)))")
        }
        guard let archive = zip_open_from_source(source, ZIP_CREATE, &error) else {
            zip_source_free(source)
            throw WriterError.io(file: name, message: "cannot open the staged package: \(String(cString: zip_error_strerror(&error)))")
        }
        return archive
    }

    private func fail(_ code: Int32, _ systemError: Int32 = errno) -> Int64 {
        zip_error_set(&lastError, code, systemError)
        return -1
    }

    fileprivate func handle(_ data: UnsafeMutableRawPointer?, _ length: UInt64, _ command: zip_source_cmd_t) -> Int64 {
        switch command {
        case ZIP_SOURCE_STAT:
            guard let size = fileSize(path) else { return fail(ZIP_ER_READ) } // ENOENT: a new archive
            let zipStatus = data!.assumingMemoryBound(to: zip_stat_t.self)
            zip_stat_init(zipStatus)
            zipStatus.pointee.valid = UInt64(ZIP_STAT_SIZE)
            zipStatus.pointee.size = UInt64(size)
            return Int64(MemoryLayout<zip_stat_t>.size)
        case ZIP_SOURCE_OPEN:
            readFD = open(path, O_RDONLY | O_CLOEXEC)
            return readFD >= 0 ? 0 : fail(ZIP_ER_OPEN)
        case ZIP_SOURCE_READ:
            let count = read(readFD, data, Int(min(length, 1 << 30)))
            return count >= 0 ? Int64(count) : fail(ZIP_ER_READ)
        case ZIP_SOURCE_CLOSE:
            if readFD >= 0 { close(readFD) }
            readFD = -1
            return 0
        case ZIP_SOURCE_SEEK:
            return seek(readFD, data, length, ZIP_ER_SEEK)
        case ZIP_SOURCE_TELL:
            return tell(readFD)
        case ZIP_SOURCE_BEGIN_WRITE:
            writeFD = open(nextPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            return writeFD >= 0 ? 0 : fail(ZIP_ER_TMPOPEN)
        case ZIP_SOURCE_WRITE:
            var written = 0
            while written < Int(length) {
                let count = write(writeFD, data! + written, Int(length) - written)
                guard count > 0 else { return fail(ZIP_ER_WRITE) }
                written += count
            }
            return Int64(written)
        case ZIP_SOURCE_SEEK_WRITE:
            return seek(writeFD, data, length, ZIP_ER_SEEK)
        case ZIP_SOURCE_TELL_WRITE:
            return tell(writeFD)
        case ZIP_SOURCE_COMMIT_WRITE:
            let closed = close(writeFD)
            writeFD = -1
            guard closed == 0 else { return fail(ZIP_ER_WRITE) }
            return rename(nextPath, path) == 0 ? 0 : fail(ZIP_ER_RENAME)
        case ZIP_SOURCE_ROLLBACK_WRITE:
            if writeFD >= 0 { close(writeFD) }
            writeFD = -1
            unlink(nextPath)
            return 0
        case ZIP_SOURCE_REMOVE:
            unlink(path)
            return 0
        case ZIP_SOURCE_ERROR:
            return zip_error_to_data(&lastError, data!, length)
        case ZIP_SOURCE_FREE:
            return 0
        case ZIP_SOURCE_SUPPORTS:
            return commandBitmap([
                ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR,
                ZIP_SOURCE_FREE, ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, ZIP_SOURCE_SUPPORTS,
                ZIP_SOURCE_BEGIN_WRITE, ZIP_SOURCE_COMMIT_WRITE, ZIP_SOURCE_ROLLBACK_WRITE,
                ZIP_SOURCE_WRITE, ZIP_SOURCE_SEEK_WRITE, ZIP_SOURCE_TELL_WRITE, ZIP_SOURCE_REMOVE,
            ])
        default:
            return fail(ZIP_ER_OPNOTSUPP, 0)
        }
    }

    private func tell(_ descriptor: Int32) -> Int64 {
        let offset = lseek(descriptor, 0, SEEK_CUR)
        return offset >= 0 ? Int64(offset) : fail(ZIP_ER_TELL)
    }

    private func seek(_ descriptor: Int32, _ data: UnsafeMutableRawPointer?, _ length: UInt64, _ code: Int32) -> Int64 {
        guard let data, length >= UInt64(MemoryLayout<zip_source_args_seek_t>.size) else { return fail(ZIP_ER_INVAL, 0) }
        let arguments = data.assumingMemoryBound(to: zip_source_args_seek_t.self).pointee
        return lseek(descriptor, off_t(arguments.offset), arguments.whence) >= 0 ? 0 : fail(code)
    }
}

private func archiveCallback(_ userdata: UnsafeMutableRawPointer?, _ data: UnsafeMutableRawPointer?,
                             _ length: UInt64, _ command: zip_source_cmd_t) -> Int64 {
    Unmanaged<ArchiveFile>.fromOpaque(userdata!).takeUnretainedValue().handle(data, length, command)
}

private func fileSize(_ path: String) -> Int64? {
    var status = stat()
    return stat(path, &status) == 0 ? Int64(status.st_size) : nil
}
