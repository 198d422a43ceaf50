/// The equatable error the tests send and expect.
struct TestFailure: Error, Equatable {
  var message = "boom"
}
