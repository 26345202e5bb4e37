import { Schema } from "effect"

/** No file is stored under the key. */
export class FileNotFound extends Schema.TaggedError<FileNotFound>()("FileNotFound", {
  key: Schema.String
}) {}

/** The content passed the size limit; nothing was stored. */
export class FileTooLarge extends Schema.TaggedError<FileTooLarge>()("FileTooLarge", {
  maxBytes: Schema.Int
}) {}

/** A client's file path is not a path of the vault (traversal, absolute, empty segment, control character...). */
export class InvalidFilePath extends Schema.TaggedError<InvalidFilePath>()("InvalidFilePath", {
  reason: Schema.String
}) {}

/** The file key given is not the key of the team the path belongs to. */
export class FileKeyRefused extends Schema.TaggedError<FileKeyRefused>()("FileKeyRefused", {
  teamId: Schema.String
}) {}

/**
 * The file store failed or refused (a full disk, a permission, a symbolic link where a file or folder should be); the
 * operation did not complete and left what was there before. Not a database outage.
 */
export class FileStoreUnavailable extends Schema.TaggedError<FileStoreUnavailable>()("FileStoreUnavailable", {
  operation: Schema.String
}) {}

/** A presigned file link that does not open: its signature does not hold for what it names, or it has expired. */
export class FileLinkRefused extends Schema.TaggedError<FileLinkRefused>()("FileLinkRefused", {
  reason: Schema.Literals(["signature", "expired"])
}) {}
