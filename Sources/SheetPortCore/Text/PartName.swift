/// Part names of an OPC package: normalisation and relationship-target resolution.
///
/// Real producers write backslash separators, leading slashes and case that differs
/// between the relationship and the zip entry; every lookup goes through `key`.
package enum PartName {
    /// The canonical spelling of an entry or part name: `/` separators, no leading `/`.
    static func normalize(_ name: String) -> String {
        var result = name.replacing("\\", with: "/")
        while result.hasPrefix("/") { result.removeFirst() }
        return result
    }

    /// The case-insensitive lookup key of a part name.
    package static func key(_ name: String) -> String {
        normalize(name).lowercased()
    }

    /// The folder of a part, with a trailing `/`, or `""` at the package root.
    package static func directory(of part: String) -> String {
        guard let slash = part.lastIndex(of: "/") else { return "" }
        return String(part[...slash])
    }

    /// The relationships part of `part`: `dir/_rels/name.rels`; `_rels/.rels` for the package.
    package static func relationshipsPart(of part: String) -> String {
        let dir = directory(of: part)
        let name = part.dropFirst(dir.count)
        return dir + "_rels/" + name + ".rels"
    }

    /// Resolves a relationship `target` against the part that holds the relationship.
    /// An absolute target starts at the package root; `.` and `..` segments are removed;
    /// `%20`-style escapes are decoded unless `decodingPercent` is false.
    package static func resolve(_ target: String, from source: String, decodingPercent: Bool = true) -> String {
        var target = target.replacing("\\", with: "/")
        if let hash = target.firstIndex(of: "#") { target = String(target[..<hash]) }
        if decodingPercent { target = target.removingPercentEncodingIfValid }
        let joined = target.hasPrefix("/") ? target : directory(of: source) + target
        var segments: [Substring] = []
        for segment in joined.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..": if !segments.isEmpty { segments.removeLast() }
            default: segments.append(segment)
            }
        }
        return segments.joined(separator: "/")
    }
}

extension String {
    /// `%20` and friends decoded, or the string unchanged when it holds no valid escape.
    fileprivate var removingPercentEncodingIfValid: String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self) ?? self
    }
}
