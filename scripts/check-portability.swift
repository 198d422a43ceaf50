// `make check-portability`: what keeps Marbles source-compatible with every platform its manifest
// names, checked over Sources/ and Tests/ with the interpreter (`swift
// scripts/check-portability.swift [ROOT]`, ROOT being the package root, by default the current
// folder). Apple platforms are written for and not built here; this is what can be checked
// without them.
//
// 1. Import chains: a Swift file that imports one of Glibc, Musl and Darwin imports all three, each
//    under `#if canImport(…)`.
// 2. Nothing is qualified by an OS module's name (`Glibc.read`): the same call is spelled alike
//    on every platform.
// 3. What differs by OS — `pthread_`, `clock_gettime`, `gettid`, `syscall`, `dlsym` — appears only
//    in a module's `Platform.swift` and in the C shims (Sources/C*/), and each of those files
//    that has a Linux branch has a Darwin one (`canImport(Darwin)` or `__APPLE__`).
// 4. Availability matches the manifest: the manifest names macOS 15, and `Task.immediate` and
//    `Observations` need macOS 26, so every use of them sits in a declaration marked
//    `@available(macOS 26…)` or under `if #available(macOS 26…)`; so does every use of a type of
//    this package marked so.
//
// Exits 1 and lists every offender if a check fails.
import Foundation

let osModules = ["Glibc", "Musl", "Darwin"]
let osSpecificNames = ["pthread_", "clock_gettime", "gettid", "syscall", "dlsym"]
let appleNewerAPIs = ["Task.immediate", "Observations {", "Observations("]
let newerAvailability = "available(macOS 26"

let root = CommandLine.arguments.dropFirst().first ?? "."
var offenders: [String] = []

/// The files under `folder` whose names end with one of `suffixes`, sorted.
func files(under folder: String, endingWith suffixes: [String]) -> [String] {
  guard let walker = FileManager.default.enumerator(atPath: root + "/" + folder) else { return [] }
  return walker.compactMap { $0 as? String }
    .filter { name in suffixes.contains { name.hasSuffix($0) } }
    .sorted()
    .map { folder + "/" + $0 }
}

