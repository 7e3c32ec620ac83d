/// Copying text into the fixed `char` arrays of the C structs.
enum CText {
    /// Copies `text`'s UTF-8 into `field` (a C array inside a struct), NUL-terminated, cut at a
    /// character boundary when it does not fit.
    static func copy<Field>(_ text: String, into field: inout Field) {
        withUnsafeMutableBytes(of: &field) { buffer in
            let capacity = buffer.count - 1
            guard capacity >= 0 else { return }
            var utf8 = Array(text.utf8.prefix(capacity + 1))
            if utf8.count > capacity {
                utf8.removeLast(utf8.count - capacity)
                // Drop the last character if the cut went through it.
                var lead = utf8.count - 1
                while lead > 0, utf8[lead] & 0xC0 == 0x80 { lead -= 1 }
                if lead >= 0, utf8[lead] & 0x80 != 0 {
                    let length = utf8[lead] >= 0xF0 ? 4 : utf8[lead] >= 0xE0 ? 3 : 2
                    if utf8.count - lead < length { utf8.removeLast(utf8.count - lead) }
                }
            }
            buffer.copyBytes(from: utf8)
            buffer[utf8.count] = 0
        }
    }

    /// The text of a NUL-terminated C string.
    static func string(_ pointer: UnsafePointer<CChar>) -> String {
        String(cString: pointer)
    }
}
