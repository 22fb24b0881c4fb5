import UIKit

/// One note of the feed, as the app's API returns it.
public struct Note: Sendable {
  public var id: String
  public var title: String
  public var author: String
  public var likes: Int
  /// The cover's pixel size.
  public var coverWidth: CGFloat
  public var coverHeight: CGFloat

  public init(id: String, title: String, author: String, likes: Int, coverWidth: CGFloat, coverHeight: CGFloat) {
    self.id = id
    self.title = title
    self.author = author
    self.likes = likes
    self.coverWidth = coverWidth
    self.coverHeight = coverHeight
  }
}

/// The cell of a note: its cover and caption are drawn by Waterflow's template in the tests.
public final class NoteCell: UICollectionViewCell {
  public private(set) var note: Note?

  public func show(_ note: Note) {
    self.note = note
    contentView.backgroundColor = .secondarySystemBackground
  }

  public override func prepareForReuse() {
    super.prepareForReuse()
    note = nil
  }
}

/// The feed's data source and layout delegate: covers keep their aspect, and 44 points below
/// them hold the caption.
public final class FeedDataSource: NSObject, UICollectionViewDataSource, FeedLayoutDelegate {
  public var notes: [Note]

  public init(notes: [Note]) { self.notes = notes }

  public func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
    notes.count
  }

  public func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
    let cell = collectionView.dequeueReusableCell(withReuseIdentifier: "note", for: indexPath) as! NoteCell
    cell.show(notes[indexPath.item])
    return cell
  }

  public func collectionView(_ collectionView: UICollectionView, heightForItemAt indexPath: IndexPath, width: CGFloat) -> CGFloat {
    let note = notes[indexPath.item]
    return (width * note.coverHeight / note.coverWidth).rounded() + 44
  }

  /// A feed of `count` notes with seeded sizes and counts.
  public static func sample(count: Int) -> FeedDataSource {
    let titles = ["海边日落🌅", "Latte art at home", "草莓奶油蛋糕", "City walk in Lisbon", "山顶的早晨", "Weekend market"]
    let authors = ["小鹿", "Mia", "阿杰", "Leo"]
    let sizes: [(CGFloat, CGFloat)] = [(540, 720), (540, 540), (405, 540), (540, 675)]
    var notes: [Note] = []
    for i in 0..<count {
      let id = String(i * 2_654_435_761 % 4_294_967_291, radix: 16)
      let size = sizes[i % sizes.count]
      notes.append(
        Note(
          id: id, title: titles[i % titles.count], author: authors[i % authors.count],
          likes: (i * 7919) % 30_000, coverWidth: size.0, coverHeight: size.1))
    }
    return FeedDataSource(notes: notes)
  }
}

/// Makes the feed's collection view, as the app's view controller does.
@MainActor
public func makeFeedView(frame: CGRect, dataSource: FeedDataSource, layout: FeedLayout = FeedLayout()) -> UICollectionView {
  layout.delegate = dataSource
  let view = UICollectionView(frame: frame, collectionViewLayout: layout)
  view.register(NoteCell.self, forCellWithReuseIdentifier: "note")
  view.dataSource = dataSource
  view.backgroundColor = .systemBackground
  return view
}
