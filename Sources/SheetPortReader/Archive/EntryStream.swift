import Foundation
import CLibZip

extension ZipArchive {
    /// An open entry, read in chunks of 64 KiB (the last one shorter) with the limits checked
    /// on every chunk.
    ///
    /// A plain deflated entry is read raw through libzip (which keeps the container, the
    /// encryption refusal and the window of the entry's compressed bytes) and inflated by
    /// ISA-L. Anything but a clean end with the directory's CRC-32 and size hands the entry to
    /// libzip's zlib: it inflates the entry again from its start, drops the bytes already
    /// handed out and goes on from there, so the error, its code and its message are zlib's,
    /// exactly as when zlib reads alone (`SHEETPORT_INFLATE=zlib`), and damaged data costs a
    /// second inflate only up to the damage.
    public final class EntryStream {
        private let archive: ZipArchive
        private let entry: Entry
        /// libzip's handle: raw compressed bytes while `isal` is set, inflated bytes otherwise;
        /// nil only when reopening it failed.
        private var file: OpaquePointer?
        private var isal: IsalInflater?
        /// Inflated bytes zlib still has to drop after a hand-over.
        private var skipping: Int64 = 0
        private let buffer = UnsafeMutableRawPointer.allocate(byteCount: ZipArchive.chunkSize, alignment: 16)
        private var produced: Int64 = 0
        /// Whether ISA-L inflated the entry (so far), and whether it handed it to zlib (for tests).
        var inflatesWithISAL: Bool { isal != nil }
        private(set) var handedOver = false

        init(archive: ZipArchive, entry: Entry, file: OpaquePointer, isal: IsalInflater?) {
            self.archive = archive
            self.entry = entry
            self.file = file
            self.isal = isal
        }

        deinit {
            archive.access.lock()
            if let file { zip_fclose(file) }
            archive.access.unlock()
            buffer.deallocate()
        }

        /// Inflated bytes read so far.
        public var bytesRead: Int64 { produced }

        /// Inflates the next chunk and hands it to `consume`; false at the end of the entry.
        public func read(_ consume: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
            let chunk = try nextChunk()
            if chunk.isEmpty { return false }
            archive.access.lock()
            produced += Int64(chunk.count)
            archive.inflatedTotal += Int64(chunk.count)
            let total = archive.inflatedTotal
            archive.access.unlock()
            try archive.checkLimits(entry: entry, produced: produced, total: total)
            try consume(chunk)
            return true
        }

        /// The next chunk (ISA-L's output, or `buffer` filled by zlib); empty at the end.
        private func nextChunk() throws -> UnsafeRawBufferPointer {
            if let isal, let file {
                let archive = self.archive
                let chunk = isal.next(ZipArchive.chunkSize) { input, capacity in
                    archive.access.lock()
                    defer { archive.access.unlock() }
                    return Int(zip_fread(file, input, zip_uint64_t(capacity)))
                }
                if let chunk { return chunk }
                try handOverToZlib()
            }
            while skipping > 0 {
                let count = try zlibRead(Int(min(skipping, Int64(ZipArchive.chunkSize))))
                // zlib ends (soundly) before ISA-L did: nothing more to hand out.
                if count == 0 { skipping = 0; return UnsafeRawBufferPointer(start: buffer, count: 0) }
                skipping -= Int64(count)
            }
            return UnsafeRawBufferPointer(start: buffer, count: try zlibRead(ZipArchive.chunkSize))
        }

        /// Reopens the entry for libzip to inflate, to drop the bytes already handed out.
        private func handOverToZlib() throws {
            archive.access.lock()
            defer { archive.access.unlock() }
            isal = nil
            handedOver = true
            if let file { zip_fclose(file) }
            file = zip_fopen_index(archive.handle, entry.index, 0)
            guard file != nil else { throw archive.failure(zip_get_error(archive.handle), part: entry.name) }
            skipping = produced
        }

        /// libzip's next `count` inflated bytes at most.
        private func zlibRead(_ count: Int) throws -> Int {
            archive.access.lock()
            defer { archive.access.unlock() }
            guard let file else { throw archive.failure(nil, part: entry.name) }
            let read = zip_fread(file, buffer, zip_uint64_t(count))
            if read < 0 { throw archive.failure(zip_file_get_error(file), part: entry.name) }
            return Int(read)
        }
    }
}
