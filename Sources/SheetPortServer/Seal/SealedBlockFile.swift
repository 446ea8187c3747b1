#if canImport(Glibc)
import Glibc
#endif

/// A random-access file whose bytes are kept sealed in fixed-size blocks: block `i` of 64 KiB
/// of plaintext is stored at `i * slotSize` as its own sealed record (own nonce), bound to the
/// file's identity, `i`, and whether it is the last block, so blocks cannot be reordered,
/// moved to another file, or cut off the end.
///
/// Sequential writes (an upload streamed in by the HTTP daemon) seal a block when it fills;
/// writes into earlier blocks (libzip patching a local header) unseal, patch and re-seal that
/// block; reads at any offset unseal only the blocks they touch. One block is cached in memory,
/// so memory stays at one block whatever the file size. Plaintext never reaches the disk.
///
/// Not thread-safe: one user at a time.
package final class SealedBlockFile {
    /// Plaintext bytes per block.
    package static let blockSize = 1 << 16
    static let slotSize = blockSize + Sealer.overhead

    /// The file's path.
    package let path: String
    private let sealer: Sealer
    private let identity: String
    private var descriptor: Int32
    /// The plaintext length.
    package private(set) var size: Int64
    private var cachedIndex = -1
    private var cached: [UInt8] = []
    private var cachedDirty = false

    /// Creates (truncating) a sealed file at `path` bound to `identity` (mode 0600).
    package init(creating path: String, identity: String, sealer: Sealer) throws {
        descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw ServerError.io(path: path, message: String(cString: strerror(errno))) }
        self.path = path
        self.sealer = sealer
        self.identity = identity
        size = 0
    }

    /// Opens an existing sealed file bound to `identity`.
    package init(opening path: String, identity: String, sealer: Sealer) throws {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ServerError.io(path: path, message: String(cString: strerror(errno))) }
        self.path = path
        self.sealer = sealer
        self.identity = identity
        var status = stat()
        fstat(descriptor, &status)
        let stored = Int64(status.st_size)
        let slots = stored / Int64(Self.slotSize), rest = stored % Int64(Self.slotSize)
        size = slots * Int64(Self.blockSize) + max(0, rest - Int64(Sealer.overhead))
    }

    deinit { if descriptor >= 0 { Glibc.close(descriptor) } }

    /// Writes `bytes` at `offset` (at most `size`: no holes).
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64) throws {
        precondition(offset <= size, "sealed files have no holes")
        if let last = lastIndex, offset + Int64(bytes.count) > Int64(last + 1) * Int64(Self.blockSize) {
            // The last block stops being the last: it is sealed again, as an inner one.
            try load(last)
            cachedDirty = true
        }
        // The new size first: a block is sealed as the last only if it is the last of the new size.
        size = max(size, offset + Int64(bytes.count))
        var done = 0
        while done < bytes.count {
            let position = offset + Int64(done)
            let index = Int(position / Int64(Self.blockSize))
            let within = Int(position % Int64(Self.blockSize))
            try load(index)
            let count = min(bytes.count - done, Self.blockSize - within)
            if cached.count < within + count { cached.append(contentsOf: repeatElement(0, count: within + count - cached.count)) }
            cached.withUnsafeMutableBytes { ($0.baseAddress! + within).copyMemory(from: bytes.baseAddress! + done, byteCount: count) }
            cachedDirty = true
            done += count
        }
    }

    /// Appends `bytes` at the end.
    package func append(_ bytes: UnsafeRawBufferPointer) throws { try write(bytes, at: size) }

    /// Reads up to `count` bytes at `offset` into `buffer`; returns how many (0 at the end).
    package func read(into buffer: UnsafeMutableRawPointer, count: Int, at offset: Int64) throws -> Int {
        var done = 0
        while done < count, offset + Int64(done) < size {
            let position = offset + Int64(done)
            let index = Int(position / Int64(Self.blockSize))
            let within = Int(position % Int64(Self.blockSize))
            try load(index)
            let length = min(count - done, cached.count - within)
            guard length > 0 else { break }
            cached.withUnsafeBytes { (buffer + done).copyMemory(from: $0.baseAddress! + within, byteCount: length) }
            done += length
        }
        return done
    }

    /// Seals and writes the cached block if it changed, and flushes the file to disk.
    package func flush(sync: Bool = false) throws {
        try storeCached()
        if sync, fsync(descriptor) != 0 { throw ServerError.write(path: path, errno: errno, "cannot flush") }
    }

    /// Flushes and closes the file.
    package func close() throws {
        try storeCached()
        Glibc.close(descriptor)
        descriptor = -1
    }

    private func load(_ index: Int) throws {
        guard index != cachedIndex else { return }
        try storeCached()
        cached = []
        cachedIndex = index
        let slotOffset = off_t(index) * off_t(Self.slotSize)
        var sealed = [UInt8](repeating: 0, count: Self.slotSize)
        let count = sealed.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, Self.slotSize, slotOffset) }
        guard count > 0 else { return } // past the end: a new block
        cached = try sealed.withUnsafeBytes {
            try sealer.open(UnsafeRawBufferPointer(rebasing: $0[..<count]), context: context(index, isLast: index == lastIndex),
                            what: "\(path) block \(index)")
        }
    }

    private func storeCached() throws {
        guard cachedDirty, cachedIndex >= 0 else { return }
        let sealed = sealer.seal(cached, context: context(cachedIndex, isLast: cachedIndex == lastIndex))
        let written = sealed.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(cachedIndex) * off_t(Self.slotSize)) }
        guard written == sealed.count else { throw ServerError.write(path: path, errno: written < 0 ? errno : ENOSPC, "cannot write") }
        cachedDirty = false
    }

    /// The index of the last block, nil when the file is empty.
    private var lastIndex: Int? { size > 0 ? Int((size - 1) / Int64(Self.blockSize)) : nil }

    private func context(_ index: Int, isLast: Bool) -> [UInt8] {
        Sealer.context(isLast ? "last block" : "block", identity, index)
    }
}
