/// The signed-in person's page preferences (`GET /api/me/preferences`).
extension ServerConnection {
    /// The person's theme, `light`, `dark` or `system`; nil when the server has none to say
    /// (an older server without the route, or an answer of another shape).
    package func preferredTheme(client: HTTPClient) -> String? {
        guard let preferences = try? json("GET", "/api/me/preferences", client: client, what: "preferences") else { return nil }
        return preferences.optionalString("theme")
    }
}
