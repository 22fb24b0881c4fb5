// A test that imports WaterflowGolden gets what a golden's comparison is made of too (ImageDiff,
// DiffTolerance, GoldenFacts, GoldenError), as it did before comparing had a module of its own:
// the umbrella re-export swift-collections' `Collections` module uses.
@_exported public import WaterflowComparison
