#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The directory of a Compound File Binary container (MS-CFB), read with every offset,
/// sector chain and count checked against the file's size.
///
/// Legacy `.xls` workbooks and password-protected OOXML workbooks are both CFB containers;
/// only the names of their streams tell them apart (`Workbook`/`Book` against
/// `EncryptedPackage`), so this reads the directory and nothing else.
public struct CompoundFile: Sendable {
    /// What a CFB container holds, as far as importing a workbook is concerned.
    public enum Kind: Sendable, Equatable {
        /// An OOXML package encrypted with a password (`EncryptedPackage` stream).
        case encryptedWorkbook
        /// A BIFF workbook (`Workbook` or `Book` stream): Excel 97-2003 or older.
        case legacyWorkbook
        /// Some other compound document (a Word `.doc`, for one).
        case otherDocument
    }

    /// Why a container's directory could not be read.
    public enum ReadError: Error, Equatable, CustomStringConvertible {
        /// The first 8 bytes are not the CFB signature.
        case notCompoundFile
        /// The 512-byte header is short or has impossible values.
        case badHeader(String)
        /// A sector number points outside the file, or a chain loops.
        case badSectorChain(String)

        /// A sentence for a person.
        public var description: String {
            switch self {
            case .notCompoundFile: "not a Compound File container"
            case .badHeader(let detail): "damaged Compound File header: \(detail)"
            case .badSectorChain(let detail): "damaged Compound File sector chain: \(detail)"
            }
        }
    }

    /// The signature of every CFB file.
    public static let signature: [UInt8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]

    /// The names of every stream and storage in the directory, in directory order.
    public let names: [String]

    /// The most directory entries read: a real workbook has a few dozen.
    static let maxDirectoryEntries = 65_536

    /// What the container is, from its stream names.
    public var kind: Kind {
        if names.contains("EncryptedPackage") || names.contains("EncryptionInfo") { return .encryptedWorkbook }
        if names.contains("Workbook") || names.contains("Book") { return .legacyWorkbook }
        return .otherDocument
    }

    /// Reads the directory through `read(offset, count)`, which returns fewer bytes (or
    /// none) past the end of a container of `size` bytes.
    public init(size: Int64, read: (Int64, Int) -> [UInt8]) throws(ReadError) {
        let header = read(0, 512)
        guard header.count >= 8, Array(header[0..<8]) == Self.signature else { throw .notCompoundFile }
        guard header.count == 512 else { throw .badHeader("shorter than 512 bytes") }
        let shift = Int(Self.uint16(header, 0x1E))
        guard shift == 9 || shift == 12 else { throw .badHeader("sector shift \(shift)") }
        let sectorSize = 1 << shift
        let sectorCount = max(0, (size - Int64(sectorSize)) / Int64(sectorSize) + 1)
        let entriesPerSector = sectorSize / 4

        // The FAT's own sectors: 109 in the header, the rest in the DIFAT chain.
        let fatSectorCount = Int(Self.uint32(header, 0x2C))
        guard Int64(fatSectorCount) <= sectorCount else { throw .badHeader("\(fatSectorCount) FAT sectors in a file of \(sectorCount)") }
        var fatSectors: [UInt32] = []
        for index in 0..<109 where fatSectors.count < fatSectorCount {
            fatSectors.append(Self.uint32(header, 0x4C + 4 * index))
        }
        var difat = Self.uint32(header, 0x44)
        var difatSteps = 0
        while fatSectors.count < fatSectorCount, difat < Self.maxRegularSector {
            difatSteps += 1
            guard Int64(difat) < sectorCount, Int64(difatSteps) <= sectorCount else { throw .badSectorChain("DIFAT sector \(difat)") }
            let sector = read(Int64(difat + 1) << shift, sectorSize)
            guard sector.count == sectorSize else { throw .badSectorChain("DIFAT sector \(difat) is past the end") }
            for index in 0..<(entriesPerSector - 1) where fatSectors.count < fatSectorCount {
                fatSectors.append(Self.uint32(sector, 4 * index))
            }
            difat = Self.uint32(sector, sectorSize - 4)
        }

        // The FAT entry of a sector, read on demand (the directory chain is short).
        func next(_ sector: UInt32) throws(ReadError) -> UInt32 {
            let fatIndex = Int(sector) / entriesPerSector
            guard fatIndex < fatSectors.count else { throw .badSectorChain("sector \(sector) has no FAT entry") }
            let fatSector = fatSectors[fatIndex]
            guard Int64(fatSector) < sectorCount else { throw .badSectorChain("FAT sector \(fatSector) is past the end") }
            let bytes = read((Int64(fatSector) + 1) << shift + Int64(Int(sector) % entriesPerSector * 4), 4)
            guard bytes.count == 4 else { throw .badSectorChain("FAT sector \(fatSector) is past the end") }
            return Self.uint32(bytes, 0)
        }

        var names: [String] = []
        var sector = Self.uint32(header, 0x30)
        var steps: Int64 = 0
        while sector < Self.maxRegularSector {
            steps += 1
            guard Int64(sector) < sectorCount, steps <= sectorCount else { throw .badSectorChain("directory sector \(sector)") }
            let bytes = read((Int64(sector) + 1) << shift, sectorSize)
            guard bytes.count == sectorSize else { throw .badSectorChain("directory sector \(sector) is past the end") }
            for offset in stride(from: 0, to: sectorSize, by: 128) {
                guard names.count < Self.maxDirectoryEntries else { throw .badSectorChain("more than \(Self.maxDirectoryEntries) directory entries") }
                let type = bytes[offset + 0x42]
                guard type == 1 || type == 2 || type == 5 else { continue } // unused or unknown
                let length = min(Int(Self.uint16(bytes, offset + 0x40)), 64)
                var units: [UInt16] = []
                for index in stride(from: 0, to: length - 1, by: 2) { // the length counts the final NUL
                    let unit = Self.uint16(bytes, offset + index)
                    if unit == 0 { break }
                    units.append(unit)
                }
                names.append(String(decoding: units, as: UTF16.self))
            }
            sector = try next(sector)
        }
        guard !names.isEmpty else { throw .badHeader("an empty directory") }
        self.names = names
    }

    /// Reads the directory of the file at `path`.
    public init(path: String) throws(ReadError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .notCompoundFile }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .notCompoundFile }
        try self.init(size: Int64(status.st_size)) { offset, count in
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, off_t(offset)) }
            return got > 0 ? Array(bytes[..<got]) : []
        }
    }

    /// Reads the directory of a container held in memory.
    public init(bytes: [UInt8]) throws(ReadError) {
        try self.init(size: Int64(bytes.count)) { offset, count in
            guard offset >= 0, offset < Int64(bytes.count) else { return [] }
            let start = Int(offset)
            return Array(bytes[start..<min(bytes.count, start + count)])
        }
    }

    /// Sector numbers at or above this are markers (end of chain, free, FAT, DIFAT).
    private static let maxRegularSector: UInt32 = 0xFFFF_FFFA

    private static func uint16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func uint32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }
}
