import Foundation

/// The page a person asked for before signing in (a sheet's 401 sign-in page), carried through
/// the sign-in form's `next` field and back in its answer's `Location`. The field comes from the
/// browser, so only a path of this site is taken: one leading `/`, printable ASCII without `\`,
/// no `//` (a scheme-relative address to another host), and the same after percent-decoding
/// (`/%2F%2Fevil.example`); anything else returns to `/`.
enum SignInReturn {
    /// The longest path carried (a sheet's table view with its sort and filters fits).
    static let maxLength = 2_048

    /// `text` when it is a safe path of this site, else `/`.
    static func path(_ text: String?) -> String {
        guard let text, isSafe(text), let decoded = text.removingPercentEncoding, isSafe(decoded) else { return "/" }
        return text
    }

    private static func isSafe(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count <= maxLength, bytes.first == UInt8(ascii: "/") else { return false }
        return bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }
            && !text.contains("//")
    }

    /// The address of the page `request` asked for, percent-encoded again (the daemon decoded it).
    static func asked(_ request: Request) -> String {
        let allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)...Unicode.Scalar(0x7F)))
            .union(CharacterSet(charactersIn: "-._~"))
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        var path = "/" + request.segments.map(encode).joined(separator: "/")
        if !request.queryItems.isEmpty {
            path += "?" + request.queryItems.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
        }
        return Self.path(path)
    }
}
