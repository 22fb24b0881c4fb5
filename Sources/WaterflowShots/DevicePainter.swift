import Cairo
import WaterflowScene

/// Draws what surrounds a scene in a shot: the status bar and home indicator on the screen,
/// and, framed, the device's body, its camera cutout, the caption and the background.
///
/// Everything is vector paths and text from the font files, so shots are the same bytes on
/// every machine: no device bitmaps are shipped or downloaded.
struct DevicePainter {
  var device: Device
  var appearance: Appearance
  var style: Style
  var isRightToLeft: Bool
  var fonts: FontStack
  var showsStatusBar: Bool

  // MARK: - Screen

  /// Draws the screen in a context whose user space is the screen in points: the canvas
  /// colour, the scene below the status bar, the status bar, and the home indicator (and,
  /// framed, the camera cutout, which is hardware a real screenshot does not show).
  func drawScreen(in context: Context, framed: Bool, content: () -> Void) {
    let size = device.size
    let top = showsStatusBar ? device.statusBarHeight : 0
    fill(context, x: 0, y: 0, width: size.width, height: size.height, style.background)
    context.withSavedState {
      context.translate(x: 0, y: top)
      content()
    }
    let ink = isDark(style.background) ? Color(red: 1, green: 1, blue: 1) : Color(red: 0, green: 0, blue: 0)
    if showsStatusBar { drawStatusBar(in: context, ink: ink) }
    if framed { drawCutout(in: context) }
    if device.hasHomeIndicator {
      let width = device.isTablet ? 320.0 : 134
      let bar = Color(red: ink.red, green: ink.green, blue: ink.blue, alpha: 0.85)
      set(context, bar)
      context.roundedRectangle(
        x: (size.width - width) / 2, y: size.height - 8 - 5, width: width, height: 5, radius: 2.5)
      context.fill()
    }
  }

  /// 9:41, full signal, Wi-Fi and a full battery, as Apple's marketing screenshots show.
  private func drawStatusBar(in context: Context, ink: Color) {
    let w = device.size.width
    let h = device.statusBarHeight
    // Where the island or notch leaves room: the time centred in the left ear, the icons in
    // the right one. Home-button phones and iPads put the time in the middle or the corner.
    let midY: Double
    let timeX: Double
    let iconsRight: Double
    let timeSize: Double
    switch device.cutout {
    case .island, .notch:
      midY = device.cutout == .island ? 29.5 : h / 2 + 2
      let ear = w / 2 - (device.cutout == .island ? 63 : 105)
      timeX = ear / 2 + 10
      iconsRight = w - ear / 2 + 28
      timeSize = 16
    case .punchHole:
      midY = h / 2
      timeX = 34
      iconsRight = w - 14
      timeSize = 13
    case .none:
      midY = h / 2
      timeX = device.hasHomeButton ? w / 2 : 40
      iconsRight = w - 10
      timeSize = device.hasHomeButton ? 12 : 13
    }
    let time = TextLayout("9:41", fonts: fonts, size: timeSize, weight: .bold)
    let box = time.logicalBox
    let flip = { (x: Double) in self.isRightToLeft ? w - x : x }
    set(context, ink)
    context.draw(time, x: flip(timeX) - box.width / 2 - box.x, y: midY - box.height / 2)

    // Battery, then Wi-Fi, then signal, from the right edge inwards.
    let batteryWidth = 25.0
    let batteryHeight = 12.0
    var x = iconsRight - batteryWidth - 3
    let batteryTop = midY - batteryHeight / 2
    context.withSavedState {
      let left = isRightToLeft ? w - x - batteryWidth : x
      context.setSource(red: ink.red, green: ink.green, blue: ink.blue, alpha: 0.4)
      context.lineWidth = 1
      context.roundedRectangle(
        x: left + 0.5, y: batteryTop + 0.5, width: batteryWidth - 1, height: batteryHeight - 1,
        radius: 3.5)
      context.stroke()
      let nubX = isRightToLeft ? left - 2.5 : left + batteryWidth + 1
      context.roundedRectangle(x: nubX, y: midY - 2, width: 1.5, height: 4, radius: 0.75)
      context.fill()
      set(context, ink)
      context.roundedRectangle(
        x: left + 2, y: batteryTop + 2, width: batteryWidth - 4, height: batteryHeight - 4,
        radius: 2)
      context.fill()
    }
    x -= 6 + 16
    drawWiFi(in: context, x: isRightToLeft ? w - x - 16 : x, midY: midY, ink: ink)
    x -= 6 + 18
    let signalLeft = isRightToLeft ? w - x - 18 : x
    for bar in 0..<4 {
      let barHeight = 4 + Double(bar) * 2.6
      context.roundedRectangle(
        x: signalLeft + Double(bar) * 4.8, y: midY + 5.5 - barHeight, width: 3.2,
        height: barHeight, radius: 1)
    }
    set(context, ink)
    context.fill()
  }

