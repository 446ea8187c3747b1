import CLibZip
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Builds the zip package of a workbook in a staging directory through libzip.
///
/// libzip writes entry data only when an archive is closed, pulling it through sources.
/// A worksheet is streamed in a pass of its own: `zip_close` runs on a second thread and
/// deflates the XML that the caller's thread writes, handed over through a `ChunkPipe`,
/// so neither the rows nor an uncompressed copy of the sheet are kept. The small parts
/// that depend on every sheet (workbook, styles, shared strings, content types, ...) are
/// added in a last pass, which copies the deflated sheets across without recompressing.
final class Packager: Packaging {
    /// Deflate level; 6 is zlib's default, as libxlsxwriter uses.
    let compressionLevel: UInt32
    /// Whether streamed entries may grow past 4 GiB (ZIP64 headers on them).
    let zip64: Bool
    private let staging: Staging
    private let output: ArchiveFile
    private var finished = false

    /// Entries get a fixed modification time (1980-01-01 00:00), so the same input gives the same bytes.
    private static let dosDate: UInt16 = (0 << 9) | (1 << 5) | 1

    /// A packager for the workbook that will be published at `destination`.
    init(destination: String, compressionLevel: Int, zip64: Bool) throws {
        self.compressionLevel = UInt32(max(1, min(9, compressionLevel)))
        self.zip64 = zip64
        staging = try Staging(destination: destination)
        output = ArchiveFile(path: staging.path(String(describing: PendingFiles.stagedFileNames.0)),
                             nextPath: staging.path(String(describing: PendingFiles.stagedFileNames.1)),
                             name: destination)
    }

    /// Starts a pass that streams the entry `name`; write its bytes to the returned stream
    /// and call `finish()` on it before starting another pass.
    func beginStreamedEntry(_ name: String) throws -> any EntryStream {
        guard !finished else { throw WriterError.finished }
        let archive = try output.openArchive()
        let stream = StreamedEntry(name: name, claimsSize: !zip64, file: output.name)
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

/// One entry's bytes, written on the caller's thread while `zip_close` deflates them on another.
final class StreamedEntry: EntryStream, @unchecked Sendable {
    /// The part name.
    let name: String
    /// The pipe the caller writes into.
    let pipe = ChunkPipe()
    private let claimsSize: Bool
    private let file: String
    private var current: [UInt8] = []
    private var offset = 0
    private var produced: UInt64 = 0
    private var sourceError = zip_error_t()
    private var thread: PackingThread?
    private var closeMessage: String?
    private var archive: OpaquePointer?

    init(name: String, claimsSize: Bool, file: String) {
        self.name = name
        self.claimsSize = claimsSize
        self.file = file
        zip_error_init(&sourceError)
    }

    deinit { zip_error_fini(&sourceError) }

    /// Bytes handed to libzip so far.
    var bytesProduced: UInt64 { produced }

    fileprivate func makeSource() throws -> OpaquePointer {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_function_create(streamCallback, Unmanaged.passUnretained(self).toOpaque(), &error) else {
            throw WriterError.io(file: file, message: "libzip: \(String(cString: zip_error_strerror(&error)))")
        }
        return source
    }

    fileprivate func start(closing archive: OpaquePointer) {
        self.archive = archive
        thread = PackingThread { [self] in
            guard let archive = self.archive else { return }
            if zip_close(archive) != 0 {
                closeMessage = String(cString: zip_strerror(archive))
                zip_discard(archive)
                pipe.abort()
            }
        }
    }

    /// Ends the entry and waits until libzip has written the pass.
    func finish() throws {
        pipe.finish()
        waitForPass()
        if let closeMessage {
            if claimsSize && produced > UInt64(UInt32.max) { throw WriterError.needsZip64(sheet: name) }
            throw WriterError.io(file: file, message: "cannot write \(name): \(closeMessage)")
        }
    }

    /// Abandons the entry: libzip's pass fails and writes nothing.
    func abort() {
        pipe.abort()
        waitForPass()
    }

    private func waitForPass() { thread?.join() }

    /// libzip's pull: copies from the current chunk, taking the next one when it is drained.
    fileprivate func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int64 {
        while offset == current.count {
            if !current.isEmpty { pipe.recycle(current) }
            current = []
            offset = 0
            do {
                guard let next = try pipe.receive() else { return 0 }
                current = next
            } catch {
                zip_error_set(&sourceError, ZIP_ER_CANCELLED, 0)
                return -1
            }
        }
        let length = min(count, current.count - offset)
        current.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: length) }
        offset += length
        produced += UInt64(length)
        return Int64(length)
    }

    fileprivate func stat(_ data: UnsafeMutableRawPointer) -> Int64 {
        let status = data.assumingMemoryBound(to: zip_stat_t.self)
        zip_stat_init(status)
        status.pointee.valid = UInt64(ZIP_STAT_COMP_METHOD)
        status.pointee.comp_method = UInt16(ZIP_CM_STORE)
        if claimsSize {
            // Claiming a size (its real value is unknown until the end) keeps libzip from
            // writing ZIP64 headers; past 4 GiB the pass then fails, asking for ZIP64.
            status.pointee.valid |= UInt64(ZIP_STAT_SIZE)
            status.pointee.size = 1
        }
        return Int64(MemoryLayout<zip_stat_t>.size)
    }

    fileprivate func error(_ data: UnsafeMutableRawPointer, _ length: UInt64) -> Int64 {
        zip_error_to_data(&sourceError, data, length)
    }
}

private func streamCallback(_ userdata: UnsafeMutableRawPointer?, _ data: UnsafeMutableRawPointer?,
                            _ length: UInt64, _ command: zip_source_cmd_t) -> Int64 {
    let stream = Unmanaged<StreamedEntry>.fromOpaque(userdata!).takeUnretainedValue()
    switch command {
    case ZIP_SOURCE_OPEN, ZIP_SOURCE_CLOSE, ZIP_SOURCE_FREE: return 0
    case ZIP_SOURCE_READ: return stream.read(into: data!, count: Int(min(length, UInt64(Int.max))))
    case ZIP_SOURCE_STAT: return stream.stat(data!)
    case ZIP_SOURCE_ERROR: return stream.error(data!, length)
    case ZIP_SOURCE_SUPPORTS:
        return commandBitmap([ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
                              ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, ZIP_SOURCE_SUPPORTS])
    default: return -1
    }
}

/// `zip_source_make_command_bitmap`, which is variadic and so not callable from Swift.
func commandBitmap(_ commands: [zip_source_cmd_t]) -> Int64 {
    commands.reduce(Int64(0)) { $0 | (Int64(1) << Int64($1.rawValue)) }
}
