// Swift Testing declares a cross-import overlay for UIKit (Testing.swiftcrossimport names
// `_Testing_UIKit`), which the Linux toolchain does not ship: a file that imports both Testing
// and our UIKit would fail with "no such module '_Testing_UIKit'". This empty module is that
// overlay's stand-in. UIKit depends on it, so it is built wherever UIKit is and an app's test
// target compiles unchanged. (Apple's overlay adds image attachments for UIImage, which this
// UIKit has no type for.)
