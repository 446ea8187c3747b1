import CLibZip
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SheetPortCore

/// A read-only OOXML package: zip entries by part name, inflated in chunks (ISA-L for deflated
/// entries, libzip's zlib otherwise) with the `ArchiveLimits` enforced while inflating.
///
/// Not thread-safe: one archive is read by one thread at a time.
public final class ZipArchive {
    /// One zip entry.
    public struct Entry: Sendable {
        /// libzip's index of the entry.
        public let index: UInt64
        /// The entry name as stored (separators and case untouched).
        public let name: String
        /// Declared inflated size in bytes.
        public let size: Int64
        /// Declared compressed size in bytes.
        public let compressedSize: Int64
        /// The central directory's CRC-32, if it has one.
        let crc: UInt32?
        /// The compression method (`ZIP_CM_*`).
        let method: Int32
        /// The encryption method (`ZIP_EM_*`).
        let encryption: Int32
    }

    /// What inflates a deflated entry.
    enum Inflater: Sendable {
        /// ISA-L, handing the entry to zlib on anything but sound data (the default).
        case isal
        /// libzip's zlib alone.
        case zlib

        /// `SHEETPORT_INFLATE=zlib` selects zlib, to compare the two; any other value, ISA-L.
        init(environment value: String?) { self = value == "zlib" ? .zlib : .isal }

        /// The inflater the environment selects.
        static let standard = Inflater(environment: ProcessInfo.processInfo.environment["SHEETPORT_INFLATE"])
    }

    /// The file name used in errors.
    public let file: String
    /// The limits in force.
    public let limits: ArchiveLimits
    /// Every entry, in central-directory order.
    public private(set) var entries: [Entry] = []
    /// Names that occur more than once once case and separators are folded.
    public private(set) var duplicateNames: [String] = []

    /// libzip's archive; guarded by `access` once open.
    let handle: OpaquePointer
    private var entryByKey: [String: Int] = [:]
    /// Bytes inflated from all entries so far (the total limit); guarded by `access`.
    var inflatedTotal: Int64 = 0
    /// libzip's archive is not thread-safe: a worksheet may inflate on a `BackgroundInflater`
    /// thread while the caller reads another part, so every use of `handle` after opening
    /// holds this lock.
    let access = NSLock()
    static let chunkSize = 1 << 16
    /// What inflates deflated entries; tests set `.zlib` to compare the two.
    var inflater: Inflater = .standard

