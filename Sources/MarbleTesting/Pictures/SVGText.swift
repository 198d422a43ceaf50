/// SVG elements, written as text with every attribute value and text escaped.
package struct SVGText {
  var text = ""

  mutating func line(
    x1: Int, y1: Int, x2: Int, y2: Int, stroke: String, width: Double = 1, dash: String? = nil
  ) {
    text +=
      "<line x1=\"\(x1)\" y1=\"\(y1)\" x2=\"\(x2)\" y2=\"\(y2)\" stroke=\"\(stroke)\" "
      + "stroke-width=\"\(Self.number(width))\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>\n"
  }

  mutating func path(_ data: String, stroke: String, width: Double = 1.5) {
    text +=
      "<path d=\"\(data)\" fill=\"none\" stroke=\"\(stroke)\" "
      + "stroke-width=\"\(Self.number(width))\"/>\n"
  }

  mutating func circle(cx: Int, cy: Int, r: Int, fill: String, stroke: String, dash: String?) {
    text +=
      "<circle cx=\"\(cx)\" cy=\"\(cy)\" r=\"\(r)\" fill=\"\(fill)\" stroke=\"\(stroke)\" "
      + "stroke-width=\"1.5\"\(dash.map { " stroke-dasharray=\"\($0)\"" } ?? "")/>\n"
  }

  mutating func rect(x: Int, y: Int, width: Int, height: Int, fill: String) {
    text +=
      "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(width)\" height=\"\(height)\" fill=\"\(fill)\"/>\n"
  }

  mutating func text(
    _ content: String, x: Int, y: Int, size: Int, fill: String = "#000000",
    weight: String? = nil, anchor: String = "middle"
  ) {
    text +=
      "<text x=\"\(x)\" y=\"\(y)\" font-size=\"\(size)\" fill=\"\(fill)\" "
      + "text-anchor=\"\(anchor)\"\(weight.map { " font-weight=\"\($0)\"" } ?? "")>"
      + Self.escape(content) + "</text>\n"
  }

  /// Opens a group with a tooltip.
  mutating func open(_ element: String, title: String) {
    text += "<\(element)><title>\(Self.escape(title))</title>\n"
  }

  mutating func close(_ element: String) {
    text += "</\(element)>\n"
  }

  /// `text` with the five XML special characters escaped, and control characters (not allowed in
  /// XML 1.0) replaced by U+FFFD: safe as text or as an attribute value in SVG, XML and HTML.
  package static func escape(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "&": escaped += "&amp;"
      case "<": escaped += "&lt;"
      case ">": escaped += "&gt;"
      case "\"": escaped += "&quot;"
      case "'": escaped += "&apos;"
      case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
      default:
        if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
          escaped += "\u{FFFD}"
        } else {
          escaped.unicodeScalars.append(scalar)
        }
      }
    }
    return escaped
  }

  /// `1.5` or `3`: no trailing `.0`.
  static func number(_ value: Double) -> String {
    value == value.rounded() ? "\(Int(value))" : "\(value)"
  }
}
