// The Combine article's `share()` listing, whole, with the article's imports (OpenCombine's here);
// the rest of the six requests' story is SixRequestsTests.swift.
// swift-format-ignore: OrderedImports
import MarbleTesting
import Marbles
import Testing

// snippet: combine-share
import MarblesOpenCombine
import OpenCombineShim

@Test func shareRunsItOnceButALateBindingMissesTheAnswer() {
  assertTable(
    """
    api    cold  ---(r|)
    name   sub   ^
    name   gets  ---(r|)
    photo  sub   -^
    photo  gets  ---(r|)
    late   sub   -----^
    late   gets  -----|
    api    subs  ^--!
    """
  ) { (sources: TableSources<String, Never>) in profileRequest(sources["api"]).share() }
}
// snippet-end
