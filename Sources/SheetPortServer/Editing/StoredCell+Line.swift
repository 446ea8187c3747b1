import SheetPortCore
import SheetPortConvert

/// A stored cell's object line written straight into bytes: the text the `JSON` tree of its
/// members renders (`lineJSON`), with no tree and no `String` per member (a write of many cells
/// renders one line per cell, and its history the cell before and after).
extension StoredCell {
    /// The stored object line (no line break):
    /// `{"col","input","ref","type","value","formula"?,"arrayRange"?,"style"?,"spill"?}`.
    package var line: [UInt8] {
        let sink = ByteSink(capacity: 128 + input.utf8.count * 2)
        putLine(into: sink)
        return Array(sink.bytes)
    }

    /// Where `putLine` wrote the members a `TypedLine` reads, as offsets into its sink: the
    /// strings' insides (no quotes), the type's name, the value's JSON and the style object.
    package struct LineMembers {
        var input = 0..<0, type = 0..<0, value = 0..<0
        var formula: Range<Int>?, arrayRange: Range<Int>?, style: Range<Int>?
        /// The number the value member spells, when it is one: typed without parsing it back.
        var number: Double?
    }

    /// Appends the stored object line (no line break) to `sink`, answering where its members are
    /// (a write types the line it renders from these, rendering nothing twice).
    @discardableResult
    package func putLine(into sink: ByteSink) -> LineMembers {
        var members = LineMembers()
        func range(_ write: () -> Void) -> Range<Int> {
            let start = sink.count
            write()
            return start..<sink.count
        }
        func quoted(_ text: String) -> Range<Int> {
            let written = range { sink.putEscaped(text) }
            return (written.lowerBound + 1)..<(written.upperBound - 1)
        }
        sink.put("{\"col\":" as StaticString)
        sink.putDecimal(Int64(column))
        sink.put(",\"input\":" as StaticString)
        members.input = quoted(input)
        sink.put(",\"ref\":\"" as StaticString)
        sink.putColumnName(column)
        sink.putDecimal(Int64(row))
        let (type, value) = typedValue
        sink.put("\",\"type\":\"" as StaticString)
        members.type = range { sink.put(type) }
        sink.put("\",\"value\":" as StaticString)
        members.value = range { Self.putValue(value, into: sink) }
        if case .number(let number) = value { members.number = number }
        if let formula {
            sink.put(",\"formula\":" as StaticString)
            members.formula = quoted(formula)
        }
        if let arrayRange {
            sink.put(",\"arrayRange\":" as StaticString)
            members.arrayRange = quoted(arrayRange)
        }
        if !style.isEmpty {
            sink.put(",\"style\":" as StaticString)
            members.style = range { sink.put(Self.styleJSON(style).text) }
        }
        if let spill {
            sink.put(",\"spill\":" as StaticString)
            sink.putEscaped(spill)
        }
        sink.put(UInt8(ascii: "}"))
        return members
    }

    /// The stored line and its typed form (`TypedLine`, nil for a line kept whole), the line
    /// rendered once for both: the typed form's members are slices of the line.
    var typedLine: (line: [UInt8], typed: TypedLine?) {
        let sink = ByteSink(capacity: 128 + input.utf8.count * 2)
        let members = putLine(into: sink)
        let line = Array(sink.bytes)
        return (line, TypedLine(self, line: line, members: members))
    }

    /// Appends a `value` member's JSON as the line spells it.
    static func putValue(_ value: JSON, into sink: ByteSink) {
        switch value {
        case .null: sink.put("null" as StaticString)
        case .number(let number): sink.putNumber(number)
        case .string(let text): sink.putEscaped(text)
        case .bool(let flag): sink.put(flag ? "true" as StaticString : "false")
        default: sink.put(value.text)
        }
    }

    /// The stored object as a `JSON` tree: what `line` spells, kept as the reference its
    /// bytes are checked against.
    package var lineJSON: JSON {
        let (type, value) = typedValue
        var members: [(String, JSON)] = [("col", .int(column)), ("input", .string(input)), ("ref", .string(reference)),
                                         ("type", .string(type)), ("value", value)]
        if let formula { members.append(("formula", .string(formula))) }
        if let arrayRange { members.append(("arrayRange", .string(arrayRange))) }
        if !style.isEmpty { members.append(("style", Self.styleJSON(style))) }
        if let spill { members.append(("spill", .string(spill))) }
        return .object(members)
    }
}
