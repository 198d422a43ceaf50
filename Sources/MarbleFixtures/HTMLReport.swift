package import MarbleTesting

/// One self-contained HTML page for a whole `marbles` run: every scenario with its title, source
/// file, verdict and picture, and for failures the table with its `was` rows and the sentences.
///
/// The page holds its CSS inline and each picture as inline SVG; it has no script and links to
/// nothing, so it can be mailed, archived or opened offline. It is well-formed XML (XHTML with
/// inline SVG), so tools can read it back.
package struct HTMLReport: Sendable {
  /// One scenario's section.
  package struct Entry: Sendable {
    /// The scenario's title.
    package var title: String
    /// Where it is: `path:line`.
    package var location: String
    /// `nil` for a scenario that could not be run (with the error as `text`).
    package var passed: Bool?
    /// The table as run, or the error.
    package var text: String
    /// The picture, if the scenario ran.
    package var picture: MarblePicture?

    package init(
      title: String, location: String, passed: Bool?, text: String, picture: MarblePicture? = nil
    ) {
      self.title = title
      self.location = location
      self.passed = passed
      self.text = text
      self.picture = picture
    }
  }

  /// The sections, in run order.
  package var entries: [Entry] = []
  /// Mistakes in files, reported apart from any scenario.
  package var errors: [String] = []

  package init() {}

  /// The page.
  package func html() -> String {
    let passed = entries.count { $0.passed == true }
    let failed = entries.count { $0.passed == false }
    var page = """
      <!DOCTYPE html>
      <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
      <head>
      <meta charset="utf-8"/>
      <title>Marbles report: \(passed) passed, \(failed) failed</title>
      <style>
      body { font-family: -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; margin: 2em; \
      color: #222; max-width: 1200px; }
      h1 { font-size: 1.5em; }
      section { border: 1px solid #ddd; border-radius: 6px; padding: 0.8em 1em; margin: 1em 0; }
      section.fail { border-color: #D00000; }
      h2 { font-size: 1.1em; margin: 0 0 0.3em 0; }
      .verdict { font-weight: bold; padding: 0.1em 0.5em; border-radius: 4px; margin-right: 0.5em; }
      .pass { background: #E3F4EA; color: #0B6E3B; }
      .fail .verdict, .verdict.fail { background: #FBE3E3; color: #A00000; }
      .location { color: #666; font-family: monospace; font-size: 0.9em; }
      .picture { overflow-x: auto; margin: 0.5em 0; }
      pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
      </style>
      </head>
      <body>
      <h1>Marbles: \(passed) passed, \(failed) failed\(errors.isEmpty ? "" : ", \(errors.count) \(errors.count == 1 ? "error" : "errors")")</h1>

      """
    for error in errors {
      page += "<section class=\"fail\"><h2><span class=\"verdict fail\">ERROR</span></h2>"
      page += "<pre>\(Self.escape(error))</pre></section>\n"
    }
    for entry in entries {
      let verdict =
        switch entry.passed {
        case true?: "PASS"
        case false?: "FAIL"
        case nil: "ERROR"
        }
      let style = entry.passed == true ? "pass" : "fail"
      page += "<section class=\"\(style)\">\n"
      page +=
        "<h2><span class=\"verdict \(style)\">\(verdict)</span>\(Self.escape(entry.title))</h2>\n"
      page += "<div class=\"location\">\(Self.escape(entry.location))</div>\n"
      if let picture = entry.picture {
        page += "<div class=\"picture\">\n\(picture.svg(standalone: false))</div>\n"
      }
      if entry.passed != true {
        page += "<pre>\(Self.escape(entry.text))</pre>\n"
      }
      page += "</section>\n"
    }
    page += "</body>\n</html>\n"
    return page
  }

  /// `text` escaped for the page, which is well-formed XML.
  static func escape(_ text: String) -> String {
    SVGText.escape(text)
  }

}
