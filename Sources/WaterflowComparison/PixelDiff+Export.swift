// ImageDiff, DiffResult and the options of a comparison live in PixelDiff, which `waterflow diff`
// links without cairo; goldens compare with them, so importing WaterflowComparison gives them too.
@_exported public import PixelDiff
