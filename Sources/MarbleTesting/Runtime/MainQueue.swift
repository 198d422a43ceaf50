import Dispatch

/// Whether this thread is serving the main queue.
enum MainQueue {
  private static let key: DispatchSpecificKey<UInt8> = {
    let key = DispatchSpecificKey<UInt8>()
    DispatchQueue.main.setSpecific(key: key, value: 1)
    return key
  }()

  /// Whether the current queue is the main queue (the main thread counts, where it runs code).
  static var isCurrent: Bool {
    DispatchQueue.getSpecific(key: key) != nil
  }
}
