import { Schema } from "effect"

/** The longest file name kept, in characters. */
export const MAX_FILE_NAME_LENGTH = 255

/**
 * A file's name as its owner gave it: 1 to 255 characters without control characters. It is metadata (shown, and
 * offered as the download's name), never part of where the file is stored.
 */
export const FileName = Schema.String.check(
  Schema.isBetweenLength(1, MAX_FILE_NAME_LENGTH, {
    message: `expected a file name of 1 to ${MAX_FILE_NAME_LENGTH} characters`
  }),
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this refuses
  Schema.isPattern(/^[^\u0000-\u001f\u007f-\u009f]*$/u, { message: "expected a file name without control characters" })
)
