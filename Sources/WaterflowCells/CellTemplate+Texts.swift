extension CellTemplate {
  /// The template with each text it shows (texts, badges, avatars' names) replaced, as a string
  /// table replaces `"@key"` texts; `path` names the element (`content.vstack[1].text`).
  ///
  /// - Complexity: O(number of elements).
  public func replacingTexts<E: Error>(
    _ transform: (_ text: FieldText, _ path: String) throws(E) -> FieldText
  ) throws(E) -> CellTemplate {
    var copy = self
    copy.content = try content.replacingTexts(path: "content", transform)
    return copy
  }
}

extension CellElement {
  fileprivate func replacingTexts<E: Error>(
    path: String, _ transform: (FieldText, String) throws(E) -> FieldText
  ) throws(E) -> CellElement {
    var copy = self
    let here = "\(path).\(name)"
    // A text chosen by a condition is its two texts, each replaced.
    func replace(_ text: FieldText, _ place: String) throws(E) -> FieldText {
      try text.mappingTexts { (t: FieldText) throws(E) in try transform(t, place) }
    }
    switch kind {
    case .stack(var stack):
      for i in stack.children.indices {
        stack.children[i] = try stack.children[i].replacingTexts(path: "\(here)[\(i)]", transform)
      }
      copy.kind = .stack(stack)
    case .zstack(var z):
      for i in z.children.indices {
        z.children[i] = try z.children[i].replacingTexts(path: "\(here)[\(i)]", transform)
      }
      copy.kind = .zstack(z)
    case .text(var text):
      text.text = try replace(text.text, here)
      copy.kind = .text(text)
    case .badge(var badge):
      badge.text = try replace(badge.text, here)
      copy.kind = .badge(badge)
    case .avatar(var avatar):
      if let name = avatar.name { avatar.name = try replace(name, here + ".name") }
      copy.kind = .avatar(avatar)
    case .image, .icon, .rect, .spacer: break
    }
    return copy
  }
}
