/// A disposable that disposes a group of disposables together.
///
/// Once the compound is disposed, anything added to it is disposed at once, so a late-arriving
/// resource can never outlive the subscription it belongs to.
public final class CompoundDisposable: Disposable {
  /// The children while active; `nil` once disposed.
  private let children: Locked<[any Disposable]?>

  /// Creates a compound holding `disposables`.
  ///
  /// - Parameter disposables: The initial children.
  public init(_ disposables: [any Disposable] = []) {
    children = Locked(disposables)
  }

  /// Adds a child, or disposes it at once if the compound is already disposed.
  ///
  /// - Parameter disposable: The child to dispose together with the compound.
  public func add(_ disposable: any Disposable) {
    let added = children.withLock { children -> Bool in
      guard children != nil else { return false }
      children!.append(disposable)
      return true
    }
    if !added { disposable.dispose() }
  }

  /// Adds a child that runs `action` when the compound is disposed.
  ///
  /// - Parameter action: The cleanup to run once.
  public func add(_ action: @escaping @Sendable () -> Void) {
    add(AnyDisposable(action))
  }

  /// Lets go of the child that is the object `id` names, without disposing it: it has ended.
  ///
  /// O(n) in the number of children; a compound that prunes its finished children stays small.
  func remove(_ id: ObjectIdentifier) {
    let removed = children.withLock { children -> (any Disposable)? in
      guard
        let index = children?.lastIndex(where: { child in
          type(of: child) is AnyClass && ObjectIdentifier(child as AnyObject) == id
        })
      else { return nil }
      return children!.remove(at: index)
    }
    // NB: released outside the lock.
    _ = removed
  }

  /// Disposes every child, in the order they were added. Later calls do nothing.
  public func dispose() {
    let disposed = children.withLock { children -> [any Disposable] in
      defer { children = nil }
      return children ?? []
    }
    for child in disposed { child.dispose() }
  }

  /// Whether the compound has been disposed.
  public var isDisposed: Bool {
    children.withLock { $0 == nil }
  }
}
