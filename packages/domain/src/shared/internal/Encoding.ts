const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** UTF-8 bytes of a string. */
export const utf8 = (text: string): Uint8Array<ArrayBuffer> => encoder.encode(text)

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"))

/** Lowercase hex of bytes. */
export const toHex = (bytes: Uint8Array): string => {
  let hex = ""
  for (const b of bytes) hex += HEX[b]
  return hex
}

/** Unpadded base64url of bytes. */
export const toBase64Url = (bytes: Uint8Array): string =>
  btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(""))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/u, "")

/** Bytes from base64url; undefined when the input is not base64url. */
export const bytesFromBase64Url = (input: string): Uint8Array<ArrayBuffer> | undefined => {
  if (!/^[A-Za-z0-9_-]*$/u.test(input)) return undefined
  try {
    return Uint8Array.from(atob(input.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0))
  } catch {
    return undefined
  }
}

/** Text from base64url; undefined when the input is not base64url. */
export const textFromBase64Url = (input: string): string | undefined => {
  const bytes = bytesFromBase64Url(input)
  return bytes === undefined ? undefined : decoder.decode(bytes)
}
