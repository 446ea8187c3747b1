import CLibZip
import CZlib
import SheetPortCore

/// One entry's bytes, written on the caller's thread while `zip_close` packs them on another.
///
/// libzip's thread cuts the bytes into blocks that a `ParallelDeflater` deflates on worker
/// threads, and hands libzip the finished deflate stream: the source says it is already
/// deflated, so libzip copies it as it is, and once it has been read the source's stat
/// answers the size and the CRC-32 (combined from the blocks') that libzip writes in the headers.
final class StreamedEntry: EntrySink, @unchecked Sendable {
    /// The part name.
    let name: String
    /// The pipe the caller writes into.
    let pipe = ChunkPipe()
    private let claimsSize: Bool
    private let file: String
    private let level: UInt32
    private let blockSize: Int
    private let deflater: ParallelDeflater
    // Input side, on libzip's thread: the chunk being cut and the block being filled.
    private var chunk: [UInt8] = []
    private var chunkOffset = 0
    private var block: [UInt8] = []
    private var previousBlock: [UInt8]?
    private var lastSubmitted = false
    // Output side: the deflated block being copied to libzip.
    private var output: [UInt8] = []
    private var outputOffset = 0
    private var complete = false
    private var crc: UInt = 0
    private var produced: UInt64 = 0
    private var sourceError = zip_error_t()
    private var thread: PackingThread?
    private var closeMessage: String?
    private var archive: OpaquePointer?

    init(name: String, claimsSize: Bool, file: String, level: UInt32,
         blockSize: Int = ParallelDeflater.defaultBlockSize, workers: Int = ParallelDeflater.defaultWorkers) {
        self.name = name
        self.claimsSize = claimsSize
        self.file = file
        self.level = level
        self.blockSize = max(1, blockSize)
        deflater = ParallelDeflater(level: Int32(level), workers: workers)
        zip_error_init(&sourceError)
    }

    deinit {
        deflater.stop()
        zip_error_fini(&sourceError)
    }

    /// Uncompressed bytes taken from the pipe so far.
    var bytesProduced: UInt64 { produced }

    func makeSource() throws -> OpaquePointer {
        try ZipFunctionSource.make(streamCallback, for: self, file: file)
    }

    func start(closing archive: OpaquePointer) {
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

    private func waitForPass() {
        thread?.join()
        deflater.stop()
    }

    /// libzip's pull: copies from the current deflated block, taking the next one when it is drained.
    fileprivate func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int64 {
        while outputOffset == output.count {
            if complete { return 0 }
            do {
                try submitBlocks()
                let next = try deflater.takeOldest()
                crc = crc32_combine(crc, next.crc, off_t(next.input.count))
                output = next.output
                outputOffset = 0
                complete = next.isLast
            } catch ParallelDeflater.Failure.zlib(let status) {
                zip_error_set(&sourceError, ZIP_ER_ZLIB, status)
                return -1
            } catch {
                zip_error_set(&sourceError, ZIP_ER_CANCELLED, 0)
                return -1
            }
        }
        let length = min(count, output.count - outputOffset)
        output.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + outputOffset, byteCount: length) }
        outputOffset += length
        return Int64(length)
    }

    /// Cuts the caller's chunks into blocks of `blockSize` and submits them until the deflater
    /// holds as many as it may, or the last (possibly empty) block is submitted. The cut depends
    /// on the bytes only, not on how the caller chunked them.
    private func submitBlocks() throws {
        while !lastSubmitted && deflater.inFlight < deflater.capacity {
            if block.capacity < blockSize { block.reserveCapacity(blockSize) }
            var ended = false
            while block.count < blockSize {
                if chunkOffset == chunk.count {
                    if !chunk.isEmpty { pipe.recycle(chunk) }
                    chunk = []
                    chunkOffset = 0
                    guard let next = try pipe.receive() else { ended = true; break }
                    chunk = next
                    continue
                }
                let length = min(blockSize - block.count, chunk.count - chunkOffset)
                chunk.withUnsafeBufferPointer { block.append(contentsOf: $0[chunkOffset..<(chunkOffset + length)]) }
                chunkOffset += length
            }
            produced += UInt64(block.count)
            deflater.submit(block, previous: previousBlock, isLast: ended)
            lastSubmitted = ended
            previousBlock = block
            block = []
        }
    }

    fileprivate func stat(_ data: UnsafeMutableRawPointer) -> Int64 {
        let status = data.assumingMemoryBound(to: zip_stat_t.self)
        zip_stat_init(status)
        status.pointee.valid = UInt64(ZIP_STAT_COMP_METHOD)
        // Already deflated: libzip copies the bytes and does not compress them again.
        status.pointee.comp_method = UInt16(ZIP_CM_DEFLATE)
        if complete {
            // Read to the end: libzip stats again and writes these in the headers.
            status.pointee.valid |= UInt64(ZIP_STAT_SIZE | ZIP_STAT_CRC)
            status.pointee.size = produced
            status.pointee.crc = UInt32(truncatingIfNeeded: crc)
        } else if claimsSize {
            // Claiming a size (its real value is unknown until the end) keeps libzip from
            // writing ZIP64 headers; past 4 GiB the pass then fails, asking for ZIP64.
            status.pointee.valid |= UInt64(ZIP_STAT_SIZE)
            status.pointee.size = 1
        }
        return Int64(MemoryLayout<zip_stat_t>.size)
    }

    /// What libzip's own deflate layer would say: version 2.0 needed, and the level in
    /// general purpose bits 1-2 (fast below 3, maximum above 7), so the headers stay as they were.
    fileprivate func attributes(_ data: UnsafeMutableRawPointer) -> Int64 {
        let attributes = data.assumingMemoryBound(to: zip_file_attributes_t.self)
        attributes.pointee.valid |= UInt64(ZIP_FILE_ATTRIBUTES_VERSION_NEEDED | ZIP_FILE_ATTRIBUTES_GENERAL_PURPOSE_BIT_FLAGS)
        attributes.pointee.version_needed = 20
        attributes.pointee.general_purpose_bit_flags = level < 3 ? 2 << 1 : level > 7 ? 1 << 1 : 0
        attributes.pointee.general_purpose_bit_mask = 0x0006
        return 0
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
    case ZIP_SOURCE_GET_FILE_ATTRIBUTES: return stream.attributes(data!)
    case ZIP_SOURCE_SUPPORTS:
        return commandBitmap([ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
                              ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, ZIP_SOURCE_GET_FILE_ATTRIBUTES, ZIP_SOURCE_SUPPORTS])
    default: return -1
    }
}
