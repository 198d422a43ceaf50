// snippet: ProfileRequest.swift
import MarbleTesting
import OpenCombineShim
import Signals

/// The request as an app writes it: a `Future` per subscription (`Deferred`), answered by the
/// API (a cold test signal, which logs each request) three ticks later.
func profileRequest(_ api: TestSignal<String, Never>) -> some Publisher<String, Never> {
  Deferred {
    Future<String, Never> { promise in
      let promise = Unchecked(promise)
      _ = api.subscribe(next: { promise.value(.success($0)) })
    }
  }
}

/// A Combine value, which is not `Sendable`, in a `@Sendable` closure of the test.
///
/// NB: `@unchecked Sendable`: everything here runs on the scheduler's thread.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
// snippet-end
