/// A marble diagram drawn as a standalone SVG 1.1 document: one horizontal lane per row on a shared
/// time axis. A table run's ``TableReport/picture`` is one; ``svg(standalone:)`` renders it.
///
/// - Values are labelled circles. A value's colour comes from its text, so equal values match
///   across lanes; the text is always drawn in the circle (and in full in a tooltip), so the picture
///   reads without colour too.
/// - Completion is a bar, a failure a cross; events at one frame stack upwards.
/// - Subscriptions are brackets from subscription to disposal (an arrow while still subscribed).
/// - An inner signal's lane branches from its parent lane at the frame it was sent.
/// - Expected lanes have a dashed timeline; the first difference is a red line across the picture.
/// - A long picture stays legible: a stretch of more than 12 empty frames is drawn as a break
///   labelled with its length, and beyond 100 columns the frames far from the first difference
///   (or from the start) are left out, in a break that says how many frames and events it hides.
///   The caption under the picture says so.
///
/// The output is deterministic — the same lanes give byte-identical text — and every label is
/// escaped.
public struct MarblePicture: Sendable, Equatable {
  /// The rows, top to bottom.
  package var lanes: [MarbleLane]
  /// A title over the picture, if any.
  public package(set) var title: String?
  /// The frame of the first difference between expected and actual lanes, marked in red.
  public package(set) var firstDifference: Int?
  /// Lines of text under the picture (a legend, notes).
  public package(set) var notes: [String]

  /// Creates a picture.
  ///
  /// - Parameters:
  ///   - lanes: The rows, top to bottom.
  ///   - title: A title over the picture.
  ///   - firstDifference: The frame to mark as the first difference.
  ///   - notes: Lines of text under the picture.
  package init(
    lanes: [MarbleLane], title: String? = nil, firstDifference: Int? = nil, notes: [String] = []
  ) {
    self.lanes = lanes
    self.title = title
    self.firstDifference = firstDifference
    self.notes = notes
  }

  /// The picture as a standalone SVG 1.1 document (with an XML declaration), or — with
  /// `standalone: false` — as an `<svg>` element to put inline in an HTML page.
  ///
  /// - Parameter standalone: Whether to start with the XML declaration.
  /// - Returns: The SVG text.
  public func svg(standalone: Bool = true) -> String {
    SVGRenderer(picture: self).render(standalone: standalone)
  }
}

/// Lays a ``MarblePicture`` out and writes its SVG.
struct SVGRenderer {
  let picture: MarblePicture

  // Geometry, in SVG user units (pixels).
  static let columnWidth = 24
  static let laneHeight = 44
  static let stackStep = 22
  static let radius = 10
  static let margin = 12
  static let axisHeight = 26
  static let titleHeight = 24
  static let lineHeight = 16
  static let characterWidth = 7
  /// A stretch of empty frames longer than this is drawn as a break.
  static let longestGap = 12
  /// The most columns drawn; beyond, frames far from the focus are left out.
  static let mostColumns = 100

  /// What one column of the drawing stands for.
  enum Column: Equatable {
    /// One frame.
    case frame(Int)
    /// Frames `range` left out: `empty` if they hold nothing, else how many events they hide.
    case gap(ClosedRange<Int>, hiddenEvents: Int)
  }