  /// Three arcs and a dot, as a wedge: the Wi-Fi glyph at full strength.
  private func drawWiFi(in context: Context, x: Double, midY: Double, ink: Color) {
    let cx = x + 8
    let cy = midY + 5.5
    set(context, ink)
    context.withSavedState {
      context.lineWidth = 2
      context.roundsLineEnds = true
      for radius in [3.5, 7.5, 11.5] {
        context.newPath()
        context.arc(
          centerX: cx, centerY: cy, radius: radius, startAngle: -Double.pi * 0.75,
          endAngle: -Double.pi * 0.25)
        context.stroke()
      }
    }
    context.newPath()
    context.arc(centerX: cx, centerY: cy - 0.5, radius: 1.5, startAngle: 0, endAngle: 2 * Double.pi)
    context.fill()
  }

  /// The Dynamic Island, the notch or the punch-hole camera, in black.
  private func drawCutout(in context: Context) {
    let w = device.size.width
    set(context, Color(red: 0, green: 0, blue: 0))
    switch device.cutout {
    case .island:
      context.roundedRectangle(x: (w - 126) / 2, y: 11, width: 126, height: 37, radius: 18.5)
      context.fill()
    case .notch:
      let width = 210.0
      context.roundedRectangle(x: (w - width) / 2, y: -20, width: width, height: 20 + 30, radius: 20)
      context.fill()
    case .punchHole:
      context.arc(centerX: w / 2, centerY: 12, radius: 5.5, startAngle: 0, endAngle: 2 * Double.pi)
      context.fill()
    case .none: break
    }
  }

  // MARK: - Frame

  /// The body around the screen, in points: left, top, right, bottom.
  private var bezel: (left: Double, top: Double, right: Double, bottom: Double) {
    if device.hasHomeButton { return (22, 96, 22, 96) }
    if device.isTablet { return (26, 26, 26, 26) }
    return device.isAndroid ? (10, 14, 10, 14) : (14, 14, 14, 14)
  }

  /// Draws a framed shot in a context whose user space is the canvas in pixels: the
  /// background, the caption above, and the device scaled to fit below it.
  func drawFramed(
    caption: String?, background: ShotFile.Background, in context: Context, screen: () -> Void
  ) {
    let canvasWidth = Double(device.pixelWidth)
    let canvasHeight = Double(device.pixelHeight)
    let top = background.top.resolved(for: appearance)
    let bottom = background.bottom.resolved(for: appearance)
    context.rectangle(x: 0, y: 0, width: canvasWidth, height: canvasHeight)
    context.fillVerticalGradient(
      top: 0, bottom: canvasHeight, from: (top.red, top.green, top.blue, 1),
      to: (bottom.red, bottom.green, bottom.blue, 1))

    // The caption takes two lines of room whether it needs them or not, so that devices sit
    // at the same place in every locale.
    let hasCaption = !(caption ?? "").isEmpty
    let deviceTop = self.deviceTop(hasCaption: hasCaption)
    if let caption, hasCaption {
      let (size, lineHeight, margin) = captionMetrics()
      let width = canvasWidth * 0.86
      let text = TextLayout(
        caption, fonts: fonts, size: size, width: width, maxLines: 2, lineHeight: lineHeight,
        alignment: .center, weight: .bold)
      let mid = Color(
        red: (top.red + bottom.red) / 2, green: (top.green + bottom.green) / 2,
        blue: (top.blue + bottom.blue) / 2)
      set(context, isDark(mid) ? Color(red: 1, green: 1, blue: 1) : Color(red: 0.11, green: 0.11, blue: 0.12))
      let blockHeight = lineHeight * 2
      let textTop = margin + (blockHeight - text.logicalBox.height) / 2
      context.draw(text, x: (canvasWidth - width) / 2, y: textTop)
    }

    let place = placement(deviceTop: deviceTop)
    context.withSavedState {
      context.translate(x: place.bodyX, y: deviceTop)
      context.scale(x: place.scale, y: place.scale)
      drawBody(width: place.bodyWidth, height: place.bodyHeight, in: context)
      context.translate(x: bezel.left, y: bezel.top)
      context.withSavedState {
        context.roundedRectangle(
          x: 0, y: 0, width: device.size.width, height: device.size.height,
          radius: device.screenCornerRadius)
        context.clip()
        drawScreen(in: context, framed: true, content: screen)
      }
    }
  }

