import MarbleFixtures
import MarbleTesting
import Signals
import Testing

/// The pipeline steps whose operators change the value type: `combineLatest`, `zip`, `buffer`,
/// `materialize` and `groupBy`, each read, rejected when its arguments are wrong, and run.
@Suite struct TypeChangingStepsTests {
  func steps(_ text: String) throws -> [PipelineStep] {
    try Pipeline.parse(text, sourceLabels: ["src", "nums"]).steps
  }

  /// The first line of the error a fixture's text gives, or "no error".
  func error(_ pipeline: String) -> String {
    do {
      let file = try Fixtures.parse(
        "title: t\npipeline: \(pipeline)\nsrc   cold  -a|\nnums  cold  -1|", path: "f.marbles")
      for scenario in file.scenarios { _ = try Fixtures.run(scenario) }
      return "no error"
    } catch {
      return "\(error)".split(separator: "\n").first.map(String.init) ?? ""
    }
  }

  func run(_ text: String) throws -> ScenarioResult {
    let scenario = try #require(try Fixtures.parse(text, path: "t.marbles").scenarios.first)
    return try Fixtures.run(scenario)
  }

  // MARK: Reading

  @Test func readsEachStep() throws {
    #expect(try steps("src | combineLatest(nums)") == [.combineLatest("nums")])
    #expect(try steps("src | zip(nums)") == [.zip("nums")])
    #expect(try steps("src | buffer(3)") == [.buffer(3, count: .max)])
    #expect(try steps("src | buffer(3, 2)") == [.buffer(3, count: 2)])
    #expect(try steps("src | buffer(0 1)") == [.buffer(0, count: 1)])
    #expect(try steps("src | materialize") == [.materialize])
    #expect(try steps("src | groupBy(lower merge)") == [.groupByLowercased(.merge)])
    #expect(try steps("src | groupBy(lower concat)") == [.groupByLowercased(.concat)])
    #expect(
      try steps("src | groupBy(lower latest) | zip(src)") == [
        .groupByLowercased(.latest), .zip("src"),
      ])
  }

  @Test func badArgumentsArePositionedAtTheirLineAndColumn() {
    #expect(
      error("src | combineLatest(other)")
        == "f.marbles:2:31: 'other' is not a source of this table; its sources are nums, src")
    #expect(
      error("src | combineLatest")
        == "f.marbles:2:17: 'combineLatest' needs an argument: combineLatest(label)")
    #expect(
      error("src | zip()") == "f.marbles:2:17: 'zip' needs an argument: zip(label)")
    #expect(
      error("src | zip(nope)")
        == "f.marbles:2:21: 'nope' is not a source of this table; its sources are nums, src")
    let bufferUsage =
      "'buffer' takes T frames and optionally a count N of one or more: buffer(3) or buffer(3, 2)"
    #expect(error("src | buffer(3, 0)") == "f.marbles:2:24: " + bufferUsage)
    #expect(error("src | buffer(x)") == "f.marbles:2:24: " + bufferUsage)
    #expect(error("src | buffer(-1)") == "f.marbles:2:24: " + bufferUsage)
    #expect(error("src | buffer(1, 2, 3)") == "f.marbles:2:24: " + bufferUsage)
    #expect(
      error("src | buffer")
        == "f.marbles:2:17: 'buffer' needs an argument: buffer(T) or buffer(T, N)")
    #expect(error("src | materialize(x)") == "f.marbles:2:28: 'materialize' takes no arguments")
    let groupByUsage =
      "groupBy takes the key 'lower' and a strategy (merge, concat or latest): groupBy(lower merge)"
    #expect(error("src | groupBy(upper merge)") == "f.marbles:2:25: " + groupByUsage)
    #expect(error("src | groupBy(lower)") == "f.marbles:2:25: " + groupByUsage)
    #expect(error("src | groupBy(lower switch)") == "f.marbles:2:25: " + groupByUsage)
  }

  @Test func aTypoNamesTheNearestNewStep() {
    #expect(
      error("src | zipp(nums)").hasPrefix(
        "f.marbles:2:17: unknown step 'zipp'; did you mean 'zip'?"))
    #expect(
      error("src | groupby(lower merge)").hasPrefix(
        "f.marbles:2:17: unknown step 'groupby'; did you mean 'groupBy'?"))
    #expect(
      error("src | materialise").hasPrefix(
        "f.marbles:2:17: unknown step 'materialise'; did you mean 'materialize'?"))
    #expect(
      error("src | combineLatst(nums)").hasPrefix(
        "f.marbles:2:17: unknown step 'combineLatst'; did you mean 'combineLatest'?"))
    #expect(
      error("src | bufer(2)").hasPrefix(
        "f.marbles:2:17: unknown step 'bufer'; did you mean 'buffer'?"))
  }

  // MARK: Running

  @Test func combineLatestJoinsEachPairsTexts() throws {
    let result = try run(
      """
      title: combineLatest
      values: w = a1, x = b1, y = b2
      pipeline: src | combineLatest(nums)
      src   cold  -a---b---|
      nums  cold  ---1---2-|
      sub1  gets  ---w-x-y-|
      """)
    #expect(result.passed, "\(result.text)")
  }

  @Test func zipJoinsEachPairsTexts() throws {
    let result = try run(
      """
      title: zip
      values: x = a1, y = b2
      pipeline: src | zip(nums)
      src   cold  -a-b-c|
      nums  cold  ---1---2|
      sub1  gets  ---x---y|
      """)
    #expect(result.passed, "\(result.text)")
  }

  @Test func bufferJoinsEachWindowsTexts() throws {
    let result = try run(
      """
      title: buffer
      values: x = ab, y = cd
      pipeline: src | buffer(5, 2)
      src   cold  -ab--c--d|
      sub1  gets  --x-----y|
      """)
    #expect(result.passed, "\(result.text)")
  }

  @Test func materializeWritesEachEvent() throws {
    let result = try run(
      """
      title: materialize
      values: a = package 1, x = next(package 1), c = completed
      pipeline: src | materialize
      src   cold  -a|
      sub1  gets  -x(c|)
      """)
    #expect(result.passed, "\(result.text)")
  }

  @Test func groupByFlattensItsGroupsWithTheStrategy() throws {
    let result = try run(
      """
      title: groupBy concat
      pipeline: src | groupBy(lower concat)
      src   cold  -a-B-A-b-a|
      sub1  gets  -a---A---a|
      """)
    #expect(result.passed, "\(result.text)")
  }

  @Test func aWrongRowDrawsValuesWithTheirKeysAndNamesTheOthers() throws {
    let result = try run(
      """
      title: zip, wrong on purpose
      values: x = a1
      pipeline: src | zip(nums)
      src   cold  -a-b|
      nums  cold  ---1-2|
      sub1  gets  ---x-x|
      """)
    #expect(!result.passed)
    #expect(
      result.text == """
        src   cold  -a-b|
        nums  cold  ---1-2|
        sub1  gets  ---x-x|
               was  ---x-(α|)  where α = "b2"
                         ^

        sub1 got `b2` at frame 5 instead of `x`
        """)
  }
}