  func render(standalone: Bool) -> String {
    let columns = self.columns()
    let frameX = Dictionary(
      columns.enumerated().compactMap { index, column -> (Int, Int)? in
        guard case .frame(let frame) = column else { return nil }
        return (frame, index)
      }, uniquingKeysWith: { first, _ in first })
    let gutter = Self.gutterWidth(picture.lanes)
    func x(_ column: Int) -> Int { gutter + column * Self.columnWidth + Self.columnWidth / 2 }
    /// The x of a frame: its column, or the nearest drawn column before it.
    func x(frame: Int) -> Int {
      if let column = frameX[frame] { return x(column) }
      var best = 0
      for (index, column) in columns.enumerated() {
        switch column {
        case .frame(let drawn) where drawn <= frame: best = index
        case .gap(let range, _) where range.lowerBound <= frame: best = index
        default: break
        }
      }
      return x(best)
    }

    var body = SVGText()
    var top = Self.margin
    if let title = picture.title {
      body.text(
        title, x: Self.margin, y: top + 16, size: 14, weight: "bold", anchor: "start")
      top += Self.titleHeight
    }
    let captions = captionLines(columns)
    // Wide enough for the lanes and for every line of text (monospace: about 0.6 em a character).
    var width = gutter + columns.count * Self.columnWidth + Self.margin
    width = max(width, Self.margin * 2 + (picture.title?.count ?? 0) * 9)
    width = max(width, Self.margin * 2 + (captions.map(\.count).max() ?? 0) * 7)
    if let frame = picture.firstDifference {
      width = max(width, x(frame: frame) + 4 + "first difference: frame \(frame)".count * 7)
    }

    // The time axis.
    let axisY = top + Self.axisHeight - 6
    body.line(x1: gutter, y1: axisY, x2: width - Self.margin, y2: axisY, stroke: "#888888")
    for (index, column) in columns.enumerated() {
      switch column {
      case .frame(let frame):
        let isLabelled = frame % 5 == 0
        body.line(
          x1: x(index), y1: axisY - (isLabelled ? 6 : 3), x2: x(index), y2: axisY,
          stroke: "#888888")
        if isLabelled {
          body.text("\(frame)", x: x(index), y: axisY - 9, size: 10, fill: "#555555")
        }
      case .gap(let range, _):
        body.text("≈", x: x(index), y: axisY - 4, size: 12, fill: "#555555")
        body.text(
          "+\(range.count)", x: x(index), y: axisY - 16, size: 9, fill: "#555555")
      }
    }
    top += Self.axisHeight

    // The first difference, behind the lanes so that it crosses no label.
    let laneTop = top
    let lanesBottom = top + picture.lanes.map(Self.height(of:)).reduce(0, +)
    if let frame = picture.firstDifference {
      let lineX = x(frame: frame)
      body.line(
        x1: lineX, y1: laneTop - 4, x2: lineX, y2: lanesBottom + 2, stroke: "#D00000", width: 2,
        dash: "5 3")
    }

    // The lanes.
    var laneMiddles: [Int] = []
    for lane in picture.lanes {
      let height = Self.height(of: lane)
      let middle = top + height - Self.laneHeight / 2
      laneMiddles.append(middle)
      // The gutter fits 40 characters; a longer title is cut, in full in its tooltip.
      let label = lane.title.count > 40 ? lane.title.prefix(39) + "…" : lane.title
      body.open("g", title: lane.title)
      body.text(label, x: gutter - 10, y: middle + 4, size: 12, fill: "#222222", anchor: "end")
      body.close("g")
      drawTimeline(lane, middle: middle, from: gutter, to: width - Self.margin, into: &body)
      if case .inner(let frame) = lane.role, let parent = laneMiddles.dropLast().last {
        body.line(
          x1: x(frame: frame), y1: parent, x2: x(frame: frame) + 8, y2: middle,
          stroke: "#777777", dash: "3 2")
      }
      for (index, column) in columns.enumerated() {
        guard case .gap(_, let hidden) = column else { continue }
        body.rect(
          x: x(index) - Self.columnWidth / 2 + 3, y: middle - 9, width: Self.columnWidth - 6,
          height: 18, fill: "#FFFFFF")
        body.text(
          hidden > 0 ? "⋯" : "≈", x: x(index), y: middle + 4, size: 12, fill: "#777777")
      }
      drawSubscriptions(lane, middle: middle, x: x(frame:), into: &body)
      drawEvents(lane, middle: middle, shown: frameX, x: x(frame:), into: &body)
      top += height
    }

    // The first difference's label.
    if let frame = picture.firstDifference {
      let lineX = x(frame: frame)
      body.text(
        "first difference: frame \(frame)", x: lineX + 4, y: top + 14, size: 11,
        fill: "#D00000", anchor: "start")
      top += Self.lineHeight + 4
    }

    // The caption.
    top += 6
    for note in captions {
      body.text(note, x: Self.margin, y: top + 12, size: 11, fill: "#333333", anchor: "start")
      top += Self.lineHeight
    }
    let height = top + Self.margin

    var svg = standalone ? "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" : ""
    svg +=
      "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"\(width)\" "
      + "height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" "
      + "font-family=\"Menlo, Consolas, 'DejaVu Sans Mono', monospace\">\n"
    svg += "<rect x=\"0\" y=\"0\" width=\"\(width)\" height=\"\(height)\" fill=\"#FFFFFF\"/>\n"
    svg += body.text
    svg += "</svg>\n"
    return svg
  }

