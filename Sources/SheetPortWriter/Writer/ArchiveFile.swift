import CLibZip
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
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
    private var reader: PackageFile?
    private var writer: PackageFile?
    private var lastError = zip_error_t()

    init(path: String, nextPath: String, name: String) {
        self.path = path
        self.nextPath = nextPath
        self.name = name
        zip_error_init(&lastError)
    }

    deinit {
        _ = reader?.close()
        _ = writer?.close()
        zip_error_fini(&lastError)
    }

    /// Opens the package for another pass (creating it on the first).
    func openArchive() throws -> OpaquePointer {
        let source = try ZipFunctionSource.make(archiveCallback, for: self, file: name)
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
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
            guard let size = PackageFile.size(path) else { return fail(ZIP_ER_READ) } // ENOENT: a new archive
            let zipStatus = data!.assumingMemoryBound(to: zip_stat_t.self)
            zip_stat_init(zipStatus)
            zipStatus.pointee.valid = UInt64(ZIP_STAT_SIZE)
            zipStatus.pointee.size = UInt64(size)
            return Int64(MemoryLayout<zip_stat_t>.size)
        case ZIP_SOURCE_OPEN:
            reader = PackageFile.openForReading(path)
            return reader != nil ? 0 : fail(ZIP_ER_OPEN)
        case ZIP_SOURCE_READ:
            let count = reader?.read(into: data!, count: Int(min(length, 1 << 30))) ?? -1
            return count >= 0 ? Int64(count) : fail(ZIP_ER_READ)
        case ZIP_SOURCE_CLOSE:
            _ = reader?.close()
            reader = nil
            return 0
        case ZIP_SOURCE_SEEK:
            return seek(reader, data, length, ZIP_ER_SEEK)
        case ZIP_SOURCE_TELL:
            return tell(reader)
        case ZIP_SOURCE_BEGIN_WRITE:
            writer = PackageFile.create(nextPath)
            return writer != nil ? 0 : fail(ZIP_ER_TMPOPEN)
        case ZIP_SOURCE_WRITE:
            let written = writer?.write(data!, count: Int(length)) ?? -1
            return written == Int(length) ? Int64(written) : fail(ZIP_ER_WRITE)
        case ZIP_SOURCE_SEEK_WRITE:
            return seek(writer, data, length, ZIP_ER_SEEK)
        case ZIP_SOURCE_TELL_WRITE:
            return tell(writer)
        case ZIP_SOURCE_COMMIT_WRITE:
            let closed = writer?.close() ?? false
            writer = nil
            guard closed else { return fail(ZIP_ER_WRITE) }
            return rename(nextPath, path) == 0 ? 0 : fail(ZIP_ER_RENAME)
        case ZIP_SOURCE_ROLLBACK_WRITE:
            _ = writer?.close()
            writer = nil
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

    private func tell(_ file: PackageFile?) -> Int64 {
        let offset = file?.tell() ?? -1
        return offset >= 0 ? offset : fail(ZIP_ER_TELL)
    }

    private func seek(_ file: PackageFile?, _ data: UnsafeMutableRawPointer?, _ length: UInt64, _ code: Int32) -> Int64 {
        guard let file, let data, length >= UInt64(MemoryLayout<zip_source_args_seek_t>.size) else { return fail(ZIP_ER_INVAL, 0) }
        let arguments = data.assumingMemoryBound(to: zip_source_args_seek_t.self).pointee
        return file.seek(to: arguments.offset, whence: arguments.whence) ? 0 : fail(code)
    }
}

private func archiveCallback(_ userdata: UnsafeMutableRawPointer?, _ data: UnsafeMutableRawPointer?,
                             _ length: UInt64, _ command: zip_source_cmd_t) -> Int64 {
    Unmanaged<ArchiveFile>.fromOpaque(userdata!).takeUnretainedValue().handle(data, length, command)
}


