import Foundation
import SheetPortClient

/// What a browser does with the server's pages, without a browser: it keeps the session cookie
/// the server sets, reads the page's CSRF value, and sends the `Origin` a page of `origin`
/// would (nil: none). Each call runs on a client of the calling thread.
package final class WebBrowser {
    package let base: String
    /// `name=value` of the session cookie, once set.
    package var cookie: String?
    /// The `Origin` sent with every request but GET and HEAD (the server's own by default).
    package var origin: String?

    package init(base: String) {
        self.base = base
        origin = base
    }

    /// Sends a request with the cookie (and the origin on a change); keeps a cookie the answer sets or clears.
    @discardableResult
    package func call(_ method: String, _ path: String, accept: String? = nil, body: [UInt8]? = nil, contentType: String? = nil,
                      headers: [(name: String, value: String)] = []) throws -> HTTPResponse {
        var all = headers
        if let cookie { all.append(("Cookie", cookie)) }
        if let accept { all.append(("Accept", accept)) }
        if let contentType { all.append(("Content-Type", contentType)) }
        if method != "GET" && method != "HEAD", let origin { all.append(("Origin", origin)) }
        let response = try HTTPClient(timeout: 60).send(HTTPRequest(method: method, url: base + path, headers: all, body: body.map { .bytes($0) } ?? .none))
        if let set = response.header("Set-Cookie"), let pair = set.split(separator: ";").first {
            cookie = pair.hasSuffix("=") ? nil : String(pair)
        }
        return response
    }

    /// Posts the sign-in form with `token` (and its `next` field, the page to return to).
    @discardableResult
    package func signIn(_ token: String, accept: String? = nil, next: String? = nil) throws -> HTTPResponse {
        let encoded = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "" }
        let form = "token=" + encoded(token) + (next.map { "&next=" + encoded($0) } ?? "")
        return try call("POST", "/session", accept: accept, body: Array(form.utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// The `<meta name="csrf-token">` value of the page at `path`, nil when it has none.
    package func csrf(_ path: String = "/") throws -> String? {
        let page = try call("GET", path).text
        guard let start = page.range(of: "<meta name=\"csrf-token\" content=\"") else { return nil }
        return String(page[start.upperBound...].prefix { $0 != "\"" })
    }

    /// A JSON call as the page's script makes it: `Accept: application/json`, the CSRF header.
    @discardableResult
    package func api(_ method: String, _ path: String, json: [String: Any]? = nil, csrf: String?) throws -> HTTPResponse {
        var headers: [(name: String, value: String)] = []
        if let csrf { headers.append(("X-SheetPort-CSRF", csrf)) }
        let body = try json.map { Array(try JSONSerialization.data(withJSONObject: $0)) }
        return try call(method, path, accept: "application/json", body: body, contentType: json == nil ? nil : "application/json", headers: headers)
    }
}
