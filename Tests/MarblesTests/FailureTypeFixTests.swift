import MarbleTesting
import Marbles
import Signals
import TestSupport
import Testing

/// `hot()` and `cold()` take their failure type from where they are used (issue 49.2): written
/// where a signal that cannot fail is needed, they are `Never`; declared on a `let` of their own
/// without a type, they are ``TestError`` — and code that then needs `Never` gets the compiler's
/// error with the fix in it, not "requires the types 'TestError' and 'Never' be equivalent".
@Suite struct FailureTypeFixTests {
  /// The code under test: it takes typed text that cannot fail.
  static func uppercased(_ typed: some SignalProtocol<String, Never>) -> Signal<String, Never> {
    typed.map { $0.uppercased() }
  }

  @Test func written_whereANeverSignalIsNeeded_hotAndColdAreNever() throws {
    let scheduler = TestScheduler()
    let recorder = scheduler.record(Self.uppercased(try scheduler.hot("--a--b--")))
    let later = scheduler.record(Signal<String, Never>.empty.concat(try scheduler.cold("-c|")))
    scheduler.run()
    assertEvents(recorder, [.next(2, "A"), .next(5, "B")])
    assertEvents(later, [.next(1, "c"), .completed(2)])
    // The expected events, drawn in the call: `Never` as the recorder's.
    assertEvents(later, try scheduler.cold("-c|").events)
  }

  @Test func theUsersLine_annotated_isNever() throws {
    let scheduler = TestScheduler()
    let typed: TestSignal<String, Never> = try scheduler.hot("--a--b--")
    let recorder = scheduler.record(Self.uppercased(typed))
    scheduler.run()
    assertEvents(recorder, [.next(2, "A"), .next(5, "B")])
  }

  /// The user's code, pasted into a test file: each misuse is a compile error whose message says
  /// what to write.
  @Test(arguments: [
    "assertEvents(recorder, typed.events)",
    "_ = Signal<String, Never>.never.merge(typed)",
    "_ = Signal<String, Never>.never.concat(typed)",
    "_ = Signal<String, Never>.never.combineLatest(typed)",
    "_ = Signal<String, Never>.never.zip(typed)",
    "_ = typed.merge(Signal<String, Never>.never)",
    "_ = typed.combineLatest(Signal<String, Never>.never)",
  ])
  func theUsersLine_usedAsNever_namesTheFix(_ use: String) async throws {
    let source = """
      import MarbleTesting
      import Marbles
      import Signals
      import Testing

      @Test func typing() throws {
        let scheduler = TestScheduler()
        let typed = try scheduler.hot("--a--b--")
        let recorder = scheduler.record(Signal<String, Never>.never)
        \(use)
        _ = recorder
      }
      """
    let (status, output) = try await typecheck([("Typing.swift", source)])
    #expect(status != 0, "\(output)")
    #expect(output.contains("Typing.swift:10:"), "\(output)")
    #expect(output.contains("TestSignal<String, Never> = try scheduler."), "\(output)")
    #expect(!output.contains("be equivalent"), "\(output)")
  }

  /// The check itself: the same file with the annotation compiles.
  @Test func theUsersLine_annotated_compiles() async throws {
    let source = """
      import MarbleTesting
      import Marbles
      import Signals
      import Testing

      @Test func typing() throws {
        let scheduler = TestScheduler()
        let typed: TestSignal<String, Never> = try scheduler.hot("--a--b--")
        let recorder = scheduler.record(Signal<String, Never>.never.merge(typed))
        assertEvents(recorder, typed.events)
      }
      """
    let (status, output) = try await typecheck([("Typing.swift", source)])
    #expect(status == 0, "\(output)")
  }
}
