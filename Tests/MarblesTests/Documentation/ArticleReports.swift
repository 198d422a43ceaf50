/// The reports an article shows as text listings, for the tests that make them to check against:
/// a report in an article is what the code prints today, not what it printed once.
enum ArticleReports {
  /// The lines of the text listing of `article` (a path from the package's root) whose first line
  /// begins with `firstLine`, after that first line (which names where the issue was recorded, a
  /// line that moves whenever its file changes); `nil` when there is none.
  static func report(in article: String, startingWith firstLine: String) -> String? {
    let listing = ArticleListingsTests.listings(in: article).first {
      $0.language == "text" && $0.lines.first?.hasPrefix(firstLine) == true
    }
    return listing.map { $0.lines.dropFirst().joined(separator: "\n") }
  }
}