  // MARK: Columns

  /// The columns to draw: every frame from the first to the last that matters, stretches of empty
  /// frames as breaks, and — past ``mostColumns`` — the frames far from the focus left out.
  func columns() -> [Column] {
    var frames = Set<Int>()
    for lane in picture.lanes {
      for event in lane.items { frames.insert(event.frame) }
      for subscription in lane.subscriptions {
        frames.insert(subscription.subscribed)
        if let disposed = subscription.disposed { frames.insert(disposed) }
      }
      if case .inner(let frame) = lane.role { frames.insert(frame) }
    }
    if let difference = picture.firstDifference { frames.insert(difference) }
    frames.insert(0)
    let sorted = frames.sorted()
    let last = sorted.last! + 1
    var columns: [Column] = []
    var previous: Int?
    for frame in sorted + [last] {
      if let previous, frame - previous > 1 {
        let gap = frame - previous - 1
        if gap > Self.longestGap {
          columns.append(.gap((previous + 1)...(frame - 1), hiddenEvents: 0))
        } else {
          for empty in (previous + 1)..<frame { columns.append(.frame(empty)) }
        }
      }
      columns.append(.frame(frame))
      previous = frame
    }
    guard columns.count > Self.mostColumns else { return columns }
    // Keep a window around the focus — the first difference, or the start — and the end.
    let tail = 12
    let focus = picture.firstDifference.flatMap { difference in
      columns.firstIndex(of: .frame(difference))
    }
    let keep = Self.mostColumns - tail - 2
    let body = columns.count - tail
    let start = focus.map { max(0, min($0 - keep / 3, body - keep)) } ?? 0
    let end = min(body, start + keep)
    var windowed: [Column] = []
    if start > 0 { windowed.append(elided(columns[..<start])) }
    windowed += columns[start..<end]
    if end < body { windowed.append(elided(columns[end..<body])) }
    windowed += columns[body...]
    return windowed
  }

  /// One break standing for `columns`, counting the events they hold.
  func elided(_ columns: ArraySlice<Column>) -> Column {
    var lower = Int.max
    var upper = Int.min
    for column in columns {
      switch column {
      case .frame(let frame):
        lower = min(lower, frame)
        upper = max(upper, frame)
      case .gap(let range, _):
        lower = min(lower, range.lowerBound)
        upper = max(upper, range.upperBound)
      }
    }
    var hidden = 0
    for lane in picture.lanes {
      hidden += lane.items.count { (lower...upper).contains($0.frame) }
    }
    return .gap(lower...upper, hiddenEvents: max(hidden, 1))
  }

  func captionLines(_ columns: [Column]) -> [String] {
    var lines = picture.notes
    for column in columns {
      guard case .gap(let range, let hidden) = column, hidden > 0 else { continue }
      lines.append(
        "Frames \(range.lowerBound)–\(range.upperBound) are not shown (\(hidden) "
          + "event\(hidden == 1 ? "" : "s")).")
    }
    if columns.contains(where: { if case .gap(_, 0) = $0 { true } else { false } }) {
      lines.append("≈ +n: n frames in which nothing happens.")
    }
    return lines
  }

  // MARK: Lanes

  static func gutterWidth(_ lanes: [MarbleLane]) -> Int {
    let longest = lanes.map(\.title.count).max() ?? 0
    return margin + max(4, min(longest, 40)) * characterWidth + 16
  }

  /// A lane is taller when events stack at one frame or subscriptions overlap.
  static func height(of lane: MarbleLane) -> Int {
    var perFrame: [Int: Int] = [:]
    for event in lane.items { perFrame[event.frame, default: 0] += 1 }
    let stacked = max(perFrame.values.max() ?? 1, lane.subscriptions.count)
    return laneHeight + max(0, stacked - 1) * stackStep
  }

  func drawTimeline(
    _ lane: MarbleLane, middle: Int, from start: Int, to end: Int, into body: inout SVGText
  ) {
    let dash: String? = lane.role == .expected ? "6 4" : nil
    let color = lane.role == .subscriptions ? "#BBBBBB" : "#444444"
    body.line(x1: start, y1: middle, x2: end, y2: middle, stroke: color, width: 1.5, dash: dash)
    body.path(
      "M \(end - 6) \(middle - 4) L \(end) \(middle) L \(end - 6) \(middle + 4)", stroke: color)
  }