/// `line` as code: a comment line is empty, and the text of one-line string literals is blanked
/// (a test's expected messages name what they check).
func code(_ line: Substring) -> Substring {
  let trimmed = line.drop { $0 == " " }
  if trimmed.hasPrefix("//") || trimmed.hasPrefix("*") || trimmed.hasPrefix("/*") { return "" }
  guard line.contains("\""), !line.contains("\"\"\"") else { return line }
  var result = ""
  var inString = false
  var escaped = false
  for character in line {
    if inString {
      if escaped {
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == "\"" {
        inString = false
        result.append(character)
      }
      continue
    }
    if character == "\"" { inString = true }
    result.append(character)
  }
  return Substring(result)
}

func indentation(_ line: Substring) -> Int { line.prefix { $0 == " " }.count }

/// Whether the use on line `index` of `lines` sits in a declaration marked `@available(macOS 26…)`
/// or under an `if #available(macOS 26…)`: walks up through the constructs that enclose it, each a
/// line less indented than the last, and looks at each one and the attributes right above it.
func isMarkedNewer(_ lines: [Substring], at index: Int) -> Bool {
  var limit = indentation(lines[index])
  var row = index
  while row > 0, limit > 0 {
    row -= 1
    let line = code(lines[row])
    guard !line.allSatisfy({ $0 == " " }) else { continue }
    let indent = indentation(line)
    guard indent < limit else { continue }
    let text = line.drop { $0 == " " }
    if text.hasPrefix(")") || text.hasPrefix("}") || text.hasPrefix("]") {
      // The end of a multi-line signature, or an `} else {`: the construct begins higher up.
      limit = indent + 1
      continue
    }
    if line.contains(newerAvailability) { return true }
    var attribute = row - 1
    while attribute >= 0, indentation(lines[attribute]) == indent,
      lines[attribute].drop(while: { $0 == " " }).hasPrefix("@")
    {
      if lines[attribute].contains(newerAvailability) { return true }
      attribute -= 1
    }
    limit = indent
  }
  return false
}

let swiftFiles =
  files(under: "Sources", endingWith: [".swift"]) + files(under: "Tests", endingWith: [".swift"])

/// The types this package marks `@available(macOS 26…)`: the attribute, then (past other
/// attributes) the declaration.
let newerTypes: [String] = swiftFiles.flatMap { path -> [String] in
  guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8) else {
    return []
  }
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
  return lines.indices.compactMap { index -> String? in
    guard lines[index].contains("@" + newerAvailability) else { return nil }
    var row = index
    while row < lines.count, lines[row].drop(while: { $0 == " " }).hasPrefix("@") {
      let words = lines[row].split(separator: " ")
      if let kind = words.firstIndex(where: { ["class", "struct", "enum", "actor"].contains($0) }),
        kind + 1 < words.count
      {
        return String(words[kind + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
      }
      row += 1
    }
    guard row < lines.count else { return nil }
    let words = lines[row].split(separator: " ")
    guard
      let kind = words.firstIndex(where: { ["class", "struct", "enum", "actor"].contains($0) }),
      kind + 1 < words.count
    else { return nil }
    return String(words[kind + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
  }
}
let newerAPIs = appleNewerAPIs + newerTypes.map { $0 + "(" }

for path in swiftFiles {
  guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8) else { continue }
  let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
  let isPlatformFile = path.hasSuffix("/Platform.swift")

  // 1. Import chains.
  let imported = osModules.filter { module in
    lines.contains { $0.trimmingCharacters(in: .whitespaces) == "import \(module)" }
  }
  if !imported.isEmpty {
    for module in osModules {
      let guarded = lines.contains { $0.contains("canImport(\(module))") }
      let imports = lines.contains { $0.trimmingCharacters(in: .whitespaces) == "import \(module)" }
      if !guarded || !imports {
        offenders.append(
          "\(path): imports \(imported.joined(separator: ", ")) but not \(module) under "
            + "#if canImport(\(module))")
      }
    }
  }

  var inMultilineString = false
  for (index, line) in lines.enumerated() {
    // The lines of a multi-line string literal are text, not code.
    let delimiters = line.ranges(of: "\"\"\"").count
    defer { if delimiters % 2 == 1 { inMultilineString.toggle() } }
    guard !inMultilineString, delimiters == 0 else { continue }
    let code = code(line)
    guard !code.isEmpty else { continue }
    let place = "\(path):\(index + 1)"
    // 2. Names qualified by an OS module.
    for module in osModules where code.contains("\(module).") {
      let qualified = code.ranges(of: "\(module).").contains { range in
        range.lowerBound == code.startIndex
          || !(code[code.index(before: range.lowerBound)].isLetter
            || code[code.index(before: range.lowerBound)] == "(")
      }
      if qualified, !code.contains("import \(module)") {
        offenders.append("\(place): a name qualified by \(module) — spell it alike everywhere")
      }
    }
    // 3. OS-specific calls outside the Platform files.
    if !isPlatformFile {
      for name in osSpecificNames where code.contains(name) {
        offenders.append("\(place): \(name) belongs in the module's Platform.swift")
      }
    }
    // 4. Newer API without its availability.
    for api in newerAPIs where code.contains(api) && !isMarkedNewer(lines, at: index) {
      offenders.append(
        "\(place): \(api) needs macOS 26, but the manifest says macOS 15: mark the declaration "
          + "@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)")
      break
    }
  }

  // 3. A Platform file with a Linux branch has a Darwin one.
  if isPlatformFile, text.contains("canImport(Glibc)") || text.contains("os(Linux)"),
    !text.contains("canImport(Darwin)") && !text.contains("os(macOS)")
  {
    offenders.append("\(path): a Linux branch without a Darwin twin")
  }
}

// 3. The C shims: a Linux branch has an Apple twin.
for path in files(under: "Sources", endingWith: [".c", ".h"]) {
  guard let text = try? String(contentsOfFile: root + "/" + path, encoding: .utf8) else { continue }
  let usesLinux =
    text.contains("__linux__") || text.contains("RTLD_NEXT")
    || text.contains("SYS_clock_gettime")
  if usesLinux, !text.contains("__APPLE__") {
    offenders.append("\(path): a Linux branch without a Darwin (__APPLE__) twin")
  }
}

if offenders.isEmpty {
  print("check-portability: ok")
} else {
  FileHandle.standardError.write(
    Data(
      ("check-portability: \(offenders.count) offenders\n" + offenders.joined(separator: "\n")
        + "\n").utf8))
  exit(1)
}
