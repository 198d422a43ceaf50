// The checks `make docs` runs on what it built, with the interpreter: `swift scripts/docs-check.swift
// OUT MODULE…`, where OUT is the folder holding graphs/MODULE/*.symbols.json (the symbol graphs
// given to docc) and MODULE.doccarchive (what docc made of them).
//
// 1. Every public symbol is documented: a symbol of a graph (not an extension block) without a doc
//    comment of its own is listed. The graphs are made with --skip-inherited-docs, so a protocol's
//    comment does not count for the members that implement it.
// 2. Every symbol is organized: no landing page leaves a symbol to one of DocC's generated topic
//    sections, and no other page leaves more than `largestGeneratedSection` there. DocC's
//    per-kind sections ("Instance Methods") are fine for a small type; a big one is organized by
//    hand, in the catalog's extension file for it.
//
// Exits 1 and lists every offender if a check fails.
import Foundation

let largestGeneratedSection = 10
let arguments = CommandLine.arguments.dropFirst()
guard let out = arguments.first, arguments.count > 1 else {
  FileHandle.standardError.write(Data("usage: docs-check.swift OUT MODULE…\n".utf8))
  exit(2)
}
let modules = Array(arguments.dropFirst())
let files = FileManager.default

func json(_ path: String) throws -> [String: Any] {
  let data = try Data(contentsOf: URL(fileURLWithPath: path))
  return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
}

var undocumented: [String] = []
var symbolCount = 0
for module in modules {
  let folder = "\(out)/graphs/\(module)"
  for file in try files.contentsOfDirectory(atPath: folder).sorted()
  where file.hasSuffix(".symbols.json") {
    let graph = try json("\(folder)/\(file)")
    for case let symbol as [String: Any] in graph["symbols"] as? [Any] ?? [] {
      let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?"
      if kind == "swift.extension" { continue }
      symbolCount += 1
      let lines = (symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
      let text = lines.compactMap { $0["text"] as? String }.joined()
      if text.trimmingCharacters(in: .whitespaces).isEmpty {
        let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
        let location = (symbol["location"] as? [String: Any])?["uri"] as? String ?? ""
        undocumented.append("\(module).\(path) (\(kind)) \(location)")
      }
    }
  }
}

var unorganized: [String] = []
var pageCount = 0
for module in modules {
  let root = "\(out)/\(module).doccarchive/data/documentation"
  let landing = "\(root)/\(module.lowercased()).json"
  var pages = [landing]
  if let walker = files.enumerator(atPath: "\(root)/\(module.lowercased())") {
    for case let path as String in walker where path.hasSuffix(".json") {
      pages.append("\(root)/\(module.lowercased())/\(path)")
    }
  }
  for page in pages.sorted() {
    pageCount += 1
    let node = try json(page)
    let generated = (node["topicSections"] as? [[String: Any]] ?? []).filter {
      $0["generated"] as? Bool == true
    }
    let count = generated.reduce(0) { $0 + (($1["identifiers"] as? [Any])?.count ?? 0) }
    let limit = page == landing ? 0 : largestGeneratedSection
    if count > limit {
      let titles = generated.compactMap { $0["title"] as? String }.joined(separator: ", ")
      let name = page.dropFirst(root.count + 1).dropLast(".json".count)
      unorganized.append("\(name): \(count) symbols in generated sections (\(titles))")
    }
  }
}

print("docs-check: \(symbolCount) public symbols, \(undocumented.count) undocumented")
undocumented.forEach { print("  undocumented: \($0)") }
print("docs-check: \(pageCount) pages, \(unorganized.count) leaving symbols to DocC's generated sections")
unorganized.forEach { print("  not organized: \($0)") }
exit(undocumented.isEmpty && unorganized.isEmpty ? 0 : 1)
