// WaterflowReview.docc, "Reviewing Failures": a review of the shop goldens made and answered here
// against the committed goldens (which pass, so it has nothing to review); the server is compiled,
// not started.
import Foundation
import Testing
// doc: review-from-swift begin
import WaterflowGolden
import WaterflowGoldenReport
import WaterflowRender
import WaterflowReview

// doc: review-from-swift end

@Suite struct GoldenReviewSnippetTests {
  @Test func aReviewOfTheShopGoldens_IsServedBySite() throws {
    // doc: review-from-swift begin
    let manifest = try GoldenManifest(contentsOf: "Golden/manifest.json")
    let renderer = try Renderer()
    let fingerprint = FontStackFingerprint(renderer: renderer)
    let store = GoldenStore(
      directory: "Golden", configuration: .init(recordMode: .never, artifactsDirectory: ".build/review-artifacts"))
    var items: [GoldenReviewItem] = []
    var images: [String: String] = [:]  // what the page may load, by key: here the path itself
    for entry in manifest.entries where entry.name.hasPrefix("shop/") {
      let outcome = try store.check(entry, renderer: renderer, fingerprint: fingerprint)
      if let item = GoldenReviewItem(outcome, digest: store.digest(of: entry.name), imageKey: { $0 }) {
        items.append(item)
        for path in item.images { images[path] = path }
      }
    }
    let review = GoldenReview(
      items: items, manifest: manifest, store: store, renderer: renderer, fingerprint: fingerprint)
    let site = ReviewSite(review: review, images: images, title: "Golden/manifest.json")
    // doc: review-from-swift end
    // The committed goldens pass: nothing to review, and the API says so to a request with the token.
    #expect(items.isEmpty)
    site.listening(on: 4321)
    let response = site.respond(to: ReviewRequest(
      method: "GET", path: "/api/goldens", headers: ["Host": "127.0.0.1:4321", "X-Waterflow-Token": site.token]))
    #expect(response.status == 200, "\(response.text)")
    #expect(response.text.contains(#""goldens": []"#) || response.text.contains(#""goldens":[]"#), "\(response.text)")
    #expect(site.respond(to: ReviewRequest(method: "GET", path: "/api/goldens", headers: ["Host": "127.0.0.1:4321"])).status == 403)
  }
}

/// Compiled, not called: the server serves until the process ends.
func reviewServerSnippet(site: ReviewSite) throws {
  // doc: review-from-swift begin
  let port = try ReviewServer(site: site).start(port: 0)  // any free port on 127.0.0.1
  site.listening(on: port)
  print("Review at \(site.address)")
  // doc: review-from-swift end
}
