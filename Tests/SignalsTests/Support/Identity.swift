import Signals

/// Whether two disposables are the same object (`===` after casting to `AnyObject`).
///
/// A helper rather than `#expect(a as AnyObject === b as AnyObject)`, which crashes the Swift 6.3
/// compiler inside the macro expansion.
func isSameObject(_ lhs: (any Disposable)?, _ rhs: (any Disposable)?) -> Bool {
  guard let lhs, let rhs else { return false }
  return (lhs as AnyObject) === (rhs as AnyObject)
}
