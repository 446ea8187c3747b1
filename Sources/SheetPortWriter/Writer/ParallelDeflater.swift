import CZlib
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// Deflates one stream in blocks on worker threads, pigz's way, so that zlib's level 6 is
/// no longer bound to one core.
///
/// Each block is raw deflate (no header) primed with the last 32 KiB of the block before it
/// as dictionary, so it compresses as well as one stream would; every block but the last
/// ends with `Z_SYNC_FLUSH` (byte-aligned, not final) and the last with `Z_FINISH`, so the
/// blocks' outputs laid end to end are one valid deflate stream. The output depends only on
/// the bytes and the block size, never on timing: the same input gives the same bytes.
/// Submitted blocks are bounded by the caller (`capacity`), so memory stays flat. The workers
/// hold the deflater until `stop()`, which its owner must call.
final class ParallelDeflater: @unchecked Sendable {
    /// One block: its input, and once a worker has deflated it, its output and CRC-32.
    final class Block: @unchecked Sendable {
        /// The uncompressed bytes.
        let input: [UInt8]
        /// The block before it (its last 32 KiB prime the compressor), nil for the first.
        fileprivate let previous: [UInt8]?
        /// Whether this block ends the stream (`Z_FINISH`).
        let isLast: Bool
        /// The deflated bytes, set by a worker.
        fileprivate(set) var output: [UInt8] = []
        /// CRC-32 of `input`.
        fileprivate(set) var crc: UInt = 0
        /// zlib's status when deflating failed.
        fileprivate var failure: Int32?
        fileprivate var done = false

        fileprivate init(input: [UInt8], previous: [UInt8]?, isLast: Bool) {
            self.input = input
            self.previous = previous
            self.isLast = isLast
        }
    }

    /// Why a block could not be deflated.
    enum Failure: Error { case zlib(Int32), stopped }

    /// 128 KiB, pigz's block size: large enough that the dictionary priming and the flush
    /// marker (a few bytes a block) cost little, small enough to spread a sheet over cores.
    static let defaultBlockSize = 128 * 1024
    /// zlib's window: the most a block can refer back into the one before it.
    static let dictionarySize = 32 * 1024

    /// How many blocks may be submitted and not yet taken.
    let capacity: Int
    private let level: Int32
    private let condition = NSCondition()
    private var waiting: [Block] = []
    private var inOrder: [Block] = []
    private var stopping = false
    private var workers: [PackingThread] = []

    /// Workers for a machine of this many cores: at least two, so that deflating overlaps
    /// the thread that writes the XML even on one core's share.
    static var defaultWorkers: Int { max(2, sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// Starts `workers` threads deflating at `level` (1 to 9).
    init(level: Int32, workers: Int = ParallelDeflater.defaultWorkers) {
        self.level = level
        let count = max(1, workers)
        capacity = 2 * count + 1
        for _ in 0..<count { self.workers.append(PackingThread { [self] in work() }) }
    }

    /// The number of blocks submitted and not yet taken.
    var inFlight: Int {
        condition.lock()
        defer { condition.unlock() }
        return inOrder.count
    }

    /// Queues a block for a worker; `previous` is the block before it in the stream.
    func submit(_ input: [UInt8], previous: [UInt8]?, isLast: Bool) {
        let block = Block(input: input, previous: previous, isLast: isLast)
        condition.lock()
        inOrder.append(block)
        waiting.append(block)
        condition.broadcast()
        condition.unlock()
    }

    /// The oldest submitted block once it is deflated; waits for it. Throws when it failed.
    func takeOldest() throws -> Block {
        condition.lock()
        defer { condition.unlock() }
        guard !inOrder.isEmpty else { throw Failure.stopped }
        while !inOrder[0].done && !stopping { condition.wait() }
        guard !stopping || inOrder[0].done else { throw Failure.stopped }
        let block = inOrder.removeFirst()
        if let failure = block.failure { throw Failure.zlib(failure) }
        return block
    }

    /// Ends the workers (a block being deflated is finished first); idempotent.
    func stop() {
        condition.withLock { stopping = true; condition.broadcast() }
        for worker in workers { worker.join() }
    }

    private func work() {
        var stream = z_stream()
        // memLevel 8, zlib's default (libxlsxwriter's too): on worksheet XML at level 6 it files
        // within 0.02 % of libzip's memLevel 9 in about 7 % fewer instructions.
        let initStatus = deflateInit2_(&stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY,
                                       zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        defer { if initStatus == Z_OK { deflateEnd(&stream) } }
        while let block = next() {
            if initStatus == Z_OK {
                Self.deflate(block, with: &stream)
            } else {
                block.failure = initStatus
            }
            condition.lock()
            block.done = true
            condition.broadcast()
            condition.unlock()
        }
    }

    private func next() -> Block? {
        condition.lock()
        defer { condition.unlock() }
        while waiting.isEmpty && !stopping { condition.wait() }
        guard !stopping else { return nil }
        // At most `capacity` blocks wait, so taking the first is cheap, and a taken block is
        // no longer held here: its bytes are freed as soon as it has been written.
        let block = waiting.removeFirst()
        return block
    }

    /// Deflates one block with a reset stream, so its bytes depend only on its input and dictionary.
    private static func deflate(_ block: Block, with stream: inout z_stream) {
        var status = deflateReset(&stream)
        if status == Z_OK, let previous = block.previous, !previous.isEmpty {
            let size = min(previous.count, dictionarySize)
            status = previous.withUnsafeBufferPointer {
                deflateSetDictionary(&stream, $0.baseAddress! + ($0.count - size), UInt32(size))
            }
        }
        guard status == Z_OK else { block.failure = status; return }
        let flush = block.isLast ? Z_FINISH : Z_SYNC_FLUSH
        // deflateBound covers the data; the slack covers the flush marker and the final block.
        let bound = Int(deflateBound(&stream, UInt(block.input.count))) + 64
        // Not zero-filled: zlib writes what is kept, and the rest is cut off below.
        var output = [UInt8](unsafeUninitializedCapacity: bound) { _, count in count = bound }
        var produced = 0
        block.input.withUnsafeBufferPointer { input in
            stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.avail_in = UInt32(input.count)
            while true {
                if produced == output.count { output += repeatElement(0, count: output.count) }
                output.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress! + produced
                    stream.avail_out = UInt32(out.count - produced)
                    status = CZlib.deflate(&stream, flush)
                    produced = out.count - Int(stream.avail_out)
                }
                // Z_FINISH is done at Z_STREAM_END; a flush is done once output space is left over
                // (Z_BUF_ERROR: called again with nothing left to flush).
                if block.isLast ? status != Z_OK : (status != Z_OK || stream.avail_out != 0) { break }
            }
        }
        let succeeded = block.isLast ? status == Z_STREAM_END : (status == Z_OK || status == Z_BUF_ERROR)
        guard succeeded else { block.failure = status; return }
        output.removeSubrange(produced...)
        block.output = output
        block.crc = block.input.withUnsafeBufferPointer { crc32_z(0, $0.baseAddress, $0.count) }
    }
}
