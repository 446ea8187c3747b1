/// A legacy cell comment (note) from a comments part.
public struct Comment: Sendable, Equatable {
    /// The cell it is attached to.
    public var reference: String
    /// The author's name.
    public var author: String
    /// The text, runs joined.
    public var text: String

    /// Creates a comment on the cell `reference` (A1 notation).
    public init(reference: String, author: String, text: String) {
        self.reference = reference
        self.author = author
        self.text = text
    }
}
