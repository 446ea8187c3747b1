import CLibZip
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds the zip package of a workbook in a staging directory through libzip.
///
/// libzip writes entry data only when an archive is closed, pulling it through sources.
/// A worksheet is streamed in a pass of its own: `zip_close` runs on a second thread and
/// takes the XML that the caller's thread writes, handed over through a `ChunkPipe`, deflated
/// in blocks on worker threads (`ParallelDeflater`), so neither the rows nor an uncompressed
/// copy of the sheet are kept. The small parts
/// that depend on every sheet (workbook, styles, shared strings, content types, ...) are
/// added in a last pass, which copies the deflated sheets across without recompressing.
final class Packager: Packaging {
    /// Deflate level; 6 is zlib's default, as libxlsxwriter uses.
    let compressionLevel: UInt32
    /// Whether streamed entries may grow past 4 GiB (ZIP64 headers on them).
    let zip64: Bool
    /// The size of the blocks a worksheet is cut into for `ParallelDeflater`.
    let deflateBlockSize: Int
    /// How many threads deflate those blocks (the bytes do not depend on it).
    let deflateWorkers: Int
    private let staging: Staging
    private let output: ArchiveFile
    private var finished = false

    /// Entries get a fixed modification time (1980-01-01 00:00), so the same input gives the same bytes.
    private static let dosDate: UInt16 = (0 << 9) | (1 << 5) | 1

    /// A packager for the workbook that will be published at `destination`.
    init(destination: String, compressionLevel: Int, zip64: Bool,
         deflateBlockSize: Int = ParallelDeflater.defaultBlockSize,
         deflateWorkers: Int = ParallelDeflater.defaultWorkers) throws {
        self.compressionLevel = UInt32(max(1, min(9, compressionLevel)))
        self.deflateBlockSize = deflateBlockSize
        self.deflateWorkers = deflateWorkers
        self.zip64 = zip64
        staging = try Staging(destination: destination)
        output = ArchiveFile(path: staging.path(String(describing: PendingFiles.stagedFileNames.0)),
                             nextPath: staging.path(String(describing: PendingFiles.stagedFileNames.1)),
                             name: destination)
    }

    /// Starts a pass that streams the entry `name`; write its bytes to the returned stream
    /// and call `finish()` on it before starting another pass.
    func beginStreamedEntry(_ name: String) throws -> any EntrySink {
        guard !finished else { throw WriterError.finished }
        let archive = try output.openArchive()
        let stream = StreamedEntry(name: name, claimsSize: !zip64, file: output.name, level: compressionLevel,
                                   blockSize: deflateBlockSize, workers: deflateWorkers)
        do {
            let source = try stream.makeSource()
            try add(source, named: name, to: archive)
        } catch {
            zip_discard(archive)
            throw error
        }
        stream.start(closing: archive)
        return stream
    }

    /// The last pass: adds the parts held in memory and publishes the package.
    func finish(parts: [(name: String, bytes: [UInt8])]) throws {
        guard !finished else { throw WriterError.finished }
        finished = true
        let archive = try output.openArchive()
        for part in parts {
            let copy = UnsafeMutableRawPointer.allocate(byteCount: max(part.bytes.count, 1), alignment: 1)
            part.bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            var error = zip_error_t()
            zip_error_init(&error)
            // freep = 1: libzip frees the copy with the source.
            guard let source = zip_source_buffer_create(copy, UInt64(part.bytes.count), 1, &error) else {
                copy.deallocate()
                zip_discard(archive)
                throw WriterError.io(file: output.name, message: "libzip: \(String(cString: zip_error_strerror(&error)))")
            }
            do { try add(source, named: part.name, to: archive) } catch { zip_discard(archive); throw error }
        }
        guard zip_close(archive) == 0 else {
            let message = String(cString: zip_strerror(archive))
            zip_discard(archive)
            throw WriterError.io(file: output.name, message: "cannot write the package: \(message)")
        }
        try staging.publish(output.path)
    }

    /// Removes everything written so far; the destination is left as it was.
    func discard() {
        finished = true
        staging.remove()
    }

    private func add(_ source: OpaquePointer, named name: String, to archive: OpaquePointer) throws {
        let index = zip_file_add(archive, name, source, zip_flags_t(ZIP_FL_ENC_UTF_8))
        guard index >= 0 else {
            zip_source_free(source)
            throw WriterError.io(file: output.name, message: "cannot add \(name): \(String(cString: zip_strerror(archive)))")
        }
        guard zip_set_file_compression(archive, UInt64(index), ZIP_CM_DEFLATE, compressionLevel) == 0,
              zip_file_set_dostime(archive, UInt64(index), 0, Self.dosDate, 0) == 0 else {
            throw WriterError.io(file: output.name, message: "cannot set up \(name): \(String(cString: zip_strerror(archive)))")
        }
    }
}

/// `zip_source_make_command_bitmap`, which is variadic and so not callable from Swift.
package func commandBitmap(_ commands: [zip_source_cmd_t]) -> Int64 {
    commands.reduce(Int64(0)) { $0 | (Int64(1) << Int64($1.rawValue)) }
}
