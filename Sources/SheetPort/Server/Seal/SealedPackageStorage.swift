#if canImport(Glibc)
import Glibc
#endif

/// Package storage in sealed block files, for the writer building an export: libzip's passes,
/// its reads, writes and header patches all go through `SealedBlockFile`, so the workbook is
/// plaintext only in memory, one block at a time.
final class SealedPackageStorage: PackageStorage {
    private let sealer: Sealer
    private let identity: String

    /// Files bound to `identity` (one export).
    init(sealer: Sealer, identity: String) {
        self.sealer = sealer
        self.identity = identity
    }

    func size(_ path: String) -> Int64? {
        try? SealedBlockFile(opening: path, identity: identity, sealer: sealer).size
    }

    func openForReading(_ path: String) -> (any PackageFile)? {
        (try? SealedBlockFile(opening: path, identity: identity, sealer: sealer)).map(SealedPackageFile.init)
    }

    func create(_ path: String) -> (any PackageFile)? {
        (try? SealedBlockFile(creating: path, identity: identity, sealer: sealer)).map(SealedPackageFile.init)
    }
}

/// A sealed block file with a position.
final class SealedPackageFile: PackageFile {
    private let file: SealedBlockFile
    private var position: Int64 = 0

    init(_ file: SealedBlockFile) { self.file = file }

    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        guard let read = try? file.read(into: buffer, count: count, at: position) else { return -1 }
        position += Int64(read)
        return read
    }

    func write(_ bytes: UnsafeRawPointer, count: Int) -> Int {
        guard position <= file.size, (try? file.write(UnsafeRawBufferPointer(start: bytes, count: count), at: position)) != nil else { return -1 }
        position += Int64(count)
        return count
    }

    func seek(to offset: Int64, whence: Int32) -> Bool {
        let base: Int64
        switch whence {
        case SEEK_SET: base = 0
        case SEEK_CUR: base = position
        case SEEK_END: base = file.size
        default: return false
        }
        guard base + offset >= 0 else { return false }
        position = base + offset
        return true
    }

    func tell() -> Int64 { position }

    func close() -> Bool { (try? file.close()) != nil }
}
