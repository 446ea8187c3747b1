import Foundation

/// Writes zip archives byte by byte, so that tests can put any compressed data, CRC-32 and
/// sizes in an entry (damaged streams that no zip library writes).
enum ZipBuilder {
    /// One entry as stored: its compressed bytes and what the headers declare about them.
    struct Entry {
        var name: String
        /// 8 deflate, 0 stored.
        var method: UInt16 = 8
        var data: [UInt8]
        var crc: UInt32
        var size: UInt32
    }

    /// The archive: local headers and data, the central directory, its end record.
    static func archive(_ entries: [Entry]) -> [UInt8] {
        var out: [UInt8] = []
        var directory: [UInt8] = []
        for entry in entries {
            let name = Array(entry.name.utf8)
            let offset = UInt32(out.count)
            out += le32(0x0403_4B50) + le16(20) + le16(0) + le16(entry.method) + le16(0) + le16(0x21)
            out += le32(entry.crc) + le32(UInt32(entry.data.count)) + le32(entry.size)
            out += le16(UInt16(name.count)) + le16(0) + name + entry.data
            directory += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(entry.method) + le16(0) + le16(0x21)
            directory += le32(entry.crc) + le32(UInt32(entry.data.count)) + le32(entry.size)
            directory += le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + name
        }
        let start = UInt32(out.count)
        out += directory
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(directory.count)) + le32(start) + le16(0)
        return out
    }

    /// The CRC-32 (ISO-HDLC, as zip uses) of `bytes`.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static let table: [UInt32] = (0..<256).map { index in
        (0..<8).reduce(UInt32(index)) { crc, _ in crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
    }

    private static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
}
