import CLibZip
#if canImport(Glibc)
import Glibc
#endif
import SheetPortWriter

/// A read-only libzip source over a `SealedBlockFile`: libzip seeks and reads, and only the
/// blocks it touches are unsealed, in memory. The importer opens a staged upload through it.
package final class SealedZipSource {
    private let file: SealedBlockFile
    private var position: Int64 = 0
    private var lastError = zip_error_t()

    /// A source over `file`.
    package init(file: SealedBlockFile) {
        self.file = file
        zip_error_init(&lastError)
    }

    deinit { zip_error_fini(&lastError) }

    /// A new `zip_source_t` reading this file; it keeps this object alive until libzip frees it.
    package func makeSource() throws -> OpaquePointer {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        let context = Unmanaged.passRetained(self).toOpaque()
        guard let source = zip_source_function_create(sealedSourceCallback, context, &error) else {
            Unmanaged<SealedZipSource>.fromOpaque(context).release()
            throw ServerError.io(path: file.path, message: String(cString: zip_error_strerror(&error)))
        }
        return source
    }

    private func fail(_ code: Int32) -> Int64 {
        zip_error_set(&lastError, code, 0)
        return -1
    }

    fileprivate func handle(_ data: UnsafeMutableRawPointer?, _ length: UInt64, _ command: zip_source_cmd_t) -> Int64 {
        switch command {
        case ZIP_SOURCE_OPEN:
            position = 0
            return 0
        case ZIP_SOURCE_READ:
            do {
                let count = try file.read(into: data!, count: Int(min(length, 1 << 30)), at: position)
                position += Int64(count)
                return Int64(count)
            } catch {
                return fail(ZIP_ER_READ)
            }
        case ZIP_SOURCE_CLOSE:
            return 0
        case ZIP_SOURCE_STAT:
            let status = data!.assumingMemoryBound(to: zip_stat_t.self)
            zip_stat_init(status)
            status.pointee.valid = UInt64(ZIP_STAT_SIZE)
            status.pointee.size = UInt64(file.size)
            return Int64(MemoryLayout<zip_stat_t>.size)
        case ZIP_SOURCE_SEEK:
            let target = zip_source_seek_compute_offset(UInt64(position), UInt64(file.size), data, length, &lastError)
            guard target >= 0 else { return -1 }
            position = target
            return 0
        case ZIP_SOURCE_TELL:
            return position
        case ZIP_SOURCE_ERROR:
            return zip_error_to_data(&lastError, data!, length)
        case ZIP_SOURCE_FREE:
            Unmanaged.passUnretained(self).release()
            return 0
        case ZIP_SOURCE_SUPPORTS:
            return commandBitmap([ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
                                  ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL,
                                  ZIP_SOURCE_SUPPORTS])
        default:
            return fail(ZIP_ER_OPNOTSUPP)
        }
    }
}

private func sealedSourceCallback(_ userdata: UnsafeMutableRawPointer?, _ data: UnsafeMutableRawPointer?,
                                  _ length: UInt64, _ command: zip_source_cmd_t) -> Int64 {
    Unmanaged<SealedZipSource>.fromOpaque(userdata!).takeUnretainedValue().handle(data, length, command)
}
