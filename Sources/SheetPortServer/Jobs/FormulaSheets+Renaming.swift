import Foundation
import SheetPortCore

extension FormulaSheets {
    /// `formula` with its references to sheet `old` (`Old!A1`, `'Old'!A1`, any case) naming
    /// `new` instead, quoted where it needs to be; string literals and other sheets' references
    /// are left as they are.
    static func renaming(_ formula: String, from old: String, to new: String) -> String {
        guard old != new else { return formula }
        let characters = Array(formula)
        var output = ""
        var index = 0
        let upperOld = old.uppercased()
        let replacement = quoted(new)
        while index < characters.count {
            let c = characters[index]
            if c == "\"" || c == "'" {
                // A literal or a quoted name, doubled quotes inside.
                var end = index + 1
                var name = ""
                while end < characters.count {
                    if characters[end] == c {
                        if end + 1 < characters.count, characters[end + 1] == c { name.append(c); end += 2; continue }
                        break
                    }
                    name.append(characters[end])
                    end += 1
                }
                end = min(end + 1, characters.count)
                if c == "'", end < characters.count, characters[end] == "!", name.uppercased() == upperOld {
                    output += replacement
                } else {
                    output += String(characters[index..<end])
                }
                index = end
            } else if c.isLetter || c == "_" || c == "\\" {
                var end = index
                while end < characters.count, characters[end].isLetter || characters[end].isNumber || "_.\\".contains(characters[end]) { end += 1 }
                let word = String(characters[index..<end])
                let precededByName = index > 0 && (characters[index - 1] == "]" || characters[index - 1] == ":")
                if !precededByName, end < characters.count, characters[end] == "!", word.uppercased() == upperOld {
                    output += replacement
                } else {
                    output += word
                }
                index = end
            } else {
                output.append(c)
                index += 1
            }
        }
        return output
    }

    /// A sheet name as a formula writes it: quoted unless it is letters, digits and `_` not
    /// starting with a digit and not shaped like a cell reference.
    static func quoted(_ name: String) -> String {
        let plain = !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
            && !(name.first?.isNumber ?? true) && !WorkbookName.isCellReferenceShaped(name)
        return plain ? name : "'" + name.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
