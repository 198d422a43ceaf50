extension MarblePicture {
  /// The picture's lanes as rows of text, for a report in plain text: each lane's title, then one
  /// cell per frame of `frames` — a value's text, `|` for completion, `#` for a failure, blank for
  /// nothing — right-aligned in cells of four characters at least one space apart. Trailing spaces
  /// are dropped.
  ///
  /// - Parameters:
  ///   - frames: The frames to draw, one column each.
  ///   - indent: What each row starts with.
  /// - Returns: One row per lane, top to bottom.
  func textRows(frames: Range<Int>, indent: String = "  ") -> [String] {
    let width = max(4, lanes.map(\.title.count).max() ?? 0)
    func cell(_ text: String) -> String {
      String(repeating: " ", count: max(1, 4 - text.count)) + text
    }
    return lanes.map { lane in
      var marks: [Int: String] = [:]
      for item in lane.items {
        switch item.mark {
        case .value(let text): marks[item.frame] = text
        case .completed: marks[item.frame] = "|"
        case .error: marks[item.frame] = "#"
        }
      }
      let row =
        indent + lane.title + String(repeating: " ", count: width - lane.title.count)
        + frames.map { cell(marks[$0] ?? "") }.joined()
      return String(row.reversed().drop { $0 == " " }.reversed())
    }
  }
}
