import MarbleTesting
import Marbles
import Signals
import Testing

/// RxJS 7.8.2 specs of `map`, `filter`, `take`, `skip`, `debounceTime` and
/// `distinctUntilChanged`, ported by the rules of the Porting article (see `RxJSPorting.swift`); each test names its spec file.
@Suite struct BasicOperatorSpecTests {
  /// `spec/operators/map-spec.ts` it('should map multiple values')
  // snippet: porting-rxjs
  @Test func mapMapsMultipleValues() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.cold(" --1--2--3--|")
    let e1subs = "  ^----------!"
    let expected = "--x--y--z--|"
    let result = e1.map { 10 * Int($0)! }
    scheduler.expect(result).toBe(expected, values: ["x": 10, "y": 20, "z": 30])
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }
  // snippet-end

  /// `spec/operators/map-spec.ts` it('should propagate errors from map function') — a throwing
  /// `map` is `tryMap`; the thrown `'too bad'` is `TestError("too bad")`.
  @Test func mapPropagatesErrorsFromTheMapFunction() throws {
    let scheduler = TestScheduler()
    let values: [Character: Int] = ["x": 42]
    let e1 = try scheduler.cold(" --x--|", values: values)
    let e1subs = "  ^-!   "
    let expected = "--#   "
    let result = e1.tryMap { (_) throws(TestError) -> Int in throw TestError("too bad") }
    scheduler.expect(result).toBe(
      expected, values: [:] as [Character: Int], error: TestError("too bad"))
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// `spec/operators/filter-spec.ts` it('should filter in only prime numbers')
  @Test func filterKeepsOnlyPrimeNumbers() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("-1--2--^-3-4-5-6--7-8--9--|")
    let e1subs = "       ^------------------!"
    let expected = "     --3---5----7-------|"
    scheduler.expect(e1.filter { isPrime(Int($0)!) }).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// `spec/operators/filter-spec.ts` it('should filter in only prime numbers, source unsubscribes
  /// early')
  @Test func filterKeepsOnlyPrimeNumbersUnsubscribedEarly() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("-1--2--^-3-4-5-6--7-8--9--|")
    let e1subs = "       ^-----------!       "
    let expected = "     --3---5----7-       "
    let unsub = "        ------------!       "
    scheduler.expect(e1.filter { isPrime(Int($0)!) }, subscription: unsub).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// `spec/operators/take-spec.ts` it('should take two values of an observable with many values')
  @Test func takeTakesTwoValues() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.cold(" --a-----b----c---d--|")
    let e1subs = "  ^-------!------------"
    let expected = "--a-----(b|)         "
    scheduler.expect(e1.take(2)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// `spec/operators/take-spec.ts` it('should be empty on take(0)')
  @Test func takeZeroIsEmpty() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("--a--^--b----c---d--|")
    let expected = "   |"
    scheduler.expect(e1.take(0)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe()  // Don't subscribe at all
    scheduler.flush()
  }

  /// `spec/operators/take-spec.ts` it('should be empty if provided with negative value')
  @Test func takeWithANegativeCountIsEmpty() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.cold(" --a-----b----c---d--|")
    let expected = "|"
    scheduler.expect(e1.take(-42)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe()  // Don't subscribe at all
    scheduler.flush()
  }

  /// `spec/operators/skip-spec.ts` it('should skip values before a total')
  @Test func skipSkipsValuesBeforeATotal() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.hot("--a--b--c--d--e--|")
    let subs = "      ^----------------!"
    let expected = "  -----------d--e--|"
    scheduler.expect(source.skip(3)).toBe(expected)
    scheduler.expectSubscriptions(source).toBe(subs)
    scheduler.flush()
  }

  /// `spec/operators/skip-spec.ts` it('should not skip if count is negative value')
  @Test func skipDoesNotSkipWithANegativeCount() throws {
    let scheduler = TestScheduler()
    let source = try scheduler.cold("--a--b--c--d--e--|")
    let subs = "       ^----------------!"
    let expected = "   --a--b--c--d--e--|"
    scheduler.expect(source.skip(-42)).toBe(expected)
    scheduler.expectSubscriptions(source).toBe(subs)
    scheduler.flush()
  }

  /// `spec/operators/debounceTime-spec.ts` it('should debounce values by 2 time units')
  @Test func debounceTimeDebouncesValuesByTwoTimeUnits() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a--bc--d---|")
    let e1subs = "  ^-----------!"
    let expected = "---a---c--d-|"
    let t = 2  // time('  --|')
    scheduler.expect(e1.debounce(.milliseconds(t), on: scheduler)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// `spec/operators/debounceTime-spec.ts` it('should delay all elements by the specified time')
  @Test func debounceTimeDelaysAllElementsByTheSpecifiedTime() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a--------b------c----|")
    let e1subs = "  ^---------------------!"
    let expected = "------a--------b------(c|)"
    let t = 5  // time('  -----|')
    scheduler.expect(e1.debounce(.milliseconds(t), on: scheduler)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// `spec/operators/debounceTime-spec.ts` it('should debounce and delay element by the specified
  /// time')
  @Test func debounceTimeDebouncesAndDelaysAnElement() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  -a--(bc)-----------d-------|")
    let e1subs = "  ^--------------------------!"
    let expected = "---------c--------------d--|"
    let t = 5  // time('  -----|')
    scheduler.expect(e1.debounce(.milliseconds(t), on: scheduler)).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  /// `spec/operators/distinctUntilChanged-spec.ts` it('should distinguish between values')
  @Test func distinctUntilChangedDistinguishesBetweenValues() throws {
    let scheduler = TestScheduler()
    let e1 = try scheduler.hot("  --a--a--a--b--b--a--|")
    let e1subs = "  ^-------------------!"
    let expected = "--a--------b-----a--|"
    scheduler.expect(e1.distinctUntilChanged()).toBe(expected)
    scheduler.expectSubscriptions(e1).toBe(e1subs)
    scheduler.flush()
  }

  private func isPrime(_ number: Int) -> Bool {
    number > 1 && !(2..<number).contains { number % $0 == 0 }
  }
}
