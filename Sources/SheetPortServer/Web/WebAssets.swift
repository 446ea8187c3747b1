import Foundation
import CSodium

/// The page's scripts and styles, compiled into the binary (`PackageResources`) and served at
/// `/assets/<name>.<hash>.<ext>`, where the hash is the first 16 hexadecimal digits of the
/// SHA-256 of the bytes served: a name changes with its content, so browsers may keep each for
/// a year. A module's relative imports (`from './grid.js';`) are rewritten to the hashed names
/// of the modules they name, which are hashed first (leaves first; modules import no cycle).
struct WebAssets: Sendable {
    /// One asset as served.
    struct Asset: Sendable {
        /// `app.js`.
        let name: String
        /// `app.0123456789abcdef.js`.
        let servedName: String
        /// The bytes served.
        let bytes: [UInt8]
        /// Its `Content-Type`.
        let contentType: String
    }

    /// The assets, hashed and rewritten once, at first use.
    static let shared = WebAssets(files: files)

    /// By served (hashed) name.
    private let byServedName: [String: Asset]
    /// By file name.
    private let byName: [String: Asset]

    init(files: [(name: String, bytes: [UInt8])]) {
        let sources = Dictionary(files.map { ($0.name, $0.bytes) }, uniquingKeysWith: { first, _ in first })
        var done: [String: Asset] = [:]
        var inProgress: Set<String> = []
        func resolve(_ name: String) -> Asset? {
            if let asset = done[name] { return asset }
            // A module on the way here (a cycle) keeps the import as written rather than loop.
            guard let bytes = sources[name], inProgress.insert(name).inserted else { return nil }
            let served = name.hasSuffix(".js") ? Self.rewritingImports(bytes) { resolve($0)?.servedName } : bytes
            let asset = Asset(name: name, servedName: Self.hashedName(name, served), bytes: served, contentType: Self.contentType(of: name))
            done[name] = asset
            return asset
        }
        for name in sources.keys.sorted() { _ = resolve(name) }
        byName = done
        byServedName = Dictionary(done.values.map { ($0.servedName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The asset served as `servedName`, nil for any other name (unhashed, stale, unknown).
    func asset(served servedName: String) -> Asset? { byServedName[servedName] }

    /// The path of file `name` as the page links it (`/assets/app.<hash>.js`).
    func path(of name: String) -> String { "/assets/" + (byName[name]?.servedName ?? name) }

    /// Every asset.
    var all: [Asset] { Array(byName.values) }

    /// `name` with the first 16 hexadecimal digits of the SHA-256 of `bytes` before its extension.
    static func hashedName(_ name: String, _ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_BYTES))
        crypto_hash_sha256(&digest, bytes, UInt64(bytes.count))
        let hash = String(Sodium.hex(digest).prefix(16))
        guard let dot = name.lastIndex(of: ".") else { return name + "." + hash }
        return name[..<dot] + "." + hash + name[dot...]
    }

    /// Rewrites each line `import ... from './x.js';` or `import './x.js';` to name `./<hashed x>`;
    /// a specifier `hashed` does not know is left as it is. Nothing else changes.
    static func rewritingImports(_ bytes: [UInt8], _ hashed: (String) -> String?) -> [UInt8] {
        let text = String(decoding: bytes, as: UTF8.self)
        var lines: [Substring] = text.split(separator: "\n", omittingEmptySubsequences: false)
        for index in lines.indices {
            let line = lines[index]
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            guard trimmed.hasPrefix("import "), trimmed.hasSuffix(".js';"),
                  let open = trimmed.range(of: "'./", options: .backwards) else { continue }
            let specifier = trimmed[open.upperBound..<trimmed.index(trimmed.endIndex, offsetBy: -2)]
            guard specifier.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }),
                  let served = hashed(String(specifier)) else { continue }
            lines[index] = line[..<line.index(line.startIndex, offsetBy: line.count - trimmed.count)]
                + trimmed[..<open.upperBound] + served + "';"
        }
        return Array(lines.joined(separator: "\n").utf8)
    }

    private static func contentType(of name: String) -> String {
        name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
    }

    /// `GET /assets/<name>.<hash>.<ext>`: the asset, cacheable for a year; 404 for any other path.
    func reply(_ segments: [String]) -> Reply {
        guard segments.count == 2, let asset = asset(served: segments[1]) else { return PageShell.notFoundReply(json: false) }
        return Reply(status: 200, headers: [("Content-Type", asset.contentType), ("Cache-Control", "public, max-age=31536000, immutable"),
                                            ("X-Content-Type-Options", "nosniff")], body: .bytes(asset.bytes))
    }
}
