#if canImport(CISAL)
import CISAL
import SheetPortCore

/// Inflates one entry's raw deflate stream with ISA-L (igzip), about twice as fast as zlib,
/// computing the CRC-32 as it goes and checking it and the size against the central directory.
///
/// It only tells sound data from unsound: every anomaly (an inflate error, input that ends
/// before the final block, a read error, a CRC or size that differs) is `nil`, and the caller
/// hands the entry to libzip's zlib, whose verdict and error message are the reader's (see
/// `ZipArchive.EntryStream`). Not thread-safe.
final class IsalInflater {
    private let state = UnsafeMutablePointer<inflate_state>.allocate(capacity: 1)
    private let input = UnsafeMutableRawPointer.allocate(byteCount: IsalInflater.inputSize, alignment: 16)
    /// Inflated bytes, served in chunks: `output[served..<filled]` is still to hand out.
    private let output = UnsafeMutableRawPointer.allocate(byteCount: IsalInflater.outputSize, alignment: 16)
    private var served = 0
    private var filled = 0
    private let expectedCRC: UInt32
    private let expectedSize: Int64
    private var inflated: Int64 = 0
    private var inputEnded = false
    private var finished = false

    /// Compressed bytes read at a time.
    static let inputSize = 1 << 16
    /// Inflated bytes made at a time: igzip saves its 32 KiB history at the end of every call,
    /// so filling 256 KiB a call, not one 64 KiB chunk, saves three copies in four.
    static let outputSize = 1 << 18

    /// True: ISA-L is linked (it is optional: Darwin builds go without it).
    static let isAvailable = true

    /// An inflater for a stream whose directory entry declares `crc` and `size`.
    init(crc: UInt32, size: Int64) {
        expectedCRC = crc
        expectedSize = size
        isal_inflate_init(state)
        // Raw deflate (no gzip header or trailer), with the gzip CRC-32 of the output kept.
        state.pointee.crc_flag = UInt32(ISAL_GZIP_NO_HDR)
    }

    deinit {
        state.deallocate()
        input.deallocate()
        output.deallocate()
    }

    /// The next `count` inflated bytes at most (fewer only at the end of the stream), valid
    /// until the next call; empty once the stream has ended with the declared CRC and size,
    /// nil when the stream is not sound. `read` fills a buffer with compressed bytes: their
    /// count, 0 at the end, negative on an error.
    func next(_ count: Int, read: (UnsafeMutableRawPointer, Int) -> Int) -> UnsafeRawBufferPointer? {
        if served == filled {
            guard let made = inflate(into: output, capacity: Self.outputSize, read: read) else { return nil }
            served = 0
            filled = made
        }
        let chunk = UnsafeRawBufferPointer(start: output + served, count: min(count, filled - served))
        served += chunk.count
        return chunk
    }

    /// Fills `output` with up to `capacity` inflated bytes, short only at the end of the
    /// stream; 0 once the stream has ended with the declared CRC and size, nil when it is not sound.
    private func inflate(into output: UnsafeMutableRawPointer, capacity: Int,
                         read: (UnsafeMutableRawPointer, Int) -> Int) -> Int? {
        guard !finished else { return 0 }
        state.pointee.next_out = output.assumingMemoryBound(to: UInt8.self)
        state.pointee.avail_out = UInt32(capacity)
        while state.pointee.avail_out > 0 && state.pointee.block_state != ISAL_BLOCK_FINISH {
            if state.pointee.avail_in == 0 && !inputEnded {
                let count = read(input, Self.inputSize)
                guard count >= 0 else { return nil }
                if count == 0 { inputEnded = true }
                state.pointee.next_in = input.assumingMemoryBound(to: UInt8.self)
                state.pointee.avail_in = UInt32(count)
            }
            let before = (state.pointee.avail_in, state.pointee.avail_out)
            guard isal_inflate(state) == ISAL_DECOMP_OK else { return nil }
            // No progress (there was input, or there will be no more): the stream ended
            // before its final block, or igzip is stuck; either way zlib decides.
            if before == (state.pointee.avail_in, state.pointee.avail_out) && state.pointee.block_state != ISAL_BLOCK_FINISH {
                return nil
            }
        }
        let produced = capacity - Int(state.pointee.avail_out)
        inflated += Int64(produced)
        if state.pointee.block_state == ISAL_BLOCK_FINISH {
            finished = true
            guard state.pointee.crc == expectedCRC && inflated == expectedSize else { return nil }
        }
        return produced
    }
}

#else
/// Where ISA-L is not built (Darwin), there is no ISA-L inflater: every entry is inflated by
/// libzip's zlib (`ZipArchive.Inflater.isal` then never makes one).
final class IsalInflater {
    /// False: no ISA-L here.
    static let isAvailable = false

    init(crc: UInt32, size: Int64) {}

    func next(_ count: Int, read: (UnsafeMutableRawPointer, Int) -> Int) -> UnsafeRawBufferPointer? { nil }
}
#endif
