import { Effect, Stream } from "effect"

/** Base64 characters decoded at a time: a multiple of 4, so every slice but the last is whole. */
const SLICE_CHARS = 64 * 1024

/** The bytes of base64 text, decoded slice by slice as the stream is read (never the whole content at once). */
export const base64Stream = <E>(text: string, invalid: () => E): Stream.Stream<Uint8Array, E> =>
  Stream.fromIterable(
    (function* () {
      for (let start = 0; start < text.length; start += SLICE_CHARS) yield text.slice(start, start + SLICE_CHARS)
    })()
  ).pipe(
    Stream.mapEffect((slice) =>
      Effect.try({ try: () => Uint8Array.from(atob(slice), (c) => c.charCodeAt(0)), catch: invalid })
    )
  )

/** The number of bytes base64 text (without whitespace) decodes to. */
export const base64DecodedSize = (text: string): number => {
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0
  return Math.max(0, Math.floor((text.length * 3) / 4) - padding)
}
