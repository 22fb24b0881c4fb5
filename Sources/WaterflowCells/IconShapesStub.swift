// TEMPORARY STUB until the icon helper lands IconShapes.swift
public enum IconSegment: Hashable, Sendable {
  case move(x: Double, y: Double)
  case line(x: Double, y: Double)
  case curve(x1: Double, y1: Double, x2: Double, y2: Double, x: Double, y: Double)
  case close
}
public enum IconPaint: Hashable, Sendable { case fill, fillEvenOdd, stroke(width: Double) }
public struct IconPart: Hashable, Sendable { public var segments: [IconSegment]; public var paint: IconPaint }
public struct IconShape: Hashable, Sendable {
  public var name: String
  public var parts: [IconPart]
  public init?(named name: String) { guard Self.names.contains(name) else { return nil }; self.name = name; parts = [] }
  public static let names = ["bookmark", "heart", "star"]
}