  /// Where the device goes in a framed shot: its body's size in points, the scale from points
  /// to canvas pixels, and its left edge in pixels.
  private func placement(deviceTop: Double)
    -> (bodyWidth: Double, bodyHeight: Double, scale: Double, bodyX: Double)
  {
    let canvasWidth = Double(device.pixelWidth)
    let canvasHeight = Double(device.pixelHeight)
    let b = bezel
    let bodyWidth = device.size.width + b.left + b.right
    let bodyHeight = device.size.height + b.top + b.bottom
    let room = (width: canvasWidth * 0.84, height: canvasHeight - deviceTop - canvasHeight * 0.04)
    let scale = min(room.width / bodyWidth, room.height / bodyHeight)
    return (bodyWidth, bodyHeight, scale, (canvasWidth - bodyWidth * scale) / 2)
  }

  /// Where the screen's top-left corner lands in the shot, in pixels, and the pixels per
  /// point of the screen: what golden facts need to find cells in the image.
  func screenPlacement(framed: Bool, hasCaption: Bool) -> (x: Double, y: Double, scale: Double) {
    guard framed else { return (0, 0, device.scale) }
    let top = deviceTop(hasCaption: hasCaption)
    let place = placement(deviceTop: top)
    return (place.bodyX + bezel.left * place.scale, top + bezel.top * place.scale, place.scale)
  }

  /// The caption's size in pixels, and the top of the device below it.
  private func captionMetrics() -> (size: Double, lineHeight: Double, margin: Double) {
    let canvasWidth = Double(device.pixelWidth)
    let canvasHeight = Double(device.pixelHeight)
    let size = min(canvasWidth * 0.064, canvasHeight * 0.034)
    return (size, size * 1.25, canvasHeight * 0.04)
  }

  private func deviceTop(hasCaption: Bool) -> Double {
    let m = captionMetrics()
    return hasCaption ? m.margin + m.lineHeight * 2 + Double(device.pixelHeight) * 0.03 : m.margin
  }

  /// The body: a soft shadow, side buttons, a rim and the black glass around the screen.
  private func drawBody(width: Double, height: Double, in context: Context) {
    let radius = device.hasHomeButton ? 56 : device.screenCornerRadius + bezel.left
    // A shadow from stacked translucent outlines, as cells draw theirs: cairo has no blur.
    context.setSource(red: 0, green: 0, blue: 0, alpha: 0.05)
    for ring in 1...6 {
      let grow = Double(ring) * 3
      context.roundedRectangle(
        x: -grow / 2, y: 10 - grow / 2, width: width + grow, height: height + grow,
        radius: radius + grow / 2)
      context.fill()
    }
    let metal = Color(red: 0.36, green: 0.36, blue: 0.38)
    if !device.isTablet {
      // Buttons stand 2.5 pt proud of the sides: action and volume on the left, power right.
      set(context, metal)
      for (y, length) in [(0.17, 0.045), (0.25, 0.08), (0.35, 0.08)] {
        context.roundedRectangle(
          x: -2.5, y: height * y, width: 5, height: height * length, radius: 1.5)
      }
      context.roundedRectangle(x: width - 2.5, y: height * 0.27, width: 5, height: height * 0.11, radius: 1.5)
      context.fill()
    }
    set(context, metal)
    context.roundedRectangle(x: 0, y: 0, width: width, height: height, radius: radius)
    context.fill()
    set(context, Color(red: 0.07, green: 0.07, blue: 0.08))
    context.roundedRectangle(x: 2, y: 2, width: width - 4, height: height - 4, radius: radius - 2)
    context.fill()
    if device.hasHomeButton {
      let b = bezel
      let cx = width / 2
      // The earpiece above the screen and the home button below it.
      set(context, Color(red: 0.2, green: 0.2, blue: 0.22))
      context.roundedRectangle(x: cx - 24, y: b.top / 2 - 3, width: 48, height: 6, radius: 3)
      context.fill()
      context.lineWidth = 2
      context.newPath()
      context.arc(
        centerX: cx, centerY: height - b.bottom / 2, radius: 27, startAngle: 0,
        endAngle: 2 * Double.pi)
      context.stroke()
    }
  }

  // MARK: - Colours

  private func isDark(_ c: Color) -> Bool {
    0.299 * c.red + 0.587 * c.green + 0.114 * c.blue < 0.5
  }

  private func set(_ context: Context, _ c: Color) {
    context.setSource(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
  }

  private func fill(
    _ context: Context, x: Double, y: Double, width: Double, height: Double, _ c: Color
  ) {
    set(context, c)
    context.rectangle(x: x, y: y, width: width, height: height)
    context.fill()
  }
}
