// Scratch files for the record-mode tests: a folder of each test's own, so that two runs of the
// tests (or two tests of one run) never write to the same file.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A new, empty folder of its own under `/tmp` (`/tmp/marbles-<name>-XXXXXX`).
///
/// - Parameter name: A word for what it is for, in its name.
/// - Returns: Its absolute path, with every symbolic link resolved.
public func makeScratchFolder(_ name: String) -> String {
  var template = Array("/tmp/marbles-\(name)-XXXXXX".utf8CString)
  let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  precondition(made != nil, "cannot make a folder under /tmp")
  let real = realpath(made!, nil)!
  defer { free(real) }
  return String(cString: real)
}

/// Removes the folder at `path` and everything in it.
public func removeScratchFolder(_ path: String) {
  for name in filesIn(path) {
    var status = stat()
    let entry = path + "/" + name
    if lstat(entry, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
      removeScratchFolder(entry)
    } else {
      unlink(entry)
    }
  }
  rmdir(path)
}

/// Makes the folder at `path` and the folders above it that are missing.
public func makeFolders(_ path: String) {
  var made = ""
  for part in path.split(separator: "/") {
    made += "/" + part
    mkdir(made, 0o755)
  }
}

/// The names of the entries of the folder at `path`, `.` and `..` left out, sorted.
public func filesIn(_ path: String) -> [String] {
  guard let folder = opendir(path) else { return [] }
  defer { closedir(folder) }
  var names: [String] = []
  while let entry = readdir(folder) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
      String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
    if name != ".", name != ".." { names.append(name) }
  }
  return names.sorted()
}

/// Writes `text` to a new or emptied file at `path`, with `mode`.
public func writeFile(_ text: String, to path: String, mode: Int = 0o644) {
  let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode_t(mode))
  precondition(descriptor >= 0, "cannot write \(path)")
  defer { close(descriptor) }
  let bytes = Array(text.utf8)
  var written = 0
  while written < bytes.count {
    let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    precondition(count > 0, "cannot write \(path)")
    written += count
  }
}

/// The text of the file at `path` (`nil` if it cannot be read).
public func readFile(_ path: String) -> String? {
  let descriptor = open(path, O_RDONLY)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { break }
    bytes += buffer[..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// What `lstat` says of `path`: whether it is a symbolic link, and its permission bits.
public func fileKind(_ path: String) -> (isSymbolicLink: Bool, mode: Int)? {
  var status = stat()
  guard lstat(path, &status) == 0 else { return nil }
  return ((status.st_mode & S_IFMT) == S_IFLNK, Int(status.st_mode & 0o7777))
}

/// Makes a symbolic link at `path` to `target`.
public func makeSymbolicLink(_ path: String, to target: String) {
  precondition(symlink(target, path) == 0, "cannot link \(path)")
}
