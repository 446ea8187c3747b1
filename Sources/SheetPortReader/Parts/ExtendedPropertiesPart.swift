/// Reads the extended properties part (`docProps/app.xml`) for the application that saved the
/// package (`<Application>`): Excel for Mac computes CHAR and CODE in the Macintosh character
/// set, Excel for Windows in its ANSI code page.
final class ExtendedPropertiesPart: XMLHandler {
    private(set) var application: String?
    private var inApplication = false
    private var text: [UInt8] = []

    func startElement(_ name: XMLName, attributes: XMLAttributes) throws {
        if name.is("Application"), application == nil {
            inApplication = true
            text.removeAll()
        }
    }

    func endElement(_ name: XMLName) throws {
        guard inApplication, name.is("Application") else { return }
        inApplication = false
        application = String(decoding: text, as: UTF8.self).trimmingSpaces
    }

    func characters(_ text: UnsafeBufferPointer<UInt8>) {
        // An application's name is short; a hostile part's megabytes of text are not kept.
        if inApplication, self.text.count < 256 { self.text.append(contentsOf: text.prefix(256 - self.text.count)) }
    }
}
