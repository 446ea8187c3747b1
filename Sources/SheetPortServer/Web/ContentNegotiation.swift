import Foundation

/// Which representation a page route answers (`Accept`, RFC 9110 section 12.5.1): JSON when the
/// request prefers `application/json` to `text/html` by their q-values, else HTML. The most
/// specific media range that matches a type gives its q-value; a tie is HTML, so a browser's
/// navigation and a bare `*/*` get the page.
enum ContentNegotiation {
    /// Whether `accept` prefers `application/json` to `text/html`.
    static func prefersJSON(_ accept: String?) -> Bool {
        guard let accept, !accept.isEmpty else { return false }
        let ranges = accept.split(separator: ",").compactMap(MediaRange.init)
        let json = quality(of: "application", "json", in: ranges)
        return json > 0 && json > quality(of: "text", "html", in: ranges)
    }

    /// The q-value `ranges` give `type/subtype`: that of the most specific matching range, 0 when none matches.
    private static func quality(of type: String, _ subtype: String, in ranges: [MediaRange]) -> Double {
        var best: (specificity: Int, q: Double)?
        for range in ranges {
            let specificity: Int
            if range.type == type && range.subtype == subtype { specificity = 2 }
            else if range.type == type && range.subtype == "*" { specificity = 1 }
            else if range.type == "*" && range.subtype == "*" { specificity = 0 }
            else { continue }
            if best.map({ specificity > $0.specificity }) ?? true { best = (specificity, range.q) }
        }
        return best?.q ?? 0
    }

    /// One element of `Accept`: `type/subtype;q=0.8`; an element that is not one is ignored.
    private struct MediaRange {
        let type: String
        let subtype: String
        let q: Double

        init?(_ text: Substring) {
            let parts = text.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let media = parts.first else { return nil }
            let halves = media.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count == 2, !halves[0].isEmpty, !halves[1].isEmpty else { return nil }
            type = String(halves[0])
            subtype = String(halves[1])
            var q = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                // A q-value outside 0...1 or not a number makes the element count for nothing.
                guard let value = Double(parameter.dropFirst(2)), value >= 0, value <= 1 else { return nil }
                q = value
            }
            self.q = q
        }
    }
}

extension Reply {
    /// This reply with `Vary: Accept` when `request` is a page route answered by its API route.
    func negotiated(_ request: Request) -> Reply {
        guard request.isNegotiated, !headers.contains(where: { $0.name == "Vary" }) else { return self }
        var reply = self
        reply.headers.append(("Vary", "Accept"))
        return reply
    }
}