    /// Opens the package at `path`.
    public convenience init(path: String, limits: ArchiveLimits = ArchiveLimits()) throws {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw ReaderError(.io, file: path, "cannot open: \(String(cString: strerror(errno)))")
        }
        guard (status.st_mode & S_IFMT) != S_IFDIR else {
            throw ReaderError(.io, file: path, "is a directory, not a workbook")
        }
        let prefix = try Self.rejectCompoundFile(path: path)
        var code: Int32 = 0
        guard let handle = zip_open(path, ZIP_RDONLY, &code) else {
            throw Self.openError(code: code, file: path, prefix: prefix)
        }
        try self.init(handle: handle, file: path, limits: limits)
    }

    /// Opens a package held in memory (standard input, for one); `name` is used in errors.
    public convenience init(bytes: [UInt8], name: String, limits: ArchiveLimits = ArchiveLimits()) throws {
        try Self.rejectCompoundFile(prefix: bytes.prefix(8), name: name) { () throws(CompoundFile.ReadError) in try CompoundFile(bytes: bytes) }
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        // libzip keeps no buffer of length 0, so it would never free the copy (found by the fuzzer).
        guard !bytes.isEmpty else { throw ReaderError(.notAZip, file: name, "an empty file, not an OOXML workbook") }
        // libzip frees the copy when the source is released.
        let copy = malloc(bytes.count)!
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        guard let source = zip_source_buffer_create(copy, zip_uint64_t(bytes.count), 1, &error) else {
            free(copy)
            throw ReaderError(.io, file: name, String(cString: zip_error_strerror(&error)))
        }
        guard let handle = zip_open_from_source(source, ZIP_RDONLY, &error) else {
            zip_source_free(source)
            throw Self.openError(code: zip_error_code_zip(&error), file: name, prefix: Array(bytes.prefix(4)))
        }
        try self.init(handle: handle, file: name, limits: limits)
    }

    /// Opens a package from a libzip source of the caller's (a `zip_source_t`, for instance one
    /// that decrypts a sealed file on demand); the archive takes ownership of `source`, also when
    /// this throws. Compound File containers are not told apart here: check the first bytes
    /// first (`CompoundFile.signature`) and open those with `init(bytes:name:limits:)`.
    /// `prefix`, the source's first bytes, tells a truncated zip from something else.
    package convenience init(source: OpaquePointer, name: String, prefix: [UInt8] = [], limits: ArchiveLimits = ArchiveLimits()) throws {
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let handle = zip_open_from_source(source, ZIP_RDONLY, &error) else {
            zip_source_free(source)
            throw Self.openError(code: zip_error_code_zip(&error), file: name, prefix: prefix)
        }
        try self.init(handle: handle, file: name, limits: limits)
    }

    private init(handle: OpaquePointer, file: String, limits: ArchiveLimits) throws {
        self.handle = handle
        self.file = file
        self.limits = limits
        let count = zip_get_num_entries(handle, 0)
        guard count <= limits.maxEntries else {
            // No zip_discard here: every stored property is set, so deinit runs and discards it
            // (discarding twice crashed on packages with too many entries).
            throw ReaderError(.zipBomb, file: file, "\(count) zip entries, over the limit of \(limits.maxEntries)")
        }
        for index in 0..<UInt64(max(count, 0)) {
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            guard zip_stat_index(handle, index, 0, &stat) == 0, let cName = stat.name else { continue }
            let entry = Entry(index: index, name: String(cString: cName),
                              size: Int64(stat.size), compressedSize: Int64(stat.comp_size),
                              crc: stat.valid & zip_uint64_t(ZIP_STAT_CRC) != 0 ? stat.crc : nil,
                              method: Int32(stat.comp_method), encryption: Int32(stat.encryption_method))
            let key = PartName.key(entry.name)
            if entryByKey[key] == nil {
                entryByKey[key] = entries.count
            } else {
                duplicateNames.append(entry.name)
            }
            entries.append(entry)
        }
    }

    deinit { zip_discard(handle) }

    /// The entry for a part name, matched without regard to case or separators.
    public func entry(named part: String) -> Entry? {
        entryByKey[PartName.key(part)].map { entries[$0] }
    }

    /// Whether the package has a part of that name.
    public func contains(_ part: String) -> Bool { entry(named: part) != nil }

    /// Inflates `entry` and hands its bytes to `consume` in chunks of at most 64 KiB,
    /// enforcing the entry size, total size and expansion-ratio limits as it goes.
    public func read(_ entry: Entry, _ consume: (UnsafeRawBufferPointer) throws -> Void) throws {
        let stream = try stream(entry)
        while try stream.read(consume) {}
    }

    /// Runs `body`, which parses `entry`; when it fails on the part's content (not well-formed
    /// XML, a value out of range, ...), the entry is read through to its end, and damage to its
    /// compressed data found there (an inflate error, a CRC mismatch: `corrupt-zip`) is thrown
    /// instead. A flipped byte usually breaks the XML before the CRC, checked only at the end of
    /// the entry, can tell; the damage is the cause and the parse error its symptom.
    func parsing<Result>(_ entry: Entry, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as ReaderError where ![.corruptZip, .zipBomb, .io, .encryptedWorkbook].contains(error.code) {
            throw damage(of: entry) ?? error
        }
    }

    /// The `corrupt-zip` error reading `entry` to its end gives, or nil when its compressed
    /// data is sound (the entry and total limits still bound the read).
    func damage(of entry: Entry) -> ReaderError? {
        do {
            let stream = try stream(entry)
            while try stream.read({ _ in }) {}
        } catch let error as ReaderError where error.code == .corruptZip {
            return error
        } catch {}
        return nil
    }

    /// Opens `entry` for reading chunk by chunk: a plain deflated entry is read raw and inflated
    /// by ISA-L (unless `inflater` is `.zlib`), anything else inflated by libzip.
    public func stream(_ entry: Entry) throws -> EntryStream {
        access.lock()
        defer { access.unlock() }
        if inflater == .isal, IsalInflater.isAvailable, entry.method == ZIP_CM_DEFLATE, entry.encryption == ZIP_EM_NONE, let crc = entry.crc,
           let raw = zip_fopen_index(handle, entry.index, zip_flags_t(ZIP_FL_COMPRESSED)) {
            return EntryStream(archive: self, entry: entry, file: raw, isal: IsalInflater(crc: crc, size: entry.size))
        }
        // Also when the raw open failed: libzip's own open then fails, or not, as it always did.
        guard let zipFile = zip_fopen_index(handle, entry.index, 0) else {
            throw failure(zip_get_error(handle), part: entry.name)
        }
        return EntryStream(archive: self, entry: entry, file: zipFile, isal: nil)
    }

    func checkLimits(entry: Entry, produced: Int64, total: Int64) throws {
        if produced > limits.maxEntrySize {
            throw ReaderError(.zipBomb, file: file, part: entry.name,
                              "inflates past the entry limit of \(limits.maxEntrySize) bytes")
        }
        if total > limits.maxTotalSize {
            throw ReaderError(.zipBomb, file: file, part: entry.name,
                              "the package inflates past the total limit of \(limits.maxTotalSize) bytes")
        }
        if produced > limits.ratioGraceSize,
           Double(produced) > limits.maxExpansionRatio * Double(max(entry.compressedSize, 1)) {
            throw ReaderError(.zipBomb, file: file, part: entry.name,
                              "expands more than \(Int(limits.maxExpansionRatio)) times its compressed size, past \(limits.ratioGraceSize >> 20) MiB")
        }
    }

    func failure(_ error: UnsafeMutablePointer<zip_error_t>?, part: String) -> ReaderError {
        guard let error else { return ReaderError(.corruptZip, file: file, part: part, "unreadable entry") }
        let message = String(cString: zip_error_strerror(error))
        switch zip_error_code_zip(error) {
        case ZIP_ER_READ, ZIP_ER_SEEK, ZIP_ER_MEMORY:
            return ReaderError(.io, file: file, part: part, message)
        case ZIP_ER_NOPASSWD, ZIP_ER_ENCRNOTSUPP:
            return ReaderError(.encryptedWorkbook, file: file, part: part, "the zip entry is encrypted")
        case ZIP_ER_CRC:
            return ReaderError(.corruptZip, file: file, part: part, "damaged: its data does not match its CRC-32 checksum")
        case ZIP_ER_ZLIB, ZIP_ER_COMPRESSED_DATA:
            return ReaderError(.corruptZip, file: file, part: part, "damaged: its compressed data cannot be inflated (\(message))")
        default:
            return ReaderError(.corruptZip, file: file, part: part, message)
        }
    }

    /// The signature of a zip's first local file header.
    private static let localHeaderSignature: [UInt8] = [0x50, 0x4B, 0x03, 0x04]

    private static func openError(code: Int32, file: String, prefix: [UInt8]) -> ReaderError {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        let message = String(cString: zip_error_strerror(&error))
        switch code {
        case ZIP_ER_NOZIP where prefix.starts(with: localHeaderSignature):
            // It starts as a zip, but the central directory at its end is gone: cut short.
            return ReaderError(.corruptZip, file: file, "a truncated zip archive: it has no end of central directory")
        case ZIP_ER_NOZIP:
            return ReaderError(.notAZip, file: file, "not a zip archive, so not an OOXML workbook")
        case ZIP_ER_OPEN, ZIP_ER_READ, ZIP_ER_SEEK, ZIP_ER_MEMORY, ZIP_ER_NOENT:
            return ReaderError(.io, file: file, message)
        default:
            return ReaderError(.corruptZip, file: file, message)
        }
    }
}

