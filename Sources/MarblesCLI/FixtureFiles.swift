#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation  // Apple platforms, where FoundationEssentials is part of Foundation.
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finding and reading fixture files: the only part of `marbles` that touches the file system.
///
/// A path named on the command line may be a file (run whatever its extension) or a folder
/// (every `*.marbles` file inside it, recursively, sorted by path). Inside a folder, names that
/// start with `.` are skipped (so `marbles .` does not wander into `.build`), and a symbolic link
/// to a folder is not followed (so a link cycle cannot loop); a link to a file is read.
enum FixtureFiles {
  /// The extension of a fixture file.
  static let fileExtension = ".marbles"

  /// A path that could not be used, and why.
  struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The path as written.
    var path: String
    /// Why it could not be used.
    var reason: String

    /// `marbles: <path>: <reason>`.
    var description: String { "marbles: \(path): \(reason)" }
  }

  /// The fixture files the paths name, in order: each path's files in path order, a file named
  /// twice only once.
  ///
  /// - Parameter paths: Files and folders, as written on the command line.
  /// - Returns: For each path in turn, its files or the problem with it. A file's path is the
  ///   path as written, joined with its place inside the folder (`Fixtures/seed.marbles`), so
  ///   messages point where the user looks.
  static func expand(_ paths: [String]) -> [Result<[String], Problem>] {
    var seen: Set<String> = []
    return paths.map { path in
      switch kind(of: path) {
      case nil:
        return .failure(Problem(path: path, reason: "no such file or folder"))
      case .file?:
        return .success(seen.insert(path).inserted ? [path] : [])
      case .folder?:
        do throws(Problem) {
          let files = try fixtures(in: path)
          guard !files.isEmpty else {
            return .failure(Problem(path: path, reason: "no *.marbles files in this folder"))
          }
          return .success(files.filter { seen.insert($0).inserted })
        } catch {
          return .failure(error)
        }
      }
    }
  }

  /// Writes `text` to `path` (a report or a picture), replacing what is there.
  ///
  /// - Parameters:
  ///   - text: What to write.
  ///   - path: The file.
  /// - Throws: ``Problem`` if it cannot be written.
  static func write(_ text: String, to path: String) throws(Problem) {
    do {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    } catch {
      throw Problem(path: path, reason: reason(for: error))
    }
  }

  /// The text of a fixture file.
  ///
  /// - Parameter path: The file.
  /// - Returns: Its contents.
  /// - Throws: ``Problem`` if it cannot be read or is not UTF-8 text.
  static func read(_ path: String) throws(Problem) -> String {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw Problem(path: path, reason: reason(for: error))
    }
    guard let text = String(validating: data, as: UTF8.self) else {
      throw Problem(path: path, reason: "not UTF-8 text")
    }
    return text
  }

  /// The operating system's words for why a file operation failed (`Permission denied`), when
  /// Foundation's error carries them.
  private static func reason(for error: any Error) -> String {
    if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
      return String(cString: strerror(posix.code.rawValue))
    }
    return "\(error)"
  }

  /// What is at a path, following symbolic links.
  private enum Kind { case file, folder }

  /// What is at `path`, following symbolic links; nil when nothing is.
  private static func kind(of path: String) -> Kind? {
    #if canImport(Darwin)
      var isFolder: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
      return isFolder.boolValue ? .folder : .file
    #else
      var isFolder = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
      return isFolder ? .folder : .file
    #endif
  }

  /// Every `*.marbles` file under `folder`, recursively, sorted by path.
  private static func fixtures(in folder: String) throws(Problem) -> [String] {
    var found: [String] = []
    var pending = [folder]
    while let current = pending.popLast() {
      let names: [String]
      do {
        names = try FileManager.default.contentsOfDirectory(atPath: current)
      } catch {
        throw Problem(path: current, reason: reason(for: error))
      }
      for name in names where !name.hasPrefix(".") {
        let path = current.hasSuffix("/") ? current + name : current + "/" + name
        let type =
          (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        if type == .typeDirectory {
          pending.append(path)
        } else if name.hasSuffix(fileExtension), name.count > fileExtension.count,
          kind(of: path) == .file
        {
          found.append(path)
        }
      }
    }
    return found.sorted()
  }
}
