/// A key of a `values:` map: a `Character`, or a `String` of one character.
///
/// A dictionary literal such as `["x": 10]` written on its own line is a `[String: Int]`, so every
/// `values:` parameter takes either key type:
///
/// ```swift
/// let values = ["x": 10, "y": 20]        // [String: Int]
/// assertMarbles(recorder, "-x-y|", values: values)
/// ```
///
/// A `String` key longer than one character cannot be drawn in a marble: it is a
/// ``MarbleSyntaxError`` that names the key (thrown, or reported by the assertion).
public protocol MarbleValueKey: Hashable {
  /// The marble character this key names, or `nil` if it is not one character.
  var marbleCharacter: Character? { get }
}

extension Character: MarbleValueKey {
  /// The character itself.
  public var marbleCharacter: Character? { self }
}

extension String: MarbleValueKey {
  /// The string's one character, or `nil` if it has more or fewer.
  public var marbleCharacter: Character? { count == 1 ? first : nil }
}

extension Marble {
  /// `values` keyed by the characters its keys name.
  ///
  /// - Parameters:
  ///   - values: A `values:` map keyed by characters or one-character strings.
  ///   - marbles: The marble the map belongs to, quoted in the error.
  /// - Returns: The same map, keyed by `Character`.
  /// - Throws: ``MarbleSyntaxError`` naming a key that is not one character.
  public static func characterKeyed<Key: MarbleValueKey, Value>(
    _ values: [Key: Value], for marbles: String = ""
  ) throws(MarbleSyntaxError) -> [Character: Value] {
    if let values = values as? [Character: Value] { return values }
    var keyed: [Character: Value] = [:]
    for key in values.keys.sorted(by: { "\($0)" < "\($1)" }) {
      guard let character = key.marbleCharacter else {
        let text = "\(key)"
        throw MarbleSyntaxError(
          message: "the values: key \(String(reflecting: text)) is \(text.count) characters; a "
            + "key of values: is the one character a marble draws",
          line: 1, column: 1, sourceLine: marbles)
      }
      keyed[character] = values[key]
    }
    return keyed
  }
}

extension AnyHashable: MarbleValueKey {
  /// The character a `Character` or one-character `String` key names; what an empty map
  /// (`values: [:]`), whose key type nothing else decides, is keyed by.
  public var marbleCharacter: Character? {
    if let character = base as? Character { return character }
    return (base as? String)?.marbleCharacter
  }
}