extension ZipArchive {
    /// Rejects a CFB container; returns the file's first bytes (at most 8).
    private static func rejectCompoundFile(path: String) throws -> [UInt8] {
        guard let stream = fopen(path, "rb") else { return [] } // libzip reports the open error
        var prefix = [UInt8](repeating: 0, count: 8)
        let count = fread(&prefix, 1, 8, stream)
        fclose(stream)
        prefix.removeLast(8 - count)
        guard count == 8 else { return prefix }
        try rejectCompoundFile(prefix: prefix[...], name: path) { () throws(CompoundFile.ReadError) in try CompoundFile(path: path) }
        return prefix
    }

    /// Rejects a CFB container with the right code, from the stream names in its directory:
    /// an encrypted OOXML package has `EncryptedPackage`, a legacy workbook `Workbook` or `Book`.
    private static func rejectCompoundFile(prefix: ArraySlice<UInt8>, name: String,
                                           directory: () throws(CompoundFile.ReadError) -> CompoundFile) throws {
        guard Array(prefix) == CompoundFile.signature else { return }
        let container: CompoundFile
        do {
            container = try directory()
        } catch {
            throw ReaderError(.notAZip, file: name, "a Compound File container, not an OOXML package (\(error))")
        }
        switch container.kind {
        case .encryptedWorkbook:
            throw ReaderError(.encryptedWorkbook, file: name,
                              "a password-protected workbook (CFB container with an EncryptedPackage stream)")
        case .legacyWorkbook:
            throw ReaderError(.legacyXLS, file: name,
                              "a legacy Excel 97-2003 workbook (CFB container with a Workbook stream), not an OOXML package")
        case .otherDocument:
            let shown = container.names.dropFirst().prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
            throw ReaderError(.notAZip, file: name, "a Compound File document that is not a workbook (streams \(shown))")
        }
    }
}