  func drawSubscriptions(
    _ lane: MarbleLane, middle: Int, x: (Int) -> Int, into body: inout SVGText
  ) {
    for (index, subscription) in lane.subscriptions.enumerated() {
      let y = middle - index * Self.stackStep
      let left = x(subscription.subscribed)
      let right = subscription.disposed.map(x)
      let endX = right ?? (left + 2 * Self.columnWidth)
      var tooltip = "subscribed at frame \(subscription.subscribed)"
      if let disposed = subscription.disposed { tooltip += ", disposed at frame \(disposed)" }
      body.open("g", title: tooltip)
      body.line(x1: left, y1: y, x2: endX, y2: y, stroke: "#0072B2", width: 3)
      body.line(x1: left, y1: y - 8, x2: left, y2: y + 8, stroke: "#0072B2", width: 3)
      if right != nil {
        body.line(x1: endX, y1: y - 8, x2: endX, y2: y + 8, stroke: "#0072B2", width: 3)
      } else {
        body.path(
          "M \(endX - 6) \(y - 5) L \(endX) \(y) L \(endX - 6) \(y + 5)", stroke: "#0072B2",
          width: 3)
      }
      body.close("g")
    }
  }

  /// Draws the lane's marks at the frames shown; the ones in a left-out stretch are counted in
  /// its break instead.
  func drawEvents(
    _ lane: MarbleLane, middle: Int, shown: [Int: Int], x: (Int) -> Int, into body: inout SVGText
  ) {
    var stackAt: [Int: Int] = [:]
    for event in lane.items where shown[event.frame] != nil {
      let level = stackAt[event.frame, default: 0]
      stackAt[event.frame] = level + 1
      let centerX = x(event.frame)
      let centerY = middle - level * Self.stackStep
      switch event.mark {
      case .value(let text):
        let (fill, ink) = Self.colors(for: text)
        body.open("g", title: "\(text) at frame \(event.frame)")
        body.circle(
          cx: centerX, cy: centerY, r: Self.radius, fill: fill, stroke: "#222222",
          dash: lane.role == .expected ? "3 2" : nil)
        body.text(Self.shortLabel(text), x: centerX, y: centerY + 4, size: 11, fill: ink)
        body.close("g")
      case .completed:
        body.open("g", title: "completed at frame \(event.frame)")
        body.line(
          x1: centerX, y1: centerY - 11, x2: centerX, y2: centerY + 11, stroke: "#222222",
          width: 3)
        body.close("g")
      case .error(let description):
        body.open("g", title: "error \(description) at frame \(event.frame)")
        body.line(
          x1: centerX - 8, y1: centerY - 8, x2: centerX + 8, y2: centerY + 8, stroke: "#D00000",
          width: 3)
        body.line(
          x1: centerX - 8, y1: centerY + 8, x2: centerX + 8, y2: centerY - 8, stroke: "#D00000",
          width: 3)
        body.close("g")
      }
    }
  }

  /// At most three characters in a circle; the tooltip has the rest.
  static func shortLabel(_ text: String) -> String {
    text.count <= 3 ? text : String(text.prefix(2)) + "…"
  }

  /// The fill colour of a value, from its text (so equal values match), and a text colour that
  /// reads on it. The Okabe–Ito palette, which colour-blind readers can tell apart.
  static func colors(for text: String) -> (fill: String, ink: String) {
    let palette: [(String, String)] = [
      ("#E69F00", "#000000"), ("#56B4E9", "#000000"), ("#009E73", "#FFFFFF"),
      ("#F0E442", "#000000"), ("#0072B2", "#FFFFFF"), ("#D55E00", "#FFFFFF"),
      ("#CC79A7", "#000000"), ("#BBBBBB", "#000000"),
    ]
    // FNV-1a over the UTF-8 bytes: stable across runs and machines, unlike `Hasher`.
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
      hash ^= UInt64(byte)
      hash &*= 0x100_0000_01b3
    }
    return palette[Int(hash % UInt64(palette.count))]
  }
}
