import CLibArchive
import SheetPortCore

/// Writes the zip package of a workbook front to back through libarchive, handing the bytes to
/// a sink as they are made: nothing is seeked back, so the first bytes can leave before the
/// last are written (the server streams exports this way). Entries carry data descriptors
/// (their sizes and CRC follow their data), as Excel, LibreOffice and every zip reader accept.
///
/// As with `Packager`, a worksheet is deflated on a second thread while the caller writes its
/// XML, and every entry gets the same time stamp, so the same workbook gives the same bytes
/// (a resumed download relies on it).
final class StreamPackager: Packaging {
    /// Receives the package's bytes in order; throwing stops the package.
    typealias Sink = (UnsafeRawBufferPointer) throws -> Void

    private let archive: OpaquePointer
    private let output: Output
    private let name: String
    private var current: ArchiveEntrySink?
    private var isOpen = true

    /// A package written to `sink`; `name` names it in errors. ZIP64 headers only with `zip64`
    /// (as `Packager`: a worksheet over 4 GiB fails without them).
    init(name: String, compressionLevel: Int, zip64: Bool, sink: @escaping Sink) throws {
        self.name = name
        output = Output(sink)
        guard let archive = archive_write_new() else { throw WriterError.io(file: name, message: "libarchive: out of memory") }
        self.archive = archive
        let level = String(max(1, min(9, compressionLevel)))
        // 64 KiB blocks to the sink, the last one not padded: libarchive pads it with zeros by
        // default, which would put bytes after the zip's end.
        guard archive_write_set_format_zip(archive) == ARCHIVE_OK,
              archive_write_set_bytes_per_block(archive, 64 * 1024) == ARCHIVE_OK,
              archive_write_set_bytes_in_last_block(archive, 1) == ARCHIVE_OK,
              archive_write_set_format_option(archive, "zip", "compression", "deflate") == ARCHIVE_OK,
              archive_write_set_format_option(archive, "zip", "compression-level", level) == ARCHIVE_OK,
              zip64 || archive_write_set_format_option(archive, "zip", "zip64", nil) == ARCHIVE_OK,
              archive_write_open(archive, Unmanaged.passUnretained(output).toOpaque(), nil, outputCallback, nil) == ARCHIVE_OK
        else {
            let message = Self.message(archive)
            archive_write_free(archive)
            throw WriterError.io(file: name, message: "libarchive: \(message)")
        }
    }

    deinit {
        if isOpen { discard() }
        archive_write_free(archive)
    }

    func beginStreamedEntry(_ entryName: String) throws -> any EntrySink {
        guard isOpen, current == nil || current!.isDone else { throw WriterError.finished }
        try writeHeader(entryName, size: nil)
        let stream = ArchiveEntrySink(name: entryName, packager: self)
        current = stream
        stream.start()
        return stream
    }

    func finish(parts: [(name: String, bytes: [UInt8])]) throws {
        guard isOpen else { throw WriterError.finished }
        do {
            for part in parts {
                try writeHeader(part.name, size: part.bytes.count)
                try part.bytes.withUnsafeBytes { try write($0, entry: part.name) }
                try check(archive_write_finish_entry(archive), part.name)
            }
            isOpen = false
            try check(archive_write_close(archive), "the end of the package")
        } catch {
            discard()
            throw error
        }
    }

    func discard() {
        isOpen = false
        current?.abort()
        output.abandon()
    }

    /// Writes bytes of the current entry (from its packing thread, or `finish`).
    fileprivate func write(_ bytes: UnsafeRawBufferPointer, entry: String) throws {
        guard bytes.count > 0 else { return }
        var offset = 0
        while offset < bytes.count {
            let written = archive_write_data(archive, bytes.baseAddress! + offset, bytes.count - offset)
            guard written > 0 else { throw failure(entry) }
            offset += written
        }
    }

    /// Ends the current entry's data.
    fileprivate func finishEntry(_ entry: String) throws {
        try check(archive_write_finish_entry(archive), entry)
    }

    private func writeHeader(_ entryName: String, size: Int?) throws {
        guard let entry = archive_entry_new() else { throw WriterError.io(file: name, message: "libarchive: out of memory") }
        defer { archive_entry_free(entry) }
        archive_entry_set_pathname_utf8(entry, entryName)
        archive_entry_set_filetype(entry, sp_archive_regular_file)
        archive_entry_set_perm(entry, 0o644)
        // Before 1980, which zip's DOS time cannot hold: written as 1980-01-01 00:00 in any time zone.
        archive_entry_set_mtime(entry, 0, 0)
        if let size { archive_entry_set_size(entry, la_int64_t(size)) }
        try check(archive_write_header(archive, entry), entryName)
    }

    private func check(_ status: Int32, _ what: String) throws {
        guard status == ARCHIVE_OK else { throw failure(what) }
    }

    private func failure(_ what: String) -> Error {
        if let stop = output.failure { return stop }
        return WriterError.io(file: name, message: "cannot write \(what): \(Self.message(archive))")
    }

    private static func message(_ archive: OpaquePointer) -> String {
        archive_error_string(archive).map { String(cString: $0) } ?? "libarchive failed"
    }
}

/// The sink behind libarchive's write callback, with the sink's error kept for the caller.
private final class Output {
    let sink: StreamPackager.Sink
    /// The sink's error, when it failed.
    private(set) var failure: (any Error)?
    private var abandoned = false

    init(_ sink: @escaping StreamPackager.Sink) { self.sink = sink }

    /// From now on every write fails, so libarchive writes nothing more.
    func abandon() { abandoned = true }

    func write(_ buffer: UnsafeRawPointer, _ count: Int) -> Int {
        guard !abandoned, failure == nil else { return -1 }
        do {
            try sink(UnsafeRawBufferPointer(start: buffer, count: count))
            return count
        } catch {
            failure = error
            return -1
        }
    }
}

private func outputCallback(_ archive: OpaquePointer?, _ context: UnsafeMutableRawPointer?, _ buffer: UnsafeRawPointer?,
                            _ count: Int) -> la_ssize_t {
    guard let context, let buffer else { return -1 }
    return Unmanaged<Output>.fromOpaque(context).takeUnretainedValue().write(buffer, count)
}

/// A worksheet entry of a `StreamPackager`: its XML arrives through `pipe` and is written to
/// libarchive (which deflates it) on a thread of its own, so both cores work.
private final class ArchiveEntrySink: EntrySink, @unchecked Sendable {
    let pipe = ChunkPipe()
    let name: String
    private unowned let packager: StreamPackager
    private var thread: PackingThread?
    private var failure: (any Error)?
    /// Whether its thread has ended (finished or given up) and been waited for.
    var isDone: Bool { thread?.isJoined ?? false }

    init(name: String, packager: StreamPackager) {
        self.name = name
        self.packager = packager
    }

    func start() {
        thread = PackingThread { [self] in
            do {
                while let chunk = try pipe.receive() {
                    try chunk.withUnsafeBytes { try packager.write($0, entry: name) }
                    pipe.recycle(chunk)
                }
                try packager.finishEntry(name)
            } catch ChunkPipe.Stop.aborted {
                failure = WriterError.io(file: name, message: "abandoned")
            } catch {
                failure = error
                pipe.abort()
            }
        }
    }

    func finish() throws {
        pipe.finish()
        waitForThread()
        if let failure { throw failure }
    }

    func abort() {
        pipe.abort()
        waitForThread()
    }

    private func waitForThread() { thread?.join() }
}
